/**
 * The GPU backend's buffers: the particle state, the grid, the counters and the history of a
 * batch (see shaderCommon.ts for their layout).
 */
import { HISTORY_STRIDE, SCAN_WORKGROUP } from './shaderCommon.ts'
import { MOTION_VEC4_PER_PART } from './wallMotion.ts'

// WebGPU's flag values (the spec's numbers; Dawn's globals are not installed on globalThis)
export const USAGE = {
  mapRead: 1,
  copySrc: 4,
  copyDst: 8,
  uniform: 64,
  storage: 128,
} as const
export const MAP_READ = 1

/** Largest number of steps one submission holds (the history buffer's slots). */
export const MAX_BATCH_STEPS = 64
/** Bytes of the uniform block (31 vec4). */
export const PARAMS_BYTES = 31 * 16

/** The particle and grid buffers. */
export interface GpuBuffers {
  params: GPUBuffer
  posm: GPUBuffer
  velr: GPUBuffer
  info: GPUBuffer
  rank: GPUBuffer
  rec0: GPUBuffer
  rec1: GPUBuffer
  wall: GPUBuffer
  acc: GPUBuffer
  start: GPUBuffer
  sum: GPUBuffer
  cellCount: GPUBuffer
  cellStart: GPUBuffer
  blockSums: GPUBuffer
  stats: GPUBuffer
  control: GPUBuffer
  history: GPUBuffer
  /** Particles deleted since the upload: outside the domain, not finite, fluid among them. */
  deleted: GPUBuffer
  /** Rest positions (moving parts only; else one element). */
  ref: GPUBuffer
  /** Moving parts: the part maps at a step's start, half step and end (wallMotion.ts). */
  maps: GPUBuffer[]
  /** Temperatures and ν (thermodynamics or a viscosity table, heatShaders.ts; else one element). */
  therm: GPUBuffer
  /** The viscosity table's rows (x, ν) (else one element). */
  table: GPUBuffer
  /** Air drag: the clock and the air's velocity (airDrag.ts; else one element). */
  air: GPUBuffer
}

export interface GridShape {
  cells: number
  /** Scan: cells per thread and blocks of SCAN_WORKGROUP threads. */
  scanPer: number
  scanBlocks: number
}

/** Cells per scan thread so that the blocks stay at most 16384 (one workgroup scans their sums). */
export function gridShape(cells: number): GridShape {
  const scanPer = Math.max(1, Math.ceil((cells + 1) / (SCAN_WORKGROUP * 16384)))
  const scanBlocks = Math.ceil((cells + 1) / (SCAN_WORKGROUP * scanPer))
  return { cells, scanPer, scanBlocks }
}

export function createBuffers(
  device: GPUDevice,
  capacity: number,
  grid: GridShape,
  motion: { moving: boolean; parts: number; wallNormals?: boolean; symplectic?: boolean },
  thermal: { on: boolean; tableRows: number } = { on: false, tableRows: 0 },
  airBytes = 16,
): GpuBuffers {
  const n = Math.max(capacity, 1)
  const storage = USAGE.storage | USAGE.copySrc | USAGE.copyDst
  const make = (bytes: number, usage: number = storage) =>
    device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage })
  return {
    params: make(PARAMS_BYTES, USAGE.uniform | USAGE.copyDst),
    posm: make(16 * n),
    velr: make(16 * n),
    info: make(16 * n),
    rank: make(4 * n),
    rec0: make(16 * n),
    rec1: make(16 * n),
    // riemannWallNormal 'fluid': the walls' normals in a second half (interactShaders.ts)
    wall: make((motion.wallNormals ? 32 : 16) * n),
    acc: make(16 * n),
    start: make(32 * n),
    // RK4's sum of the stages' derivatives (the Symplectic scheme keeps the start only)
    sum: make(motion.symplectic ? 16 : 32 * n),
    cellCount: make(4 * (grid.cells + 1)),
    cellStart: make(4 * (grid.cells + 1)),
    blockSums: make(4 * grid.scanBlocks),
    // |a|² max, viscous rate max, pair count (low, high), fluid speed² max (float bits)
    stats: make(32),
    control: make(16),
    history: make(4 * HISTORY_STRIDE * MAX_BATCH_STEPS),
    deleted: make(16),
    ref: make(motion.moving ? 16 * n : 16),
    maps: [0, 1, 2].map(() =>
      make(motion.moving ? 16 * MOTION_VEC4_PER_PART * Math.max(motion.parts, 1) : 16),
    ),
    therm: make(thermal.on ? 16 * n : 16),
    table: make(8 * thermal.tableRows),
    air: make(airBytes),
  }
}

/** Copies a buffer's first `bytes` into a mappable buffer and reads them. */
export async function readBuffer(
  device: GPUDevice,
  buffer: GPUBuffer,
  bytes: number,
): Promise<ArrayBuffer> {
  const size = Math.max(16, Math.ceil(bytes / 16) * 16)
  const staging = device.createBuffer({ size, usage: USAGE.mapRead | USAGE.copyDst })
  const encoder = device.createCommandEncoder()
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, size)
  device.queue.submit([encoder.finish()])
  await staging.mapAsync(MAP_READ)
  const copy = staging.getMappedRange().slice(0, bytes)
  staging.unmap()
  staging.destroy()
  return copy
}
