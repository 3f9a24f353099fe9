/**
 * The uniform block of the GPU backend's shaders (PARAMS in shaderCommon.ts): the grid, the
 * particle count and the constants of solver/sph deriveConstants in float32 lanes.
 */
import type { Integrator, SphConstants } from '../sph/config.ts'
import type { Box } from '../sph/grid.ts'
import { ACOUSTIC_CFL_FACTOR } from '../sph/config.ts'
import { SHIFT_MAX_DP } from '../sph/shifting.ts'
import { fixedTimeStepLimit } from '../sph/timeStep.ts'
import type { GpuGrid } from './grid.ts'
import type { RotationalSlice } from '../sph/rotationalSlice.ts'
import { airParams } from './airDrag.ts'
import { multiphaseParams } from './multiphase.ts'
import { sliceParams } from './rotationalSlice.ts'
import { PARAMS_BYTES } from './passes.ts'

/** Largest float32: stands for ±Infinity in the uniform block. */
export const F32_MAX = 3.4e38

/** What the uniform block holds besides the constants. */
export interface ParamsInput {
  constants: SphConstants
  grid: GpuGrid
  count: number
  integrator: Integrator
  cfl: number
  /** The fixed time step, or null for the variable one. */
  fixedDtS: number | null
  /** Fluid outside this box is deleted (calcDomainActive), or null. */
  deletionBox: Box | null
  /** θ = T − referenceT on the GPU (thermal.ts); the viscosity table's rows. */
  referenceT: number
  tableRows: number
  /** The rotational periodic boundary's slice, if any. */
  slice?: RotationalSlice | null | undefined
}

/** The uniform block's bytes. */
export function buildParams(input: ParamsInput): ArrayBuffer {
  const { constants: k, grid: g, cfl } = input
  const buffer = new ArrayBuffer(PARAMS_BYTES)
  const f = new Float32Array(buffer)
  const u = new Uint32Array(buffer)
  f.set([...g.origin, 1 / g.cellSize], 0)
  u.set([...g.dims, g.shape.cells], 4)
  const hydrostatic = k.hydrostaticDensityGradient.some((v) => v !== 0) ? 1 : 0
  u.set([input.count, k.kernelCode, k.riemannWall, hydrostatic], 8)
  f.set([k.h, k.support2, k.eta2, k.kernelGradFactor], 12)
  f.set([k.kernelAlpha, k.referenceDensity, k.stiffness, k.gamma], 16)
  f.set([...k.gravity, k.speedOfSound], 20)
  const clampF32 = (v: number) => Math.max(-F32_MAX, Math.min(F32_MAX, v))
  f.set([k.alpha, k.nu, k.diffusionCoefficient, clampF32(k.densityMin)], 24)
  const acoustic = input.integrator === 'rk4_dual_step' ? ACOUSTIC_CFL_FACTOR * cfl : cfl
  f.set([clampF32(k.densityMax), cfl, acoustic, clampF32(fixedTimeStepLimit(k))], 28)
  const dtMin = (1e-3 * cfl * k.h) / k.speedOfSound
  f.set([dtMin, input.fixedDtS ?? 0, g.shape.scanPer, g.shape.scanBlocks], 32)
  f.set([1 / k.kernelAtDp, k.shiftingCode, SHIFT_MAX_DP * k.particleDiameter, 0], 36)
  const box = input.deletionBox
  f.set(box ? box.min.map(clampF32) : [-F32_MAX, -F32_MAX, -F32_MAX], 40)
  f.set(box ? box.max.map(clampF32) : [F32_MAX, F32_MAX, F32_MAX], 44)
  const period = g.periodY ? g.periodY.max - g.periodY.min : 0
  f.set([1 / g.cellSizeY, period, g.reachY, 0], 48)
  const frame = k.rotation
  f.set(frame ? [...frame.omega, 1] : [0, 0, 0, 0], 52)
  f.set(frame ? [...frame.center, 0] : [0, 0, 0, 0], 56)
  f.set([k.heat.conduction, input.referenceT, input.tableRows, 0], 60)
  const air = airParams(k.airDrag)
  f.set(air.f32, 64)
  u.set(air.u32, 76)
  f.set([k.wallFunctionNu, 0.5 * k.particleDiameter, k.freeSlipMirror ? 1 : 0, 0], 80)
  f.set(sliceParams(input.slice, k.support), 84)
  f.set(multiphaseParams(k), 100)
  return buffer
}

/** What GpuSolver.describe() tells. */
export interface GpuSolverDescription {
  name: string
  integrator: Integrator
  constants: SphConstants
  particleCount: number
  cells: number
  fixedDtS: number | null
}
