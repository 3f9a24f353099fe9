import { useMemo } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { SetupObjectView } from '../../../../../engine/setupProtocol.ts'
import { usePartsQuery, useSettingsQuery } from '../queries/setupQueries.ts'
import { domainBoxAround } from '../toolbar/toolbarModel.ts'
import { useAirDragDomainQuery, usePeriodicsQuery, useRefinementsQuery } from './objectQueries.ts'
import { airDragView, periodicView, refinementView } from './objectViews.ts'

/**
 * The refinement zones, the air drag domain (while air drag is on) and the periodic boundary as
 * setup scene objects; the slice is drawn as large as the box around the parts.
 */
export function useSetupObjectExtras(simulation: Simulation): SetupObjectView[] {
  const refinements = useRefinementsQuery(simulation.id).data
  const airDrag = useAirDragDomainQuery(simulation.id).data
  const periodics = usePeriodicsQuery(simulation.id).data
  const parts = usePartsQuery(simulation.id).data
  const settings = useSettingsQuery(simulation.id).data?.settings ?? simulation.settings
  return useMemo(() => {
    const box = domainBoxAround(parts ?? [])
    const radius = Math.max(...box.max.map((m, i) => m - box.min[i]!)) / 2
    const air = airDragView(airDrag, settings.airDrag)
    const periodic = periodicView(periodics?.[0], radius)
    return [
      ...(refinements ?? []).map(refinementView),
      ...(air ? [air] : []),
      ...(periodic ? [periodic] : []),
    ]
  }, [refinements, airDrag, periodics, parts, settings.airDrag])
}
