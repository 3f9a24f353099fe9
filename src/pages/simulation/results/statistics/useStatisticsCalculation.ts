import { useSetAtom } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { ResultsSession, StreamHandle } from '../../../../../engine/results/ResultsSession.ts'
import type { StatisticsConfig } from '../../../../../domain/results.ts'
import {
  applyStatisticsFrame,
  combineEnds,
  planStatisticsRequests,
  startedResult,
  type StatisticsResult,
} from './statisticsCalculation.ts'
import { statisticsJobAtom } from '../../sidebar/statisticsJob.ts'

/** Frames are folded into React state at most this often, so a long stream re-renders ~10×/s. */
const FLUSH_INTERVAL_MS = 100

/**
 * Runs statistics calculations over the session: one at a time (a new one cancels the last), with
 * progress, the result table data and Cancel. Only small JSON frames reach the main thread.
 */
export function useStatisticsCalculation(session: ResultsSession | null, simId: number) {
  const [result, setResult] = useState<StatisticsResult | null>(null)
  const runRef = useRef<{ handles: StreamHandle<string>[]; id: number } | null>(null)
  const runIdRef = useRef(0)

  /** Stops the running calculation: the server is told, the table says so at once. */
  const cancel = useCallback(() => {
    const run = runRef.current
    if (!run) return
    runRef.current = null
    // Frames still on their way belong to a run nobody shows any more.
    runIdRef.current += 1
    for (const handle of run.handles) void handle.cancel().catch(() => false)
    setResult((previous) =>
      previous && previous.state === 'running' ? { ...previous, state: 'canceled' } : previous,
    )
  }, [])

  const start = useCallback(
    (config: StatisticsConfig, outputs: number[], masks: number[], clipId: number | null) => {
      if (!session) return
      cancel()
      const id = ++runIdRef.current
      let current = startedResult(config, outputs, clipId)
      setResult(current)
      let flushTimer: ReturnType<typeof setTimeout> | null = null
      const flush = () => {
        flushTimer = null
        if (runIdRef.current === id) setResult(current)
      }
      const plans = planStatisticsRequests(simId, config, outputs, masks)
      const handles = plans.map((plan) =>
        session.calculateStatistics(plan.request, (frame) => {
          if (frame.type === 'stats.calc.done') return
          current = applyStatisticsFrame(current, frame, plan.operationOf)
          flushTimer ??= setTimeout(flush, FLUSH_INTERVAL_MS)
        }),
      )
      runRef.current = { handles, id }
      void Promise.allSettled(handles.map((handle) => handle.done)).then((settled) => {
        if (flushTimer !== null) clearTimeout(flushTimer)
        if (runIdRef.current !== id) return
        const ends = settled.map((s) => (s.status === 'fulfilled' ? s.value : 'failed'))
        current = { ...current, state: combineEnds(ends) }
        if (current.state === 'completed') current.progress = 1
        runRef.current = null
        setResult(current)
      })
    },
    [session, simId, cancel],
  )

  // Leaving the page stops what runs.
  useEffect(() => cancel, [cancel])

  // The calculation is a job of the Run sidebar's Jobs Progress, which can cancel it there.
  const publishJob = useSetAtom(statisticsJobAtom)
  useEffect(() => {
    publishJob(
      result && {
        simulationId: simId,
        state: result.state,
        progress: result.progress,
        outputCount: result.outputs.length,
        cancel,
      },
    )
  }, [result, simId, cancel, publishJob])
  useEffect(() => () => publishJob(null), [publishJob])

  return { result, start, cancel, setResult }
}
