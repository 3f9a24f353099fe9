import { useSetAtom } from 'jotai'
import { useEffect } from 'react'
import type { VolumeClip } from '../../../../../domain/meshes.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { ResultsSession, StreamHandle } from '../../../../../engine/results/ResultsSession.ts'
import { useResultsSession } from '../../../../state/resultsSession.ts'
import { clipMaskInfoAtom } from './explorerAtoms.ts'
import type { ClipMaskInfo } from './explorerModel.ts'

/**
 * Whether a clip keeps any particle at an output, asked of the results server: the minimum of
 * the x position over the clip's masks (the server computes the masks over the full data) is
 * null exactly when no particle is inside. Only that one number crosses the socket.
 */
function requestClipEmptiness(
  session: ResultsSession,
  simId: number,
  outputNo: number,
  maskIds: number[],
  onResult: (info: ClipMaskInfo) => void,
): StreamHandle<unknown> {
  let answer: ClipMaskInfo = { status: 'missing' }
  const handle = session.calculateStatistics(
    {
      simId,
      outputs: [outputNo],
      attribute: 'position',
      subAttribute: 'x',
      dataset: 'raw',
      objIds: [],
      masks: maskIds,
      operations: { min: ['min'] },
      mode: 'output_only',
    },
    (frame) => {
      if (frame.type === 'stats.calc.output_statistic')
        answer = { status: 'ready', empty: frame.value === null }
      else if (frame.type === 'stats.calc.error') answer = { status: 'missing' }
    },
  )
  handle.done.then(
    (end) => {
      if (end === 'completed') onResult(answer)
      else if (end === 'failed') onResult({ status: 'missing' })
    },
    () => onResult({ status: 'missing' }),
  )
  return handle
}

/**
 * Keeps clipMaskInfoAtom in step with the shown output: each clip is loading while the results
 * session works out its masks, then empty or valid; missing while the output or its masks are
 * not there yet. Not recomputed during playback (the last answer stays until it pauses).
 */
export function useClipMaskInfo(
  simulation: Simulation,
  clips: readonly VolumeClip[],
  shownOutput: number | null,
  playing: boolean,
) {
  const setInfo = useSetAtom(clipMaskInfoAtom)
  const session = useResultsSession(simulation.id)
  // Re-ask when a clip is added, removed, or changes its mesh, material or inversion.
  const clipKey = JSON.stringify(
    clips.map((clip) => [clip.id, clip.mesh, clip.materialId, clip.inverted]),
  )

  useEffect(() => {
    if (playing) return
    const clipIds: number[] = (JSON.parse(clipKey) as [number][]).map(([id]) => id)
    const all = (info: ClipMaskInfo) =>
      Object.fromEntries(clipIds.map((id) => [id, info])) as Record<number, ClipMaskInfo>
    if (!session || shownOutput === null || clipIds.length === 0) {
      setInfo(all({ status: 'missing' }))
      return
    }
    let active = true
    const handles: StreamHandle<unknown>[] = []
    setInfo(all({ status: 'loading' }))
    session.fetchInfo(simulation.id, [shownOutput]).then(
      ({ infos }) => {
        if (!active) return
        const masks = infos[0]?.masks ?? []
        for (const clipId of clipIds) {
          const maskIds = masks
            .filter((mask) => mask.volumeClipId === clipId)
            .map((mask) => mask.id)
          const set = (info: ClipMaskInfo) => {
            if (active) setInfo((current) => ({ ...current, [clipId]: info }))
          }
          if (maskIds.length === 0) set({ status: 'missing' })
          else handles.push(requestClipEmptiness(session, simulation.id, shownOutput, maskIds, set))
        }
      },
      () => {
        if (active) setInfo(all({ status: 'missing' }))
      },
    )
    return () => {
      active = false
      for (const handle of handles) void handle.cancel().catch(() => undefined)
    }
  }, [session, simulation.id, shownOutput, clipKey, playing, setInfo])
}
