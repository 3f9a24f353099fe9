import type { QueryClient } from '@tanstack/react-query'
import * as v from 'valibot'
import { DiscretizationSchema } from '../../domain/discretization.ts'
import type { LiveServerFrame, StoreUpdateFrame } from '../../domain/liveProtocol.ts'
import { SimulationSchema, type Simulation } from '../../domain/projects.ts'
import { RunLogLineSchema, RunRecordSchema, type LogList } from '../../domain/rest/runRoutes.ts'
import { OutputInfoSchema, type OutputInfo } from '../../domain/results.ts'
import { routeKey } from '../queries/queries.ts'

/*
 * Store updates of the live channel → React Query caches, keyed like the REST calls they stand
 * for, so the pages update without polling. Values are parsed with the REST schemas (a trust
 * boundary); anything not understood is reported as unexpected and changes nothing.
 */

const params = (id: string) => ({ params: { id } })

function applySimulation(queryClient: QueryClient, frame: StoreUpdateFrame, id: string): boolean {
  const key = routeKey('getSimulation', params(id))
  if (frame.operation === 'DEL') {
    void queryClient.invalidateQueries({ queryKey: key })
    return true
  }
  const parsed = v.safeParse(SimulationSchema, frame.value)
  if (!parsed.success) return false
  if (frame.operation === 'REPLACE') queryClient.setQueryData(key, parsed.output)
  else
    queryClient.setQueryData<Simulation>(key, (old) =>
      old ? { ...old, ...parsed.output } : parsed.output,
    )
  void queryClient.invalidateQueries({ queryKey: ['listProjects'] })
  return true
}

function applyLog(queryClient: QueryClient, frame: StoreUpdateFrame, id: string): boolean {
  const parsed = v.safeParse(RunLogLineSchema, frame.value)
  if (!parsed.success) return false
  const line = parsed.output
  queryClient.setQueriesData<LogList>({ queryKey: ['listLogs', params(id)] }, (old) =>
    old ? { ...old, lines: [...old.lines, line] } : old,
  )
  queryClient.setQueryData<Simulation>(routeKey('getSimulation', params(id)), (old) =>
    old
      ? {
          ...old,
          log: {
            progress: line.progress,
            time: line.time,
            runtime: line.runtime,
            runtimeLeft: line.runtimeLeft,
            particles: line.particles,
            output: line.output,
          },
        }
      : old,
  )
  return true
}

function applyOutput(queryClient: QueryClient, frame: StoreUpdateFrame, id: string): boolean {
  const parsed = v.safeParse(OutputInfoSchema, frame.value)
  if (!parsed.success) return false
  const output = parsed.output
  queryClient.setQueryData<OutputInfo[]>(routeKey('listOutputs', params(id)), (old) =>
    old
      ? [...old.filter((o) => o.outputNo !== output.outputNo), output].sort(
          (a, b) => a.outputNo - b.outputNo,
        )
      : old,
  )
  return true
}

/**
 * Applies one live frame to the caches. Returns false for a store update it did not understand
 * (unknown path, operation or value), which the caller logs as unexpected.
 */
export function applyLiveFrame(queryClient: QueryClient, frame: LiveServerFrame): boolean {
  if (frame.type === 'TransactionMessage') {
    void queryClient.invalidateQueries({ queryKey: ['organizations'] })
    return true
  }
  if (frame.type !== 'StoreUpdate') return true
  const [root, id, child] = frame.path
  if (root !== 'simulations' || id === undefined) return false
  switch (child) {
    case undefined:
      return applySimulation(queryClient, frame, id)
    case 'logs':
      return frame.operation === 'SET' && applyLog(queryClient, frame, id)
    case 'outputs':
      return frame.operation === 'SET' && applyOutput(queryClient, frame, id)
    case 'runs': {
      const parsed = v.safeParse(v.array(RunRecordSchema), frame.value)
      if (!parsed.success) return false
      queryClient.setQueryData(routeKey('listJobs', params(id)), parsed.output)
      return true
    }
    case 'discretization': {
      const key = routeKey('getDiscretization', params(id))
      if (frame.operation === 'DEL') {
        queryClient.setQueryData(key, null)
        return true
      }
      const parsed = v.safeParse(DiscretizationSchema, frame.value)
      if (!parsed.success) return false
      queryClient.setQueryData(key, parsed.output)
      return true
    }
    default:
      return false
  }
}
