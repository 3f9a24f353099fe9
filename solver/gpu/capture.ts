/**
 * Copies of the GPU's particle state for outputs and checkpoints, taken without waiting: one
 * GPU-side copy of the state buffers into mappable staging buffers, submitted at once (the queue
 * runs it before anything submitted later, so it holds the state of this moment), and the map
 * started at once, so that it answers when the copy is done, not after the steps submitted
 * since. The caller converts and writes while the GPU steps on, then releases the copy.
 */
import type { Box } from '../sph/grid.ts'
import type { SphConstants } from '../sph/config.ts'
import type { SolverSnapshot, SolverStepReport } from '../sph/solverTypes.ts'
import type { GpuBuffers } from './buffers.ts'
import { MAP_READ, USAGE } from './buffers.ts'
import { encodeGpuCheckpoint } from './hostState.ts'
import type { GpuState } from './snapshot.ts'
import { buildGpuSnapshot } from './snapshot.ts'

/**
 * The state buffers an output reads (GpuState), 16 bytes per particle each; therm too where the
 * run has it (heatShaders.ts).
 */
const FIELDS = ['posm', 'velr', 'info', 'rec0'] as const
const THERMAL_FIELDS = [...FIELDS, 'therm'] as const

/** A copy of the state in flight or mapped; release it once read. */
export interface StateCopy {
  /** The copied state, views of the mapped staging buffers: valid until release. */
  state(): Promise<GpuState>
  release(): void
}

/** The solver's state at one moment (GpuSolver.capture): its snapshot and checkpoint. */
export interface GpuCapture {
  /** The report of the moment captured. */
  report: SolverStepReport
  snapshot(): Promise<SolverSnapshot>
  checkpoint(): Promise<Uint8Array>
  /** The staging buffers back for the next capture; snapshot() and checkpoint() fail after. */
  release(): void
}

/** What a capture keeps of the solver at the moment captured, besides the state copy. */
export interface CaptureSource {
  /** Particles in the GPU's buffers (the deleted ones among them, flagged). */
  count: number
  report: SolverStepReport
  constants: SphConstants
  partIds: readonly number[]
  materialId: number
  fixedDtS: number | null
  fingerprint: Record<string, number>
  referenceBox: Box
  /** Where the fields the GPU does not carry come from (encodeGpuCheckpoint). */
  host: Parameters<typeof encodeGpuCheckpoint>[3]
}

/** The capture of a state copy: its snapshot and checkpoint as of `source.report`. */
export function captureState(copy: StateCopy, source: CaptureSource): GpuCapture {
  const { count, report, constants, host } = source
  const { timeS, step, deletedOutside, deletedInvalid } = report
  const capacity = host.arrays.capacity
  const referenceT = host.referenceT ?? 0
  const at = {
    timeS,
    step,
    partIds: source.partIds,
    materialId: source.materialId,
    capacity,
    referenceT,
  }
  const header = {
    timeS,
    step,
    fixedDtS: source.fixedDtS,
    deletedOutside,
    deletedInvalid,
    fingerprint: source.fingerprint,
    referenceBox: source.referenceBox,
  }
  return {
    report,
    snapshot: async () => buildGpuSnapshot(await copy.state(), count, constants, at),
    checkpoint: async () => encodeGpuCheckpoint(await copy.state(), count, header, host),
    release: () => copy.release(),
  }
}

/** Makes state copies, reusing the staging buffers of a released one. */
export class StateReadback {
  #device: GPUDevice
  #buffers: GpuBuffers
  #fields: readonly (typeof THERMAL_FIELDS)[number][]
  /** Staging buffers of a released copy and their size in bytes each. */
  #spare: { staging: GPUBuffer[]; size: number } | null = null
  #destroyed = false

  /** `thermal`: the run has the therm buffer (its copy goes with the state). */
  constructor(device: GPUDevice, buffers: GpuBuffers, thermal = false) {
    this.#device = device
    this.#buffers = buffers
    this.#fields = thermal ? THERMAL_FIELDS : FIELDS
  }

  /** Submits the copy of `count` particles' state and starts mapping it (see the module comment). */
  copy(count: number): StateCopy {
    const bytes = 16 * count
    const size = Math.max(16, bytes)
    const spare = this.#spare
    this.#spare = null
    const set =
      spare && spare.size >= size
        ? spare
        : {
            staging: this.#fields.map(() =>
              this.#device.createBuffer({ size, usage: USAGE.mapRead | USAGE.copyDst }),
            ),
            size,
          }
    if (spare && spare !== set) for (const buffer of spare.staging) buffer.destroy()
    const encoder = this.#device.createCommandEncoder()
    if (bytes > 0)
      this.#fields.forEach((field, f) =>
        encoder.copyBufferToBuffer(this.#buffers[field], 0, set.staging[f]!, 0, bytes),
      )
    this.#device.queue.submit([encoder.finish()])
    const mapped = Promise.all(set.staging.map((buffer) => buffer.mapAsync(MAP_READ, 0, size)))
    let released = false
    let settled = false
    const settle = () => {
      settled = true
      if (released) this.#recycle(set)
    }
    mapped.then(settle, settle)
    const state = mapped.then((): GpuState => {
      if (released) throw new Error('The state copy was released before it was read.')
      const [posm, velr, info, rec0, therm] = set.staging.map((buffer) =>
        buffer.getMappedRange(0, size),
      )
      return {
        posm: new Float32Array(posm!, 0, 4 * count),
        velr: new Float32Array(velr!, 0, 4 * count),
        info: new Uint32Array(info!, 0, 4 * count),
        rec0: new Float32Array(rec0!, 0, 4 * count),
        therm: therm ? new Float32Array(therm, 0, 4 * count) : null,
      }
    })
    // a copy released unread must not leave an unhandled rejection behind
    state.catch(() => {})
    return {
      state: () => (released ? Promise.reject(new Error('The state copy was released.')) : state),
      release: () => {
        if (released) return
        released = true
        // now, so that the next copy reuses the buffers; else once the map has answered
        if (settled) this.#recycle(set)
      },
    }
  }

  /** A released copy's staging buffers, unmapped, kept for the next copy. */
  #recycle(set: { staging: GPUBuffer[]; size: number }): void {
    for (const buffer of set.staging) if (buffer.mapState === 'mapped') buffer.unmap()
    if (this.#spare || this.#destroyed) {
      for (const buffer of set.staging) buffer.destroy()
      return
    }
    this.#spare = set
  }

  destroy(): void {
    this.#destroyed = true
    for (const buffer of this.#spare?.staging ?? []) buffer.destroy()
    this.#spare = null
  }
}
