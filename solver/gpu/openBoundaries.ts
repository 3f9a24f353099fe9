/**
 * Open boundaries on the GPU (solver/sph/openBoundary.ts; the shaders and the buffers' layout:
 * openShaders.ts): the zones and profiles in a small buffer, the unused slots of the capacity
 * made at each upload, the passes of a step (the buffers' lifecycle before the sort, their
 * values after it, their forces discarded after each force pass, the counters into the step's
 * record), and the host's side of the records (inflow and outflow mass, particles made).
 */
import type { SphConstants } from '../sph/config.ts'
import type { OpenZone, SolverOpenBoundary } from '../sph/openBoundary.ts'
import { openZones } from '../sph/openBoundary.ts'
import type { OpenBoundaryReport } from '../sph/openBoundaryZone.ts'
import type { ParticleArrays } from '../sph/particles.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { GpuBuffers } from './buffers.ts'
import { MAX_BATCH_STEPS, USAGE } from './buffers.ts'
import type { PackedParticles } from './hostState.ts'
import { type Pass, passBinder, perDevice } from './pipelines.ts'
import { DELETED, OPEN } from './hostState.ts'
import {
  CLEAR_SHADER,
  EXTRAPOLATE_SHADER,
  LIFECYCLE_SHADER,
  THERM_COPY_SHADER,
  OPEN_COUNT,
  OPEN_RECORD,
  RECORD_SHADER,
  ROW_F32,
  ZONE_VEC4,
} from './openShaders.ts'

/** A per-particle dispatch (GpuPasses.perParticle). */
type Dispatch = (pass: GPUComputePassEncoder, p: Pass) => void

/** The open boundaries' passes, made at a device's first run with them. */
const openPipelines = perDevice((make) => ({
  lifecycle: make(LIFECYCLE_SHADER),
  extrapolate: make(EXTRAPOLATE_SHADER),
  clear: make(CLEAR_SHADER),
  record: make(RECORD_SHADER),
  thermCopy: make(THERM_COPY_SHADER),
}))

/** One step's open-boundary record (cumulative since the upload, except buffers). */
interface OpenRecord {
  injected: number
  inflow: number
  outflow: number
  buffers: number
  overflow: number
}

/** The open boundaries of a GPU run (see the module comment). */
export class GpuOpenBoundaries {
  readonly zones: OpenZone[]
  #device: GPUDevice
  #buffers: GpuBuffers
  #open: GPUBuffer
  #count: GPUBuffer
  #history: GPUBuffer
  #passes: Record<'lifecycle' | 'extrapolate' | 'clear' | 'record', Pass>
  /** With the therm buffer: the temperatures of the particles made (THERM_COPY_SHADER). */
  #thermCopy: Pass | null
  #particleMass: number
  /** The last record read (the step reported now), and the records of the last batch. */
  #record: OpenRecord = { injected: 0, inflow: 0, outflow: 0, buffers: 0, overflow: 0 }
  /** Slots without a particle at the upload. */
  #unusedAtUpload = 0

