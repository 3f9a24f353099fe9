/**
 * The compiled pipelines of the GPU backend's passes (passes.ts binds and dispatches them), and
 * the end-of-step shader.
 */
import { AIR_DRAG_SHADER, airBufferData } from './airDrag.ts'
import type { AirDragConstants } from '../sph/airDragField.ts'
import type { GpuBuffers } from './buffers.ts'
import { FORCE_SHADER, forceShader, PRESSURE_SHADER } from './interactShaders.ts'
import { WALL_SHADER } from './wallShaders.ts'
import {
  HEAT_SHADER,
  HEAT_UPDATE_SHADER,
  HEAT_WALL_SHADER,
  SCATTER_THERM_SHADER,
  viscosityShader,
} from './heatShaders.ts'
import { HISTORY_STRIDE } from './shaderCommon.ts'
import {
  COUNT_SHADER,
  SCAN_BLOCKS_SHADER,
  SCAN_DOWN_SHADER,
  SCAN_REDUCE_SHADER,
  SCATTER_SHADER,
} from './sortShaders.ts'
import { SHIFT_SHADER, SPEED_SHADER } from './shiftShaders.ts'
import { DT_SHADER, RK_SHADER, SYMPLECTIC_SHADER } from './stepShaders.ts'
import { DYNAMIC_CONTINUITY_SHADER, DYNAMIC_RECORDS_SHADER } from './dynamicWalls.ts'
import { COLOUR_SHADER, MULTIPHASE_FORCE_SHADER } from './multiphaseShaders.ts'
import { PLACE_SHADER, SCATTER_REF_SHADER } from './wallMotion.ts'

/**
 * The end-of-step shader: the step's pair count and the deletions so far into its history slot,
 * the counters reset.
 */
const FINISH_SHADER = /* wgsl */ `
struct Control { dt: f32, remaining: f32, index: u32, pad: u32 }
@group(0) @binding(0) var<storage, read_write> stats: array<u32>;
@group(0) @binding(1) var<storage, read> control: Control;
@group(0) @binding(2) var<storage, read_write> history: array<u32>;
@group(0) @binding(3) var<storage, read> deleted: array<u32>;
@compute @workgroup_size(1)
fn main() {
  let slot = ${HISTORY_STRIDE}u * (control.index - 1u);
  history[slot + 1u] = stats[2];
  history[slot + 2u] = stats[3];
  history[slot + 3u] = deleted[0];
  history[slot + 4u] = deleted[1];
  history[slot + 5u] = deleted[2];
  stats[2] = 0u;
  stats[3] = 0u;
  // the shifting's fastest fluid particle is found after this
  stats[4] = 0u;
}
`

/** A pipeline with its bind group. */
export interface Pass {
  pipeline: GPUComputePipeline
  bindGroup: GPUBindGroup
}

/** Binds `resources` to a pipeline's bindings 0, 1, … in order. */
export type BindPass = (pipeline: GPUComputePipeline, resources: GPUBuffer[]) => Pass

/** A device's BindPass. */
export function passBinder(device: GPUDevice): BindPass {
  return (pipeline, resources) => ({
    pipeline,
    bindGroup: device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: resources.map((buffer, binding) => ({ binding, resource: { buffer } })),
    }),
  })
}

/** The compiled pipelines of a device, made once (compiling is slow on a software adapter). */
export interface Pipelines {
  count: GPUComputePipeline
  scanReduce: GPUComputePipeline
  scanBlocks: GPUComputePipeline
  scanDown: GPUComputePipeline
  scatter: GPUComputePipeline
  pressure: GPUComputePipeline
  wall: GPUComputePipeline
  force: GPUComputePipeline
  dt: GPUComputePipeline
  finish: GPUComputePipeline
  speed: GPUComputePipeline
  shift: GPUComputePipeline
  wallMoving: GPUComputePipeline
  place: GPUComputePipeline
  scatterRef: GPUComputePipeline
}

/** The pipelines of heat conduction and the viscosity models (heatShaders.ts). */
export interface ThermalPipelines {
  forceVariableNu: GPUComputePipeline
  viscosityTemperature: GPUComputePipeline
  viscosityShearRate: GPUComputePipeline
  heatWall: GPUComputePipeline
  heat: GPUComputePipeline
  heatUpdate: GPUComputePipeline
  scatter: GPUComputePipeline
}

/** The drag pass at a step's start or end, and at its middle (airDrag.ts). */
export interface AirDragPipelines {
  end: GPUComputePipeline
  half: GPUComputePipeline
}

/** Dynamic boundary particles' records and continuity (dynamicWalls.ts). */
export interface DynamicWallPipelines {
  records: GPUComputePipeline
  continuity: GPUComputePipeline
}

/** The multiphase force pass and surface tension's colour gradient (multiphaseShaders.ts). */
export interface MultiphasePipelines {
  force: GPUComputePipeline
  colour: GPUComputePipeline
}

/** A device's integrator stages by integrator and boundary ('symplectic/dynamic' …). */
const stagePipelinesOf = new WeakMap<GPUDevice, Map<string, GPUComputePipeline[]>>()

