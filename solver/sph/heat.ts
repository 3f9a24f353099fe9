/**
 * Heat conduction (settings.thermodynamics): the temperature the walls show the fluid, the
 * conduction rate of every fluid particle and its update, each on a cell or particle range so
 * that threads can share them (see NUMERICS.md, 'Heat conduction and viscosity models').
 *
 * Cleary & Monaghan (1999) with one conductivity k (one fluid material):
 *   ρ_i c_p dT_i/dt = Σ_j V_j (4 k k/(k + k)) (T_i − T_j) (r_ij·∇W_ij)/(r² + η²)
 *                   = 2k Σ_j V_j (T_i − T_j) (r·∇W)/(r² + η²)
 * with V_j = m_j/ρ_j (a wall particle's is its lattice cell m/ρ0). Wall particles take part with
 * the temperature of extrapolateWallTemperatures: adiabatic walls the fluid's own (Shepard)
 * temperature T̃ next to them, so that no heat crosses the wall and the fluid's kernel is
 * complete; walls at a set temperature T_w the mirrored 2 T_w − T̃, so that T_w holds at the wall
 * surface (as Adami et al.'s no-slip velocity 2 v_w − ṽ_f does for the velocity).
 */
import type { SolverConfig, SphConstants } from './config.ts'
import { KERNEL_CODE, SolverSetupError } from './config.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import type { ParticleArrays } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows } from './stencil.ts'
import type { SolverSnapshot } from './solverTypes.ts'
import { VISCOSITY_MODEL } from './viscosityModels.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const STRIDE = PACK_STRIDE
const FLUID = PARTICLE_KIND.fluid

/**
 * The temperature each wall particle of a cell range shows the fluid, into dtemp: the Shepard
 * average T̃ = Σ_f T_f W / Σ_f W over its fluid neighbours for an adiabatic wall (temp NaN), the
 * mirror 2 T_w − T̃ for a wall at the set temperature T_w (temp); NaN without fluid neighbours.
 * Reads the neighbour records (positions, the sign of the volume) of the pressures pass.
 */
export function extrapolateWallTemperatures(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
): void {
  const { packed, kind, temp, dtemp } = ctx.arrays
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const support2 = k.support2
  const invH = 1 / k.h
  const alpha = k.kernelAlpha
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    if (pBegin === pEnd) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      if (kind[i] === FLUID) continue
      if (rows < 0) rows = fillStencilRows(ctx, c, true)
      const oi = i * STRIDE
      const xi = packed[oi]!
      const yi = packed[oi + 1]!
      const zi = packed[oi + 2]!
      let sumW = 0
      let sumT = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        const yr = yi - rowShiftY[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          if (!(packed[o + 7]! > 0)) continue
          const dx = xi - packed[o]!
          const dy = yr - packed[o + 1]!
          const dz = zi - packed[o + 2]!
          const r2 = dx * dx + dy * dy + dz * dz
          if (r2 >= support2) continue
          const q = Math.sqrt(r2) * invH
          let w: number
          if (wendland) {
            const t = 1 - 0.5 * q
            const t2 = t * t
            w = alpha * t2 * t2 * (2 * q + 1)
          } else if (q < 1) {
            w = alpha * (1 - 1.5 * q * q + 0.75 * q * q * q)
          } else {
            const t = 2 - q
            w = alpha * 0.25 * t * t * t
          }
          sumW += w
          sumT += temp[j]! * w
        }
      }
      const set = temp[i]!
      if (sumW > 0) {
        const fluidT = sumT / sumW
        dtemp[i] = set === set ? 2 * set - fluidT : fluidT
      } else dtemp[i] = NaN
    }
  }
}

/**
 * dT/dt of the fluid particles of a cell range into dtemp (Cleary & Monaghan's conduction, see
 * the module's comment); needs the walls' temperatures of extrapolateWallTemperatures.
 */