  /**
   * `partIds`: the solver's part table, a fluid entry per zone appended (openZones, as the CPU);
   * `arrays`, `count`: the prepared particles (the buffers' lateral extents); `therm`: the run
   * has the therm buffer (thermodynamics or a viscosity table).
   */
  constructor(
    device: GPUDevice,
    buffers: GpuBuffers,
    specs: readonly SolverOpenBoundary[],
    setup: { arrays: ParticleArrays; count: number; partIds: number[] },
    k: SphConstants,
    therm = false,
  ) {
    this.#device = device
    this.#buffers = buffers
    this.#particleMass = k.particleMass
    this.zones = openZones(specs, setup.arrays, setup.count, k.particleDiameter, setup.partIds)
    const storage = USAGE.storage | USAGE.copyDst | USAGE.copySrc
    const rows = specs.reduce((n, spec) => n + spec.profile.timesS.length, 0)
    this.#open = device.createBuffer({
      size: 4 * (4 + 4 * ZONE_VEC4 * specs.length + ROW_F32 * rows),
      usage: storage,
    })
    this.#count = device.createBuffer({ size: 4 * OPEN_COUNT.lanes, usage: storage })
    this.#history = device.createBuffer({
      size: 4 * OPEN_RECORD * MAX_BATCH_STEPS,
      usage: storage,
    })
    const p = openPipelines(device)
    const b = buffers
    const pass = passBinder(device)
    this.#passes = {
      lifecycle: pass(p.lifecycle, [
        b.params,
        b.posm,
        b.velr,
        b.info,
        b.cellStart,
        b.control,
        b.deleted,
        this.#open,
        this.#count,
      ]),
      extrapolate: pass(p.extrapolate, [
        b.params,
        b.posm,
        b.velr,
        b.info,
        b.cellStart,
        this.#open,
        this.#count,
        b.air,
        b.control,
      ]),
      clear: pass(p.clear, [b.params, b.info, b.acc]),
      record: pass(p.record, [this.#count, b.control, this.#history]),
    }
    this.#thermCopy = therm
      ? pass(p.thermCopy, [b.params, b.info, b.cellStart, this.#count, b.therm])
      : null
    this.setClock(0)
  }

  /**
   * The zones and the profiles' rows, their times relative to the solver's time `timeS` (the
   * batch's start: float32 times stay small; the clock is zeroed with them).
   */
  setClock(timeS: number): void {
    const zones = this.zones
    const rows = zones.reduce((n, z) => n + z.spec.profile.timesS.length, 0)
    const data = new Float32Array(4 + 4 * ZONE_VEC4 * zones.length + ROW_F32 * rows)
    data[0] = zones.length
    let row = 0
    zones.forEach((zone, z) => {
      const { spec, t1, t2, lateral } = zone
      const o = 4 + 4 * ZONE_VEC4 * z
      const profile = spec.profile
      data.set(
        [
          ...spec.origin,
          spec.thickness,
          ...spec.normal,
          spec.direction === 'inflow' ? 0 : 1,
          ...t1,
          lateral[0],
          ...t2,
          lateral[1],
          lateral[2],
          lateral[3],
          zone.bufferIndex,
          zone.fluidIndex,
          row,
          profile.timesS.length,
          0,
          0,
        ],
        o,
      )
      profile.timesS.forEach((t, r) => {
        const at = 4 + 4 * ZONE_VEC4 * zones.length + ROW_F32 * (row + r)
        data.set([t - timeS, ...profile.velocities[r]!, profile.pressures[r]!], at)
      })
      row += profile.timesS.length
    })
    const queue = this.#device.queue
    queue.writeBuffer(this.#open, 0, data)
    queue.writeBuffer(this.#buffers.air, 0, new Float32Array(2))
  }

  /**
   * The packed upload with the capacity's unused slots after the kept particles: flagged deleted,
   * each with an id no particle has (new particles take them), and the buffers' flag on the
   * particles of a buffer part. The counters reset, the first unused slot where the lifecycle
   * pass looks for it before the first sort (cellStart's last entry).
   */
  withUnusedSlots(
    packed: PackedParticles,
    capacity: number,
    cells: number,
    indexOfId: Int32Array,
  ): PackedParticles {
    const n = packed.kept
    // what a new particle's checkpoint takes from the host arrays (hsml, phase): a fluid's
    let template = -1
    const used = new Uint8Array(capacity)
    const buffer = new Set(this.zones.map((z) => z.bufferIndex))
    for (let i = 0; i < n; i++) {
      used[packed.info[4 * i]!] = 1
      if (template < 0 && (packed.info[4 * i + 2]! & 1) === PARTICLE_KIND.fluid)
        template = indexOfId[packed.info[4 * i]!]!
      if (buffer.has(packed.info[4 * i + 1]!))
        packed.info[4 * i + 2] = packed.info[4 * i + 2]! | OPEN
    }
    const grow = (a: Float32Array<ArrayBuffer>) => {
      const out = new Float32Array(4 * capacity)
      out.set(a.subarray(0, 4 * n))
      return out
    }
    const info = new Uint32Array(4 * capacity)
    info.set(packed.info.subarray(0, 4 * n))
    let slot = n
    for (let id = 0; id < capacity && slot < capacity; id++) {
      if (used[id]) continue
      info.set([id, 0, PARTICLE_KIND.fluid | DELETED, 0], 4 * slot)
      indexOfId[id] = template
      slot++
    }
    this.#unusedAtUpload = capacity - n
    this.#record = { injected: 0, inflow: 0, outflow: 0, buffers: 0, overflow: 0 }
    const queue = this.#device.queue
    queue.writeBuffer(this.#count, 0, new Int32Array(OPEN_COUNT.lanes))
    queue.writeBuffer(this.#buffers.cellStart, 4 * cells, new Uint32Array([n]))
    return {
      ...packed,
      posm: grow(packed.posm),
      velr: grow(packed.velr),
      ref: grow(packed.ref),
      therm: packed.therm ? grow(packed.therm) : null,
      info,
      kept: capacity,
    }
  }

  /** Particles in the buffers' slots less the unused ones, since the upload (made − unused). */
  liveOffset(): number {
    return this.#record.injected - this.#unusedAtUpload
  }

  /** Particles made since the upload. */
  injected(): number {
    return this.#record.injected
  }

  /** Before the count pass of each step's sort. */
  encodeLifecycle(pass: GPUComputePassEncoder, dispatch: Dispatch): void {
    dispatch(pass, this.#passes.lifecycle)
    if (this.#thermCopy) dispatch(pass, this.#thermCopy)
  }

  /** After the sort (the state in cell order). */
  encodeValues(pass: GPUComputePassEncoder, dispatch: Dispatch): void {
    dispatch(pass, this.#passes.extrapolate)
  }

  /** After each force pass (and air drag). */
  encodeClear(pass: GPUComputePassEncoder, dispatch: Dispatch): void {
    dispatch(pass, this.#passes.clear)
  }

  /** At the step's end (after the history's finish). */
  encodeRecord(pass: GPUComputePassEncoder): void {
    pass.setPipeline(this.#passes.record.pipeline)
    pass.setBindGroup(0, this.#passes.record.bindGroup)
    pass.dispatchWorkgroups(1)
  }

  /** The last batch's `steps` records (after its history was read). */
  async read(steps: number): Promise<OpenRecord[]> {
    const bytes = 4 * OPEN_RECORD * steps
    const staging = this.#device.createBuffer({
      size: Math.max(16, bytes),
      usage: USAGE.mapRead | USAGE.copyDst,
    })
    const encoder = this.#device.createCommandEncoder()
    encoder.copyBufferToBuffer(this.#history, 0, staging, 0, bytes)
    this.#device.queue.submit([encoder.finish()])
    await staging.mapAsync(1)
    const lanes = new Int32Array(staging.getMappedRange().slice(0, bytes))
    staging.unmap()
    staging.destroy()
    const records: OpenRecord[] = []
    for (let s = 0; s < steps; s++) {
      const o = OPEN_RECORD * s
      const record = {
        injected: lanes[o]!,
        inflow: lanes[o + 1]!,
        outflow: lanes[o + 2]!,
        buffers: lanes[o + 3]!,
        overflow: lanes[o + 4]!,
      }
      if (record.overflow > 0)
        throw new Error(
          `The open boundaries need more than the ${this.#unusedAtUpload + record.injected - record.overflow} unused particle slots reserved for this run.`,
        )
      records.push(record)
    }
    return records
  }

  /** The step reported next (one of read()'s records). */
  select(record: OpenRecord): void {
    this.#record = record
  }

  /** The CPU's report: mass through the boundaries since the upload, buffer particles now. */
  report(): OpenBoundaryReport {
    const m = this.#particleMass
    return {
      inflowMass: this.#record.inflow * m,
      outflowMass: this.#record.outflow * m,
      bufferCount: this.#record.buffers,
    }
  }

  destroy(): void {
    this.#open.destroy()
    this.#count.destroy()
    this.#history.destroy()
  }
}
