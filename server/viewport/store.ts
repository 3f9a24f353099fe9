import type { Kysely } from 'kysely'
import type { SavedViewportState } from '../../domain/rest/viewportRoutes.ts'
import { ViewportStateSchema, type ViewportMode, type ViewportState } from '../../domain/results.ts'
import * as v from 'valibot'
import type { Database } from '../db/schema.ts'

/**
 * The saved viewport states (table viewport_states): one per simulation and mode, replaced on every
 * save. A stored state that no longer reads as a ViewportState is treated as none.
 */

/** The saved state of a simulation's viewport in a mode (state null: none saved). */
export async function readViewportState(
  db: Kysely<Database>,
  simulationId: number,
  mode: ViewportMode,
): Promise<SavedViewportState> {
  const row = await db
    .selectFrom('viewport_states')
    .select(['state', 'updated_at'])
    .where('simulation_id', '=', simulationId)
    .where('mode', '=', mode)
    .executeTakeFirst()
  if (!row) return { simulationId, mode, state: null, updatedAt: null }
  return { simulationId, mode, state: parseStoredState(row.state), updatedAt: row.updated_at }
}

function parseStoredState(text: string): ViewportState | null {
  try {
    const parsed = v.safeParse(ViewportStateSchema, JSON.parse(text))
    return parsed.success ? parsed.output : null
  } catch {
    return null
  }
}

/** Saves (inserts or replaces) the state of a simulation's viewport in a mode. */
export async function writeViewportState(
  db: Kysely<Database>,
  simulationId: number,
  mode: ViewportMode,
  state: ViewportState,
  nowIso: string,
): Promise<SavedViewportState> {
  const text = JSON.stringify(state)
  await db
    .insertInto('viewport_states')
    .values({
      simulation_id: simulationId,
      mode,
      state: text,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .onConflict((conflict) =>
      conflict.columns(['simulation_id', 'mode']).doUpdateSet({ state: text, updated_at: nowIso }),
    )
    .execute()
  return { simulationId, mode, state, updatedAt: nowIso }
}

/** Forgets the saved state of a simulation's viewport in a mode. */
export async function deleteViewportState(
  db: Kysely<Database>,
  simulationId: number,
  mode: ViewportMode,
): Promise<SavedViewportState> {
  await db
    .deleteFrom('viewport_states')
    .where('simulation_id', '=', simulationId)
    .where('mode', '=', mode)
    .execute()
  return { simulationId, mode, state: null, updatedAt: null }
}
