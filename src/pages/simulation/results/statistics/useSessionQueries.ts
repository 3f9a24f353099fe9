import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useAtomValue } from 'jotai'
import { useEffect } from 'react'
import { POLL_INTERVALS_MS } from '../../../../../domain/constants.ts'
import { isJobSucceeded } from '../../../../../domain/jobs.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { callApi } from '../../../../api/index.ts'
import { useResultsSession, useResultsSessionSnapshot } from '../../../../state/resultsSession.ts'
import { sensorDataVersionAtom } from '../explorer/explorerAtoms.ts'

/** Queries of the session, keyed by simulation (the session itself is shared per simulation). */
export function useSessionQueries(simulation: Simulation) {
  const session = useResultsSession(simulation.id)
  const simId = simulation.id
  const opens = useResultsSessionSnapshot(session).opens
  const queryClient = useQueryClient()
  // Requests that failed because the socket dropped are asked again once the session is back
  // (counted by opens: a quick drop and reopen may never show another status to React).
  useEffect(() => {
    if (opens < 2) return
    void queryClient.invalidateQueries({
      queryKey: ['resultsSession', simId],
      predicate: (query) => query.state.status === 'error',
    })
  }, [opens, simId, queryClient])
  // A run still writing outputs gets new ones: ask at the outputs poll rate.
  const writing = simulation.state === 'running' || simulation.state === 'stopping'
  const attributes = useQuery({
    queryKey: ['resultsSession', simId, 'stats.info'],
    queryFn: () => (session ? session.fetchStatisticsInfo(simId) : Promise.reject(new Error())),
    enabled: session !== null,
  })
  const outputs = useQuery({
    queryKey: ['resultsSession', simId, 'fetch.available_outputs'],
    queryFn: () => (session ? session.fetchAvailableOutputs(simId) : Promise.reject(new Error())),
    enabled: session !== null,
    refetchInterval: writing ? POLL_INTERVALS_MS.outputs : false,
  })
  const lastOutputNo = outputs.data?.reduce((last, o) => Math.max(last, o.outputNo), -1) ?? -1
  const info = useQuery({
    queryKey: ['resultsSession', simId, 'fetch.info', lastOutputNo],
    queryFn: () =>
      session ? session.fetchInfo(simId, [lastOutputNo]) : Promise.reject(new Error()),
    enabled: session !== null && lastOutputNo >= 0,
  })
  const clips = useQuery({
    queryKey: ['resultsSession', simId, 'volume_clips'],
    queryFn: ({ signal }) =>
      callApi('listVolumeClips', { params: { id: String(simId) }, query: {} }, { signal }),
    // The clips are optional here: without them the panel just offers no mask.
    retry: false,
  })
  const recomputation = useQuery({
    queryKey: ['resultsSession', simId, 'sensor_outputs/recomputation'],
    queryFn: ({ signal }) =>
      callApi('getSensorRecomputation', { params: { id: String(simId) } }, { signal }),
    retry: false,
    refetchInterval: (query) => {
      const state = query.state.data?.state
      return state === 'scheduled' || state === 'running'
        ? POLL_INTERVALS_MS.sensorRecomputation
        : false
    },
  })
  // Sensor states per output and the sensors among the objects change when a recomputation ends
  // (the record says 'done'; the explorer bumps the sensor data version): ask for both again, so
  // a sensor added and computed shows here without a reload (issue 14).
  const recomputationDone = isJobSucceeded(recomputation.data?.state ?? 'unknown')
  const sensorDataVersion = useAtomValue(sensorDataVersionAtom)
  useEffect(() => {
    if (!recomputationDone && sensorDataVersion === 0) return
    void queryClient.invalidateQueries({
      queryKey: ['resultsSession', simId, 'fetch.available_outputs'],
    })
    void queryClient.invalidateQueries({ queryKey: ['resultsSession', simId, 'fetch.info'] })
  }, [recomputationDone, sensorDataVersion, simId, queryClient])
  return { session, attributes, outputs, lastOutputNo, info, clips, recomputation }
}
