import { useSetAtom } from 'jotai'
import type { Part } from '../../../../../domain/parts.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { Vec3 } from '../../../../../domain/vector.ts'
import { setupSelectionAtom, sideFormAtom } from '../state/setupAtoms.ts'
import { domainBoxAround, type AddEntryKey } from '../toolbar/toolbarModel.ts'
import {
  useAddPeriodicMutation,
  useAddRefinementMutation,
  useSwitchAirDragMutation,
} from './objectQueries.ts'

/** 'Refinement Zone 1', … : the first number not taken by another zone. */
export function nextZoneName(taken: readonly string[]): string {
  for (let n = 1; ; n++) if (!taken.includes(`Refinement Zone ${n}`)) return `Refinement Zone ${n}`
}

/** The centre and edge lengths of the box around the parts (m, rounded to mm). */
export function boxAroundParts(parts: readonly Pick<Part, 'shape'>[]): {
  center: Vec3
  size: Vec3
} {
  const { min, max } = domainBoxAround(parts)
  const round = (x: number) => Math.round(x * 1000) / 1000
  return {
    center: [0, 1, 2].map((i) => round((min[i]! + max[i]!) / 2)) as Vec3,
    size: [0, 1, 2].map((i) => round(max[i]! - min[i]!)) as Vec3,
  }
}

/**
 * The Add menu's Refinement Zone (a cube a quarter the size of the box around the parts, at its
 * centre), Air drag domain (air drag on with a domain around the parts) and Periodic Boundary (a
 * 90° slice about z through the parts' centre): each is created, selected and its form opened.
 * Returns whether `key` was one of them.
 */
export function useAddSetupObject(
  simulation: Simulation,
  parts: readonly Part[],
  zoneNames: readonly string[],
) {
  const setForm = useSetAtom(sideFormAtom)
  const setSelection = useSetAtom(setupSelectionAtom)
  const addRefinement = useAddRefinementMutation(simulation.id)
  const switchAirDrag = useSwitchAirDragMutation(simulation.id)
  const addPeriodic = useAddPeriodicMutation(simulation.id)
  return (key: AddEntryKey): boolean => {
    const box = boxAroundParts(parts)
    if (key === 'refinement') {
      const dimensions = box.size.map((s) => Math.round((s / 4) * 1000) / 1000) as Vec3
      addRefinement.mutate(
        {
          name: nextZoneName(zoneNames),
          mesh: { kind: 'cube', center: box.center, dimensions },
        },
        {
          onSuccess: (zone) => {
            setSelection([`refinement:${zone.id}`])
            setForm({ kind: 'refinement', refinementId: zone.id })
          },
        },
      )
      return true
    }
    if (key === 'air_drag') {
      switchAirDrag.mutate(
        { on: true, domain: { center: box.center, size: box.size } },
        {
          onSuccess: () => {
            setSelection(['air_drag_domain'])
            setForm({ kind: 'airDragDomain' })
          },
        },
      )
      return true
    }
    if (key === 'periodic') {
      addPeriodic.mutate(
        { center: [box.center[0], box.center[1], 0], axis: [0, 0, 1] },
        {
          onSuccess: () => {
            setSelection(['periodic_boundary'])
            setForm({ kind: 'periodicBoundary' })
          },
        },
      )
      return true
    }
    return false
  }
}