export function computeHeat(ctx: InteractionContext, cellBegin: number, cellEnd: number): void {
  const { packed, kind, temp, dtemp, rho } = ctx.arrays
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const support2 = k.support2
  const invH = 1 / k.h
  const eta2 = k.eta2
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const conduction = k.heat.conduction
  const MIN_R2 = 1e-24 * support2
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    if (pBegin === pEnd) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      if (kind[i] !== FLUID) continue
      if (rows < 0) rows = fillStencilRows(ctx, c, false)
      const oi = i * STRIDE
      const xi = packed[oi]!
      const yi = packed[oi + 1]!
      const zi = packed[oi + 2]!
      const ti = temp[i]!
      let sum = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        const yr = yi - rowShiftY[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          const dx = xi - packed[o]!
          const dy = yr - packed[o + 1]!
          const dz = zi - packed[o + 2]!
          const r2 = dx * dx + dy * dy + dz * dz
          if (r2 >= support2 || r2 < MIN_R2) continue
          let vj = packed[o + 7]!
          let tj: number
          if (vj > 0) tj = temp[j]!
          else {
            vj = -vj
            tj = dtemp[j]!
            // a wall that sees no fluid (cannot happen within a fluid particle's support)
            if (tj !== tj) continue
          }
          const rr = Math.sqrt(r2)
          let f: number
          if (wendland) {
            const t = 1 - 0.5 * rr * invH
            f = gradFactor * t * t * t
          } else {
            const q = rr * invH
            if (q < 1) f = gradFactor * (-3 + 2.25 * q)
            else {
              const t = 2 - q
              f = (gradFactor * (-0.75 * t * t)) / q
            }
          }
          sum += vj * (ti - tj) * ((f * r2) / (r2 + eta2))
        }
      }
      dtemp[i] = (conduction * sum) / rho[i]!
    }
  }
}

/** Forward Euler over a particle range: T += dt dT/dt for fluid particles (after the step). */
export function updateTemperatures(
  a: ParticleArrays,
  begin: number,
  end: number,
  dt: number,
): void {
  const { kind, temp, dtemp } = a
  for (let i = begin; i < end; i++) if (kind[i] === FLUID) temp[i] = temp[i]! + dt * dtemp[i]!
}

/**
 * The conduction time-step limit 0.125 h²/α with α = k/(ρ0 c_p) the thermal diffusivity
 * (Infinity without conduction): the viscous limit's rule for the same diffusion operator.
 */
export function conductionTimeStepLimit(h: number, thermalDiffusivity: number): number {
  return thermalDiffusivity > 0 ? (0.125 * h * h) / thermalDiffusivity : Infinity
}

/**
 * Initial temperatures (settings.thermodynamics), particles in input order: a fluid particle
 * its own (SolverParticles.temperatures) or else settings.ambientTemperature; a wall particle its
 * part's set temperature (SolverPart.wallTemperature), NaN for an adiabatic wall (the default).
 */
export function initialiseTemperatures(a: ParticleArrays, n: number, config: SolverConfig): void {
  if (!config.settings.thermodynamics) return
  const input = config.particles
  const temperatures = input.temperatures
  if (temperatures && temperatures.length !== n)
    throw new SolverSetupError('temperatures must hold one value per particle.')
  const ambient = config.settings.ambientTemperature
  const wallTemperature = new Map<number, number>()
  for (const part of config.parts ?? [])
    if (part.wallTemperature !== null && part.wallTemperature !== undefined)
      wallTemperature.set(part.id, part.wallTemperature)
  for (let i = 0; i < n; i++) {
    if (a.kind[i] !== FLUID) {
      a.temp[i] = wallTemperature.get(input.partIds[i]!) ?? NaN
      continue
    }
    const t = temperatures ? temperatures[i]! : ambient
    if (t === null || !Number.isFinite(t))
      throw new SolverSetupError(
        'Thermodynamics needs an initial temperature: set ambientTemperature or the parts’ initial temperature.',
      )
    a.temp[i] = t
  }
}

/**
 * Adds the temperature (thermodynamics) and the kinematic viscosity (a temperature or shear-rate
 * model) of the particles to a snapshot, in its order (by particle id); walls read NaN.
 */
export function withHeatFields(
  a: ParticleArrays,
  k: SphConstants,
  snapshot: SolverSnapshot,
): SolverSnapshot {
  const thermal = k.heat.conduction > 0
  const variable = k.heat.viscosityModel !== VISCOSITY_MODEL.constant
  if (!thermal && !variable) return snapshot
  const n = snapshot.count
  const indexOfId = new Int32Array(a.capacity).fill(-1)
  for (let i = 0; i < n; i++) indexOfId[a.particleId[i]!] = i
  const temperature = thermal ? new Float64Array(n) : null
  const viscosity = variable ? new Float64Array(n) : null
  for (let s = 0; s < n; s++) {
    const i = indexOfId[snapshot.particleIds[s]!]!
    const fluid = a.kind[i] === FLUID
    if (temperature) temperature[s] = fluid ? a.temp[i]! : NaN
    if (viscosity) viscosity[s] = fluid ? a.visc[i]! : NaN
  }
  if (temperature) snapshot.temperature = temperature
  if (viscosity) snapshot.kinematicViscosity = viscosity
  return snapshot
}
