/**
 * The GPU backend's buffers and bind groups (the pipelines: pipelines.ts), and the command
 * sequences of a step: sort (count, scan, scatter), interact (pressures, wall extrapolation or
 * the dynamic walls' continuity, forces), the time step and the integrator's stages. Nothing here waits for the GPU;
 * GpuSolver.ts submits and reads.
 */
import { HISTORY_STRIDE, WORKGROUP } from './shaderCommon.ts'
import type { GpuBuffers, GridShape } from './buffers.ts'
import { createBuffers, readBuffer } from './buffers.ts'
import type { GpuProbes } from './probes.ts'
import type { Pass } from './pipelines.ts'
import {
  airDragPasses,
  dynamicWallPipelinesFor,
  multiphasePipelinesFor,
  passBinder,
  pipelinesFor,
  stagePipelinesFor,
} from './pipelines.ts'
import type { GpuThermal } from './thermal.ts'
import { THERMAL_OFF, type ThermalPasses, thermalPasses } from './thermalPasses.ts'
import type { GpuOpenBoundaries } from './openBoundaries.ts'
import type { AirDragConstants } from '../sph/airDragField.ts'
import { airBufferBytes, airClock } from './airDrag.ts'
import type { GpuMultiphase } from './multiphase.ts'

export type { GpuBuffers, GridShape } from './buffers.ts'
export { HISTORY_STRIDE }
export {
  createBuffers,
  gridShape,
  MAP_READ,
  MAX_BATCH_STEPS,
  PARAMS_BYTES,
  USAGE,
} from './buffers.ts'

/** WebGPU's guaranteed workgroups per dispatch dimension (4.2 M particles at 64 per group). */
const MAX_GROUPS_X = 65535

export class GpuPasses {
  readonly buffers: GpuBuffers
  #device: GPUDevice
  #grid: GridShape
  #count = 0
  #count_: Pass
  #scanReduce: Pass
  #scanBlocks: Pass
  #scanDown: Pass
  #scatter: Pass
  #pressure: Pass
  #wall: Pass
  #force: Pass
  /** Surface tension's colour gradient before each force pass (multiphaseShaders.ts), or null. */
  #colour: Pass | null
  #dt: Pass
  #finish: Pass
  /** The integrator's stages: RK4's four, or the Symplectic predictor and corrector. */
  #stages: Pass[]
  #symplectic: boolean
  #speed: Pass
  #shift: Pass
  /** Dynamic boundary particles: their records and continuity (dynamicWalls.ts), or null. */
  #dynamic: { records: Pass; continuity: Pass } | null
  #shifting: boolean
  /** Moving parts: the ref scatter and the wall placements at the three times of a step. */
  #moving: { scatterRef: Pass; place: Pass[] } | null
  /** Thermodynamics or a viscosity table, or null. */
  #thermal: ThermalPasses | null
  /** Air drag: its constants and the drag pass at a step's start or end, and at its middle. */
  #airDrag: { k: AirDragConstants; end: Pass; half: Pass } | null
  /** The run's sensor points, probed at the end of every step (probes.ts), or null. */
  probes: GpuProbes | null = null
  /** Open boundaries (openBoundaries.ts), or null. */
  open: GpuOpenBoundaries | null = null

