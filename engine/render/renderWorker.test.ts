import { describe, expect, it, vi } from 'vitest'
import type { RenderWorkerApi } from '../protocol.ts'

const exposed: unknown[] = []
/** Calls made on wrapped ports: the remote records the method names. */
const remoteCalls: string[] = []
vi.mock('comlink', () => ({
  expose: (value: unknown) => exposed.push(value),
  wrap: () =>
    new Proxy(
      {},
      {
        get: (_target, name) => (request: unknown) => {
          remoteCalls.push(String(name))
          return Promise.resolve(request)
        },
      },
    ),
  transfer: (value: unknown) => value,
}))

describe('render worker module', () => {
  it('exposes exactly the RenderWorkerApi over Comlink', async () => {
    const module = await import('../../workers/render.worker.ts')
    // Type level: the exported api must be assignable to the contract.
    const api: RenderWorkerApi = module.api
    expect(exposed).toEqual([api])
    const keys: (keyof RenderWorkerApi)[] = [
      'init',
      'adoptDataWorker',
      'dispatch',
      'forwardPointer',
      'forwardKey',
      'saveImage',
      'dispose',
    ]
    expect(Object.keys(api).sort()).toEqual([...keys].sort())
    for (const key of keys) expect(typeof api[key]).toBe('function')
  })

  it('passes every data-worker call the engine makes to the port, volume clip masks included', async () => {
    const { wrapDataWorker } = await import('../../workers/render.worker.ts')
    const handle = wrapDataWorker({} as MessagePort)
    const names = Object.keys(handle).sort()
    expect(names).toEqual([
      'cancel',
      'computeClipMasks',
      'load',
      'loadKeyframeTrack',
      'loadSetupMesh',
      'loadSetupPointCloud',
      'recycleBuffers',
      'setAccessToken',
    ])
    remoteCalls.length = 0
    await handle.computeClipMasks({
      key: { simulationId: 1, runId: 1, outputNo: 0 },
      source: { bundleUrl: '/b', accessToken: null },
      dataset: 'full',
      fluids: [],
      clips: [],
    })
    expect(remoteCalls).toEqual(['computeClipMasks'])
  })

  it('reports a start failure in the first snapshot instead of throwing', async () => {
    const { api } = await import('../../workers/render.worker.ts')
    const snapshots: { error: string | null }[] = []
    // Node has no OffscreenCanvas or WebGL: init must resolve and say why nothing is drawn.
    await api.init(
      {} as OffscreenCanvas,
      { width: 10, height: 10, devicePixelRatio: 1 },
      {
        onSnapshot: (snapshot) => snapshots.push(snapshot),
        requestDataWorker: () => undefined,
      },
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(snapshots.at(-1)?.error).toMatch(/^The 3D view could not start: /)
    api.dispose()
  })
})
