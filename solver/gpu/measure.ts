/**
 * The force pass measured alone, for tests and the bench (GpuSolver.forcePass): derivatives at the
 * current state, the pair count of a pass and the time of more passes.
 */
import { DELETED } from './hostState.ts'
import type { GpuPasses } from './passes.ts'

export interface ForcePassMeasurement {
  /** (ax, ay, az, dρ/dt) per particle id (capacity entries; deleted particles zero). */
  derivatives: Float32Array
  /**
   * With the therm buffer (heatShaders.ts): its entry per particle id after the pass (a fluid
   * particle's dθ/dt and ν in lanes 2 and 3), else null.
   */
  therm: Float32Array | null
  /** Seconds of the extra passes. */
  seconds: number
  interactionsPerPass: number
}

/**
 * Sorts, runs one interaction (pressures, walls, ν of a viscosity table, forces, and heat
 * conduction's rates) at the current state and reads each particle's derivatives back, ordered
 * by particle id. With `extraPasses`, that many more force
 * passes run after it, timed, and the pair interactions of one pass are counted.
 */
export async function measureForcePass(
  device: GPUDevice,
  p: GpuPasses,
  at: { count: number; capacity: number; extraPasses: number; thermal: boolean },
): Promise<ForcePassMeasurement> {
  let encoder = device.createCommandEncoder()
  p.encodeSort(encoder)
  // moving parts: the walls placed by slot 0's maps after the sort, as a step's start does (the
  // sort leaves their accelerations in acc overwritten)
  p.encodePlace(encoder)
  encoder.clearBuffer(p.buffers.stats)
  const pass = encoder.beginComputePass()
  p.encodeInteract(pass)
  p.encodeHeat(pass)
  pass.end()
  device.queue.submit([encoder.finish()])
  const stats = new Uint32Array(await p.read(p.buffers.stats, 16))
  const interactionsPerPass = stats[2]! + stats[3]! * 2 ** 32
  const started = performance.now()
  if (at.extraPasses > 0) {
    encoder = device.createCommandEncoder()
    p.encodeForcesOnly(encoder, at.extraPasses)
    device.queue.submit([encoder.finish()])
    await device.queue.onSubmittedWorkDone()
  }
  const seconds = (performance.now() - started) / 1000
  encoder = device.createCommandEncoder()
  encoder.clearBuffer(p.buffers.stats)
  device.queue.submit([encoder.finish()])
  const n = at.count
  const acc = new Float32Array(await p.read(p.buffers.acc, 16 * n))
  const info = new Uint32Array(await p.read(p.buffers.info, 16 * n))
  const thermal = at.thermal ? new Float32Array(await p.read(p.buffers.therm, 16 * n)) : null
  const derivatives = new Float32Array(4 * at.capacity)
  const therm = thermal ? new Float32Array(4 * at.capacity) : null
  for (let i = 0; i < n; i++) {
    if (info[4 * i + 2]! & DELETED) continue
    const o = 4 * info[4 * i]!
    derivatives.set(acc.subarray(4 * i, 4 * i + 4), o)
    if (therm) therm.set(thermal!.subarray(4 * i, 4 * i + 4), o)
  }
  return { derivatives, therm, seconds, interactionsPerPass }
}