  constructor(
    device: GPUDevice,
    capacity: number,
    grid: GridShape,
    options: {
      /** Dynamic boundary particles (else generalized walls, extrapolated). */
      dynamic: boolean
      symplectic: boolean
      shifting: boolean
      moving: boolean
      parts: number
      /** riemannWallNormal 'fluid': the wall buffer holds the walls' normals too. */
      wallNormals?: boolean
      thermal?: GpuThermal
      airDrag?: AirDragConstants | null
      multiphase?: GpuMultiphase | null
    },
  ) {
    this.#device = device
    this.#grid = grid
    this.#symplectic = options.symplectic
    this.#shifting = options.shifting
    const thermal = options.thermal ?? THERMAL_OFF
    const airDrag = options.airDrag ?? null
    const b = createBuffers(device, capacity, grid, options, thermal, airBufferBytes(airDrag))
    this.buffers = b
    const p = pipelinesFor(device)
    const pass = passBinder(device)
    this.#count_ = pass(p.count, [
      b.params,
      b.posm,
      b.info,
      b.cellCount,
      b.rank,
      b.deleted,
      b.control,
      b.velr,
    ])
    this.#scanReduce = pass(p.scanReduce, [b.params, b.cellCount, b.blockSums])
    this.#scanBlocks = pass(p.scanBlocks, [b.params, b.blockSums])
    this.#scanDown = pass(p.scanDown, [b.params, b.cellCount, b.blockSums, b.cellStart])
    // the sorted state goes to the record buffers (rewritten by the pressure pass next) and back
    this.#scatter = pass(p.scatter, [
      b.params,
      b.posm,
      b.velr,
      b.info,
      b.rank,
      b.cellStart,
      b.rec0,
      b.rec1,
      b.acc,
    ])
    this.#pressure = pass(p.pressure, [b.params, b.posm, b.velr, b.info, b.rec0, b.rec1])
    this.#wall = pass(options.moving ? p.wallMoving : p.wall, [
      b.params,
      b.rec0,
      b.rec1,
      b.velr,
      b.info,
      b.cellStart,
      b.wall,
      b.acc,
    ])
    // the rest positions are scattered into the wall buffer (rewritten by the wall pass) and back
    this.#moving = options.moving
      ? {
          scatterRef: pass(p.scatterRef, [b.params, b.ref, b.info, b.rank, b.cellStart, b.wall]),
          place: b.maps.map((maps) =>
            pass(p.place, [b.params, b.ref, b.info, maps, b.posm, b.velr, b.acc]),
          ),
        }
      : null
    const t = thermalPasses(device, b, thermal, pass)
    const forceBuffers = [b.params, b.rec0, b.rec1, b.wall, b.info, b.cellStart, b.acc, b.stats]
    // multiphase: its own force pass on the same buffers, surface tension's colour pass before it
    const m = options.multiphase ? multiphasePipelinesFor(device) : null
    this.#force = pass(m?.force ?? t?.forceVariableNu ?? p.force, [...forceBuffers, b.velr])
    this.#colour = options.multiphase?.tension
      ? pass(m!.colour, [b.params, b.rec0, b.rec1, b.info, b.cellStart, b.wall])
      : null
    this.#thermal = t
    const d = options.dynamic ? dynamicWallPipelinesFor(device) : null
    this.#dynamic = d && {
      records: pass(d.records, [b.params, b.posm, b.velr, b.info, b.rec0, b.rec1, b.wall]),
      continuity: pass(d.continuity, [
        b.params,
        b.rec0,
        b.rec1,
        b.velr,
        b.info,
        b.cellStart,
        b.acc,
        b.stats,
      ]),
    }
    this.#airDrag = airDrag ? airDragPasses(device, b, airDrag, pass) : null
    this.#dt = pass(p.dt, [b.params, b.stats, b.control, b.history, b.air])
    this.#finish = pass(p.finish, [b.stats, b.control, b.history, b.deleted])
    const stages = stagePipelinesFor(device, options.symplectic, options.dynamic)
    this.#stages = stages.map((pipeline) =>
      pass(
        pipeline,
        options.symplectic
          ? [b.params, b.posm, b.velr, b.acc, b.info, b.start, b.control]
          : [b.params, b.posm, b.velr, b.acc, b.info, b.start, b.sum, b.control],
      ),
    )
    this.#speed = pass(p.speed, [b.params, b.velr, b.info, b.stats])
    this.#shift = pass(p.shift, [
      b.params,
      b.rec0,
      b.rec1,
      b.info,
      b.cellStart,
      b.posm,
      b.control,
      b.stats,
    ])
  }

  /** A batch's start at the solver's time `timeS`, `left` seconds to its target (float32). */
  startBatch(left: number, timeS: number): void {
    const control = new ArrayBuffer(16)
    new Float32Array(control).set([0, left])
    this.#device.queue.writeBuffer(this.buffers.control, 0, control)
    this.setClock(timeS)
  }

  /**
   * Air drag's clock zeroed at the solver's time `timeS` (before a batch or a measured pass): the
   * air's times relative to it (airDrag.ts).
   */
  setClock(timeS: number): void {
    this.open?.setClock(timeS)
    if (this.#airDrag)
      this.#device.queue.writeBuffer(this.buffers.air, 0, airClock(this.#airDrag.k, timeS))
  }

  /** Particles in the buffers now (the dispatch size). */
  setCount(count: number): void {
    this.#count = count
  }

  #groups(): number {
    return Math.max(1, Math.ceil(this.#count / WORKGROUP))
  }

  #dispatch(pass: GPUComputePassEncoder, p: Pass, groups: number): void {
    pass.setPipeline(p.pipeline)
    pass.setBindGroup(0, p.bindGroup)
    pass.dispatchWorkgroups(groups)
  }

  /** One thread per particle, in rows of at most MAX_GROUPS_X workgroups along y beyond that. */
  readonly perParticle = (pass: GPUComputePassEncoder, p: Pass): void => {
    pass.setPipeline(p.pipeline)
    pass.setBindGroup(0, p.bindGroup)
    const groups = this.#groups()
    const x = Math.min(groups, MAX_GROUPS_X)
    pass.dispatchWorkgroups(x, Math.ceil(groups / x))
  }

  /** Counting sort by cell: the state buffers end in cell order, info's last lane the cell. */
  encodeSort(encoder: GPUCommandEncoder): void {
    const b = this.buffers
    const n = this.#count
    encoder.clearBuffer(b.cellCount)
    const pass = encoder.beginComputePass()
    this.open?.encodeLifecycle(pass, this.perParticle)
    this.perParticle(pass, this.#count_)
    this.#dispatch(pass, this.#scanReduce, this.#grid.scanBlocks)
    this.#dispatch(pass, this.#scanBlocks, 1)
    this.#dispatch(pass, this.#scanDown, this.#grid.scanBlocks)
    this.perParticle(pass, this.#scatter)
    if (this.#moving) this.perParticle(pass, this.#moving.scatterRef)
    // the temperatures through `start` (the Runge–Kutta start, free until the first stage)
    if (this.#thermal) this.perParticle(pass, this.#thermal.scatter)
    pass.end()
    if (this.#thermal) encoder.copyBufferToBuffer(b.start, 0, b.therm, 0, 16 * n)
    encoder.copyBufferToBuffer(b.rec0, 0, b.posm, 0, 16 * n)
    encoder.copyBufferToBuffer(b.rec1, 0, b.velr, 0, 16 * n)
    encoder.copyBufferToBuffer(b.acc, 0, b.info, 0, 16 * n)
    if (this.#moving) encoder.copyBufferToBuffer(b.wall, 0, b.ref, 0, 16 * n)
  }

  /** Moving parts: the walls placed by the maps of slot 0, 1 or 2 (a step's t, t + dt/2, t + dt). */
  #place(pass: GPUComputePassEncoder, slot: number): void {
    if (this.#moving) this.perParticle(pass, this.#moving.place[slot]!)
  }

  /** Moving parts: the walls placed by slot 0's maps (after an upload). */
  encodePlace(encoder: GPUCommandEncoder): void {
    const pass = encoder.beginComputePass()
    this.#place(pass, 0)
    pass.end()
  }

  /**
   * Pressures, wall extrapolation, each particle's ν (a viscosity table), surface tension's colour
   * gradient, forces and air drag at
   * the current state; `half`: the stages at the step's middle (the air's time, airDrag.ts).
   */
  encodeInteract(pass: GPUComputePassEncoder, half = false): void {
    this.#records(pass)
    const dynamic = this.#dynamic
    this.perParticle(pass, dynamic ? dynamic.continuity : this.#wall)
    const viscosity = this.#thermal?.viscosity
    if (viscosity) this.perParticle(pass, viscosity)
    if (this.#colour) this.perParticle(pass, this.#colour)
    this.perParticle(pass, this.#force)
    const drag = this.#airDrag
    if (drag) this.perParticle(pass, half ? drag.half : drag.end)
    this.open?.encodeClear(pass, this.perParticle)
  }

  /** The neighbour records: pressures, and the dynamic walls' own (dynamicWalls.ts). */
  #records(pass: GPUComputePassEncoder): void {
    this.perParticle(pass, this.#pressure)
    if (this.#dynamic) this.perParticle(pass, this.#dynamic.records)
  }

  /**
   * Heat conduction after the interactions at a step's start (SphSolver's step): the walls'
   * temperatures, then each fluid particle's dθ/dt; θ moves after the step.
   */
  encodeHeat(pass: GPUComputePassEncoder): void {
    const thermal = this.#thermal
    if (!thermal?.heatWall || !thermal.heat) return
    this.perParticle(pass, thermal.heatWall)
    this.perParticle(pass, thermal.heat)
  }

  /**
   * One step: sort, interactions at t (their maxima choose dt on the GPU), then the integrator's
   * stages with interactions between them, the step's pair count into the history, and the
   * particle shifting when the settings ask for it. With moving parts the host reads dt between
   * the two halves (encodeStepStart, encodeStepEnd) to write the maps of t + dt/2 and t + dt.
   */
  encodeStep(encoder: GPUCommandEncoder): void {
    this.encodeStepStart(encoder)
    this.encodeStepEnd(encoder)
  }

  /** The step's sort, walls placed at t, interactions at t and the time step. */
  encodeStepStart(encoder: GPUCommandEncoder): void {
    this.encodeSort(encoder)
    // the time step uses the first pass's maxima only
    encoder.clearBuffer(this.buffers.stats, 0, 8)
    const pass = encoder.beginComputePass()
    this.open?.encodeValues(pass, this.perParticle)
    this.#place(pass, 0)
    this.encodeInteract(pass)
    this.#dispatch(pass, this.#dt, 1)
    this.encodeHeat(pass)
    pass.end()
  }

  /**
   * The stages (SphSolver's step): RK4's four with walls placed at t + dt/2 and t + dt, or the
   * Symplectic predictor, walls at t + dt/2, interactions there, the corrector, walls at t + dt;
   * the end of the step.
   */
  encodeStepEnd(encoder: GPUCommandEncoder): void {
    const pass = encoder.beginComputePass()
    const stages = this.#stages
    this.perParticle(pass, stages[0]!)
    this.#place(pass, 1)
    this.encodeInteract(pass, true)
    this.perParticle(pass, stages[1]!)
    if (this.#symplectic) this.#place(pass, 2)
    else {
      this.encodeInteract(pass, true)
      this.perParticle(pass, stages[2]!)
      this.#place(pass, 2)
      this.encodeInteract(pass)
      this.perParticle(pass, stages[3]!)
    }
    // θ += dt dθ/dt after the stages (heat.ts updateTemperatures), before the shifting
    const update = this.#thermal?.update
    if (update) this.perParticle(pass, update)
    this.#dispatch(pass, this.#finish, 1)
    this.open?.encodeRecord(pass)
    if (this.#shifting) {
      // shifting.ts after the step: the fastest fluid particle, records at the new positions
      this.perParticle(pass, this.#speed)
      this.#records(pass)
      this.perParticle(pass, this.#shift)
    }
    // the sensors read the step's end, after the shifting, as the CPU's after its step
    this.probes?.encode(pass)
    pass.end()
  }

  /** Force passes alone (the bench), after one sort and pressure/wall pass. */
  encodeForcesOnly(encoder: GPUCommandEncoder, passes: number): void {
    const pass = encoder.beginComputePass()
    for (let k = 0; k < passes; k++) this.perParticle(pass, this.#force)
    pass.end()
  }

  /** A buffer's first `bytes` (buffers.ts readBuffer). */
  read(buffer: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
    return readBuffer(this.#device, buffer, bytes)
  }

  destroy(): void {
    const buffers = Object.values(
      this.buffers as unknown as Record<string, GPUBuffer | GPUBuffer[]>,
    )
    for (const buffer of buffers.flat()) buffer.destroy()
    this.probes?.destroy()
    this.open?.destroy()
  }
}
