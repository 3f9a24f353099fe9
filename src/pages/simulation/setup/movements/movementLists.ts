import { useAtomValue } from 'jotai'
import { useMemo } from 'react'
import type { Movement } from '../../../../../domain/movements.ts'
import type { Part } from '../../../../../domain/parts.ts'
import type { Vec3 } from '../../../../../domain/vector.ts'
import { useMovementsQuery, usePartsQuery, useSettingsQuery } from '../queries/setupQueries.ts'
import { parseObjectId, setupSelectionAtom } from '../state/setupAtoms.ts'

/** Movements that move geometry; virtual ones only carry a moving wall's velocity condition. */
export function realMovements(movements: readonly Movement[]): Movement[] {
  return movements.filter((m) => !m.virtualMovement)
}

/** The part's centre: its geometry facts' centre, else its translation, else the origin. */
export function partCenterOf(part: Part | undefined): Vec3 {
  if (!part) return [0, 0, 0]
  if (part.shape.info) return part.shape.info.center
  const [x, y, z] = part.shape.translation
  return [x ?? 0, y ?? 0, z ?? 0]
}

/** A movement's active time as text: '0 s – 2 s' or '0.5 s – end'. */
export function movementSpan(
  movement: Pick<Movement, 'start' | 'end'>,
  format: (n: number) => string,
) {
  return `${format(movement.start)} s – ${movement.end === null ? 'end' : `${format(movement.end)} s`}`
}

/** The one selected part (null for none, several, or another kind of object). */
export function useSelectedPartId(): number | null {
  const selection = useAtomValue(setupSelectionAtom)
  if (selection.length !== 1) return null
  const parsed = parseObjectId(selection[0] as string)
  return parsed.kind === 'part' ? parsed.id : null
}

/** What the movement forms read: parts, every movement, part names and the end time. */
export function useMovementContext(simulationId: number) {
  const parts = usePartsQuery(simulationId)
  const movements = useMovementsQuery(simulationId)
  const settings = useSettingsQuery(simulationId)
  const partNames = useMemo(
    () => new Map((parts.data ?? []).map((p) => [p.id, p.name] as const)),
    [parts.data],
  )
  return {
    parts: parts.data,
    movements: movements.data,
    movementsError: movements.error,
    partNames,
    endTime: settings.data?.settings.endTime ?? null,
    loading: parts.isPending || movements.isPending,
  }
}
