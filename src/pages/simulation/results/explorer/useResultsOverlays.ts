import { useEffect, useMemo } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { Engine } from '../../../../../engine/client.ts'
import { useSensorsQuery, useVolumeClipsQuery } from './explorerApi.ts'
import { overlaysIntent } from './overlayViews.ts'

/**
 * Keeps the 3D view's sensors and volume clips in step with the explorer's lists (the same
 * queries): every change of a sensor or clip, its visibility included, posts the whole list.
 */
export function useResultsOverlays(simulation: Simulation, engine: Engine | null): void {
  const sensors = useSensorsQuery(simulation)
  const clips = useVolumeClipsQuery(simulation)
  const intent = useMemo(
    () => overlaysIntent(sensors.data ?? [], clips.data ?? []),
    [sensors.data, clips.data],
  )
  useEffect(() => {
    engine?.dispatch(intent)
  }, [engine, intent])
}
