/**
 * What the GPU backend refuses before a run starts (never ignored): the settings the CPU solver
 * refuses, and the numerics the GPU does not implement yet; and the GPU memory a case needs,
 * checked against the adapter's limits.
 */
import type { SolverConfig, SphConstants } from '../sph/config.ts'
import { resolveIntegrator, resolveOptions } from '../sph/config.ts'
import { rotationalPeriodicRefusals } from '../sph/periodicRotation.ts'
import { unsupportedSettings } from '../sph/support.ts'
import { formatCount, formatNumber } from '../../domain/units.ts'
import type { GpuInfo } from './device.ts'
import { airBufferBytes } from './airDrag.ts'
import { gpuThermal } from './thermal.ts'
import { gpuMultiphase } from './multiphase.ts'

/**
 * Bytes of GPU buffers per particle: position+mass, velocity+density, ids and flags, the two
 * neighbour records, the wall's viscous velocity, the derivatives (16 each), the sort's rank (4),
 * the Runge–Kutta start and sum (32 each).
 */
export const GPU_BYTES_PER_PARTICLE = 8 * 16 + 4 + 2 * 32
/** Bytes per particle the Symplectic scheme does without: RK4's sum of the stages (32). */
export const GPU_SYMPLECTIC_SAVED_BYTES_PER_PARTICLE = 32
/** Bytes per particle that moving parts add (config.wallMotion): the walls' rest position. */
export const GPU_MOVING_BYTES_PER_PARTICLE = 16
/**
 * Bytes per particle that thermodynamics or a viscosity table add: temperatures and ν (therm,
 * heatShaders.ts; it goes through the sort in the Runge–Kutta start, no scratch of its own).
 */
export const GPU_THERMAL_BYTES_PER_PARTICLE = 16
/**
 * Multiphase and surface tension add no bytes: the phase rides in the flags (info), the colour
 * normal in a fluid particle's entry of the wall buffer (multiphaseShaders.ts).
 */
/** Bytes per particle of riemannWallNormal 'fluid': each wall particle's normal (wall buffer). */
export const GPU_WALL_NORMAL_BYTES_PER_PARTICLE = 16
/** Bytes per grid cell: its count and its start. */
export const GPU_BYTES_PER_CELL = 8
/**
 * The largest buffers hold two vec4 per particle: the Runge–Kutta start and sum, and the wall
 * buffer with the walls' normals.
 */
export const GPU_LARGEST_BYTES_PER_PARTICLE = 32

/**
 * The settings and options of a config the GPU backend does not implement, worded for the run
 * log and the start dialog; empty when it can run it. The CPU solver's own refusals come first.
 */
export function gpuUnsupportedSettings(config: SolverConfig): string[] {
  const settings = config.settings
  const refused = unsupportedSettings(settings, config.options)
  // what the CPU runs and the GPU does not yet (multiphase and surface tension run since
  // 2026-11-28, multiphaseShaders.ts; the CPU's refusals of their combinations stand)
  refused.push(...rotationalPeriodicRefusals(config))
  // variable resolution: particles of more than one spacing (refinement zones)
  const spacings = config.particles.spacings
  if (spacings && Array.from(spacings).some((s) => s !== settings.particleDiameter))
    refused.push('refinement (not yet on GPU)')
  return refused
}

/**
 * What a case adds to the GPU's buffers: moving parts, thermodynamics or a viscosity table, the
 * walls' normals (riemannWallNormal 'fluid'), and air drag's air (its velocity rows or grid:
 * bytes per run, not per particle; airDrag.ts); and what it takes away: the Symplectic scheme
 * has no RK4 sum.
 */
export interface GpuFeatures {
  symplectic?: boolean
  moving?: boolean
  thermal?: boolean
  wallNormals?: boolean
  airBytes?: number
}

/** What a config's case adds to the GPU's buffers (its derived constants `k`). */
export function gpuFeatures(config: SolverConfig, k: SphConstants): GpuFeatures {
  return {
    symplectic: resolveIntegrator(config.settings, resolveOptions(config.options)) === 'symplectic',
    moving: config.wallMotion !== undefined,
    thermal: gpuThermal(k).on,
    wallNormals: k.riemannWall === 1,
    airBytes: k.airDrag ? airBufferBytes(k.airDrag) : 0,
  }
}

/** GPU memory of a case: total bytes and the largest buffer. */
export function gpuMemoryNeeded(
  particles: number,
  cells: number,
  features: GpuFeatures = {},
): { bytes: number; largestBuffer: number } {
  const perParticle =
    GPU_BYTES_PER_PARTICLE -
    (features.symplectic ? GPU_SYMPLECTIC_SAVED_BYTES_PER_PARTICLE : 0) +
    (features.moving ? GPU_MOVING_BYTES_PER_PARTICLE : 0) +
    (features.thermal ? GPU_THERMAL_BYTES_PER_PARTICLE : 0) +
    (features.wallNormals ? GPU_WALL_NORMAL_BYTES_PER_PARTICLE : 0)
  const air = features.airBytes ?? 0
  const largestBuffer = Math.max(
    GPU_LARGEST_BYTES_PER_PARTICLE * Math.max(particles, 1),
    4 * (cells + 1),
    air,
  )
  return {
    bytes: perParticle * particles + GPU_BYTES_PER_CELL * (cells + 1) + air,
    largestBuffer,
  }
}

const MIB = 1024 * 1024

/**
 * Why a case does not fit an adapter (its largest buffer above maxBufferSize or
 * maxStorageBufferBindingSize), or null when it fits. WebGPU does not tell a card's total memory:
 * only the per-buffer limits are checked here; the total goes to the run log.
 */
export function gpuFitProblem(
  particles: number,
  cells: number,
  info: GpuInfo,
  features: GpuFeatures = {},
): string | null {
  const need = gpuMemoryNeeded(particles, cells, features)
  const limit = Math.min(info.maxBufferSize, info.maxStorageBufferBindingSize)
  if (need.largestBuffer <= limit) return null
  const air = features.airBytes ?? 0
  if (air > limit)
    return (
      `This case does not fit the GPU ${info.name}: the air drag domain's grid needs a buffer of ` +
      `${formatNumber(air / MIB, 4)} MiB, the card allows ${formatNumber(limit / MIB, 4)} MiB. ` +
      'Use fewer cells or frames, or run it on the CPU.'
    )
  const most = Math.floor(limit / GPU_LARGEST_BYTES_PER_PARTICLE)
  return (
    `This case does not fit the GPU ${info.name}: ${formatCount(particles)} particles need ` +
    `buffers of ${formatNumber(need.largestBuffer / MIB, 4)} MiB, the card allows ` +
    `${formatNumber(limit / MIB, 4)} MiB (at most ${formatCount(most)} particles). Run it on the CPU.`
  )
}

/**
 * What a run's constants add to the passes: the walls' normals (riemannWallNormal 'fluid'), air
 * drag, multiphase and surface tension.
 */
export function passFeatures(k: SphConstants) {
  return {
    wallNormals: k.riemannWall === 1,
    airDrag: k.airDrag,
    multiphase: gpuMultiphase(k),
  }
}
