import { canDiscretize, DISCRETIZATION_BLOCKED } from '../../../domain/discretization.ts'
import type { RUN_ROUTES } from '../../../domain/rest/runRoutes.ts'
import { validateSetup } from '../../../domain/setupValidation.ts'
import { jobRunnerFor } from '../../jobs/services.ts'
import {
  ACTIVE_JOB_STATES,
  findLatestDiscretization,
  toDiscretization,
} from '../../jobs/records.ts'
import { findAccessibleSimulation } from '../access.ts'
import { notFound } from '../apiError.ts'
import type { AreaHandlers } from '../context.ts'
import { blockedError, conflict, loadSetupOf } from './runChecks.ts'

/* Discretizations of a setup (spec/setup.md §7 "Discretization"): the latest, start, cancel. */

type Handlers = AreaHandlers<typeof RUN_ROUTES>

const getDiscretization: Handlers['getDiscretization'] = async ({ params }, { db, user }) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const row = await findLatestDiscretization(db, simulation.id)
  return row ? toDiscretization(row) : null
}

const startDiscretization: Handlers['startDiscretization'] = async (
  { params },
  { db, user, clock },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const latest = await findLatestDiscretization(db, simulation.id)
  if (latest && (ACTIVE_JOB_STATES as readonly string[]).includes(latest.state))
    throw conflict('A discretization is already running.')
  const runner = jobRunnerFor(db)
  const setup = await loadSetupOf(db, simulation.id)
  const issues = validateSetup({
    settings: setup.settings,
    materials: setup.materials,
    parts: setup.parts,
    movements: setup.movements,
  })
  if (!canDiscretize(issues))
    throw blockedError(
      DISCRETIZATION_BLOCKED.text,
      issues.filter((i) => i.level !== 'warning'),
    )
  const nowIso = clock.nowIso()
  const row = await db
    .insertInto('jobs')
    .values({
      simulation_id: simulation.id,
      kind: 'discretization',
      state: 'scheduled',
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  runner.enqueue(row.id)
  runner.notifyDiscretizationChanged(simulation.id)
  return toDiscretization(row)
}

const cancelDiscretization: Handlers['cancelDiscretization'] = async ({ params }, { db, user }) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const latest = await findLatestDiscretization(db, simulation.id)
  if (!latest) throw notFound('Discretization')
  if (!(ACTIVE_JOB_STATES as readonly string[]).includes(latest.state))
    throw conflict('The discretization is not running.')
  const row = await jobRunnerFor(db).cancelDiscretization(latest.id)
  return toDiscretization(row)
}
/** The discretization handlers of RUN_ROUTES. */
export const discretizationHandlers = {
  getDiscretization,
  startDiscretization,
  cancelDiscretization,
} satisfies Partial<Handlers>
