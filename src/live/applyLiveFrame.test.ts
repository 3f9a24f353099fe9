import { makeSimulation } from '../testing/fixtures.ts'
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { StoreUpdateFrame } from '../../domain/liveProtocol.ts'
import type { Simulation } from '../../domain/projects.ts'
import { routeKey } from '../queries/queries.ts'
import { applyLiveFrame } from './applyLiveFrame.ts'

const simulation: Simulation = makeSimulation({
  state: 'launching',
  activeRunId: 9,
  setupLocked: true,
  creator: { id: 1, fullName: 'Mia Manager', avatarId: 0 },
  cores: 2,
  solver: { name: 'Dive SPH (CPU)' },
})

const update = (path: string[], operation: StoreUpdateFrame['operation'], value?: unknown) =>
  ({ type: 'StoreUpdate', updateId: 1, operation, path, value }) as StoreUpdateFrame
const simulationKey = routeKey('getSimulation', { params: { id: '4' } })

describe('applyLiveFrame', () => {
  it('replaces the cached simulation with a REPLACE of its path', () => {
    const client = new QueryClient()
    expect(applyLiveFrame(client, update(['simulations', '4'], 'REPLACE', simulation))).toBe(true)
    expect(client.getQueryData(simulationKey)).toEqual(simulation)
    const running = { ...simulation, state: 'running' }
    applyLiveFrame(client, update(['simulations', '4'], 'REPLACE', running))
    expect(client.getQueryData<Simulation>(simulationKey)?.state).toBe('running')
  })

  it('appends a log line to the cached logs and shows it as the simulation log', () => {
    const client = new QueryClient()
    client.setQueryData(simulationKey, simulation)
    const logsKey = routeKey('listLogs', { params: { id: '4' } })
    client.setQueryData(logsKey, { runId: 9, lines: [] })
    const line = {
      progress: 0.5,
      time: 500,
      runtime: 2000,
      runtimeLeft: 2000,
      particles: 1234,
      dt: 1e-4,
      output: 3,
    }
    expect(applyLiveFrame(client, update(['simulations', '4', 'logs'], 'SET', line))).toBe(true)
    expect(client.getQueryData<{ lines: unknown[] }>(logsKey)?.lines).toEqual([line])
    expect(client.getQueryData<Simulation>(simulationKey)?.log).toMatchObject({
      progress: 0.5,
      particles: 1234,
    })
  })

  it('adds a new output to the cached output list in order', () => {
    const client = new QueryClient()
    const key = routeKey('listOutputs', { params: { id: '4' } })
    const info = (outputNo: number) => ({
      outputNo,
      states: { visualization: 'ready', sensor: 'pending' },
      wallSensorState: 'unknown',
    })
    client.setQueryData(key, [info(0), info(2)])
    applyLiveFrame(client, update(['simulations', '4', 'outputs', '1'], 'SET', info(1)))
    expect(client.getQueryData<{ outputNo: number }[]>(key)?.map((o) => o.outputNo)).toEqual([
      0, 1, 2,
    ])
  })

  it('rejects unknown paths and malformed values without touching the cache', () => {
    const client = new QueryClient()
    client.setQueryData(simulationKey, simulation)
    expect(applyLiveFrame(client, update(['projects', '1'], 'SET', {}))).toBe(false)
    expect(applyLiveFrame(client, update(['simulations', '4'], 'REPLACE', { id: 'x' }))).toBe(false)
    expect(client.getQueryData(simulationKey)).toEqual(simulation)
  })
})
