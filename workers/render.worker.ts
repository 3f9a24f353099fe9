/**
 * The render worker: a Comlink shell over engine/render/RenderEngine (all logic lives there). It
 * supplies the browser pieces: the three.js scene on the OffscreenCanvas, requestAnimationFrame,
 * the clock and Comlink for the data workers' ports.
 */
import * as Comlink from 'comlink'
import type { DataWorkerApi, RenderWorkerApi } from '../engine/protocol.ts'
import { RenderEngine, type DataWorkerHandle } from '../engine/render/RenderEngine.ts'
import { RenderScene } from '../engine/render/RenderScene.ts'

const scope = globalThis as unknown as {
  requestAnimationFrame?: (callback: () => void) => number
}

/** A data worker's port as the engine uses it, every call included (Comlink; buffers transferred). */
export function wrapDataWorker(port: MessagePort): Required<DataWorkerHandle> {
  const remote = Comlink.wrap<DataWorkerApi>(port)
  return {
    load: (request) => remote.load(request),
    cancel: (requestId) => remote.cancel(requestId),
    setAccessToken: (token) => remote.setAccessToken(token),
    // Transferred, not cloned: the buffers move back to the data worker's pool.
    recycleBuffers: (buffers) => remote.recycleBuffers(Comlink.transfer(buffers, buffers)),
    // Setup geometry comes back transferred (the data worker marks its buffers).
    loadSetupMesh: (request) => remote.loadSetupMesh(request),
    loadSetupPointCloud: (request) => remote.loadSetupPointCloud(request),
    loadKeyframeTrack: (request) => remote.loadKeyframeTrack(request),
    // Volume clip masks come back transferred too.
    computeClipMasks: (request) => remote.computeClipMasks(request),
  }
}

const engine = new RenderEngine({
  createScene: (canvas, size, onContextLost) => new RenderScene(canvas, size, onContextLost),
  scheduleFrame: (callback) => {
    // Workers of OffscreenCanvas owners get requestAnimationFrame; the timeout is a fallback.
    if (typeof scope.requestAnimationFrame === 'function') scope.requestAnimationFrame(callback)
    else setTimeout(callback, 16)
  },
  scheduleTimeout: (callback, delayMs) => {
    setTimeout(callback, delayMs)
  },
  nowMs: () => performance.now(),
  wrapDataWorker: (port) => wrapDataWorker(port),
  // Node (the contract test) has no navigator.
  hardwareConcurrency: (globalThis.navigator as { hardwareConcurrency?: number } | undefined)
    ?.hardwareConcurrency,
})

/** The exposed API: exactly RenderWorkerApi (the client wraps it with Comlink). */
export const api: RenderWorkerApi = {
  init: (canvas, size, callbacks) => engine.init(canvas, size, callbacks),
  adoptDataWorker: (port) => engine.adoptDataWorker(port),
  dispatch: (intent) => engine.dispatch(intent),
  forwardPointer: (event) => engine.forwardPointer(event),
  forwardKey: (event) => engine.forwardKey(event),
  saveImage: () => engine.saveImage(),
  dispose: () => engine.dispose(),
}

Comlink.expose(api)
