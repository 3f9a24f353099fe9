import { useEffect, useMemo } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { Engine } from '../../../../../engine/client.ts'
import { useAtomValue } from 'jotai'
import { useAirDragGridQuery } from './DomainItems.tsx'
import { airDragGridVisibleAtom } from './explorerAtoms.ts'
import { useSensorsQuery, useVolumeClipsQuery } from './explorerApi.ts'
import { overlaysIntent } from './overlayViews.ts'

/**
 * Keeps the 3D view's sensors, volume clips and air drag grid in step with the explorer (the same
 * queries): every change of a sensor or clip, its visibility included, or of the grid's toggle
 * posts the whole list.
 */
export function useResultsOverlays(simulation: Simulation, engine: Engine | null): void {
  const sensors = useSensorsQuery(simulation)
  const clips = useVolumeClipsQuery(simulation)
  const grid = useAirDragGridQuery(simulation)
  const gridVisible = useAtomValue(airDragGridVisibleAtom)
  const intent = useMemo(
    () =>
      overlaysIntent(
        sensors.data ?? [],
        clips.data ?? [],
        grid.data ? { grid: grid.data, visible: gridVisible } : null,
      ),
    [sensors.data, clips.data, grid.data, gridVisible],
  )
  useEffect(() => {
    engine?.dispatch(intent)
  }, [engine, intent])
}