/** Compiles WGSL into a pipeline of one device, its overrides set from `constants`. */
export type PipelineMaker = (code: string, constants?: Record<string, number>) => GPUComputePipeline

function pipelineMaker(device: GPUDevice): PipelineMaker {
  return (code, constants) =>
    device.createComputePipeline({
      layout: 'auto',
      compute: {
        module: device.createShaderModule({ code }),
        entryPoint: 'main',
        ...(constants ? { constants } : {}),
      },
    })
}

/**
 * `build`'s pipelines of a device, made at its first call for that device and kept (compiling
 * takes time, seconds on a software adapter; most runs need few of the optional sets).
 */
export function perDevice<T>(build: (make: PipelineMaker) => T): (device: GPUDevice) => T {
  const known = new WeakMap<GPUDevice, T>()
  return (device) => {
    let made = known.get(device)
    if (!made) {
      made = build(pipelineMaker(device))
      known.set(device, made)
    }
    return made
  }
}

/** Made at a device's first run that needs them (most runs do not: compiling takes time). */
export const thermalPipelinesFor = perDevice((make): ThermalPipelines => ({
  forceVariableNu: make(forceShader(true)),
  viscosityTemperature: make(viscosityShader(false)),
  viscosityShearRate: make(viscosityShader(true)),
  heatWall: make(HEAT_WALL_SHADER),
  heat: make(HEAT_SHADER),
  heatUpdate: make(HEAT_UPDATE_SHADER),
  scatter: make(SCATTER_THERM_SHADER),
}))

/**
 * The integrator's stages (stepShaders.ts): RK4's four or the Symplectic predictor and corrector,
 * with the dynamic walls' density or without; made at a device's first run that needs them.
 */
export function stagePipelinesFor(
  device: GPUDevice,
  symplectic: boolean,
  dynamic: boolean,
): GPUComputePipeline[] {
  const known = stagePipelinesOf.get(device) ?? new Map<string, GPUComputePipeline[]>()
  stagePipelinesOf.set(device, known)
  const key = `${symplectic ? 'symplectic' : 'rk4'}/${dynamic ? 'dynamic' : 'generalized'}`
  const made = known.get(key)
  if (made) return made
  const make = pipelineMaker(device)
  const stages = symplectic ? [1, 2] : [1, 2, 3, 4]
  const DYNAMIC = dynamic ? 1 : 0
  const pipelines = stages.map((STAGE) =>
    make(symplectic ? SYMPLECTIC_SHADER : RK_SHADER, { STAGE, DYNAMIC }),
  )
  known.set(key, pipelines)
  return pipelines
}

/** Made at a device's first run with dynamic boundary particles. */
export const dynamicWallPipelinesFor = perDevice((make): DynamicWallPipelines => ({
  records: make(DYNAMIC_RECORDS_SHADER),
  continuity: make(DYNAMIC_CONTINUITY_SHADER),
}))

/** Made at a device's first multiphase run. */
export const multiphasePipelinesFor = perDevice((make): MultiphasePipelines => ({
  force: make(MULTIPHASE_FORCE_SHADER),
  colour: make(COLOUR_SHADER),
}))

/** Made at a device's first run with air drag. */
export const airDragPipelinesFor = perDevice((make): AirDragPipelines => ({
  end: make(AIR_DRAG_SHADER),
  half: make(AIR_DRAG_SHADER, { HALF: 1 }),
}))

/** Air drag's passes at a step's start or end and at its middle, its air buffer written. */
export function airDragPasses(
  device: GPUDevice,
  b: GpuBuffers,
  airDrag: AirDragConstants,
  pass: BindPass,
): { k: AirDragConstants; end: Pass; half: Pass } {
  device.queue.writeBuffer(b.air, 0, airBufferData(airDrag, 0))
  const a = airDragPipelinesFor(device)
  const resources = [b.params, b.rec0, b.rec1, b.info, b.cellStart, b.posm, b.acc, b.stats, b.air]
  return { k: airDrag, end: pass(a.end, resources), half: pass(a.half, resources) }
}

/** The passes every run takes, made at a device's first run. */
export const pipelinesFor = perDevice((make): Pipelines => ({
  count: make(COUNT_SHADER),
  scanReduce: make(SCAN_REDUCE_SHADER),
  scanBlocks: make(SCAN_BLOCKS_SHADER),
  scanDown: make(SCAN_DOWN_SHADER),
  scatter: make(SCATTER_SHADER),
  pressure: make(PRESSURE_SHADER),
  wall: make(WALL_SHADER),
  force: make(FORCE_SHADER),
  dt: make(DT_SHADER),
  finish: make(FINISH_SHADER),
  speed: make(SPEED_SHADER),
  shift: make(SHIFT_SHADER),
  wallMoving: make(WALL_SHADER, { MOVING: 1 }),
  place: make(PLACE_SHADER),
  scatterRef: make(SCATTER_REF_SHADER),
}))
