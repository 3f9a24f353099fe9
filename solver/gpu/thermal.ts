/**
 * The host's side of heat conduction and the viscosity models on the GPU (heatShaders.ts): what a
 * run asks for, the therm buffer's contents from the host arrays, the viscosity table, and the
 * temperatures and viscosities read back for snapshots and checkpoints.
 */
import type { SphConstants } from '../sph/config.ts'
import type { ParticleArrays } from '../sph/particles.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { VISCOSITY_MODEL } from '../sph/viscosityModels.ts'

const FLUID = PARTICLE_KIND.fluid

/** What a run's heat conduction and viscosity model ask of the GPU. */
export interface GpuThermal {
  /** The therm buffer and its passes exist (thermodynamics or a viscosity table). */
  on: boolean
  /** Heat conduction (settings.thermodynamics): the walls' temperatures, dθ/dt, the update. */
  conduction: boolean
  /** VISCOSITY_MODEL of the fluid: the viscosity pass runs unless constant. */
  model: number
  /** The force pass takes each particle's ν (a table, laminar viscosity on: forces.ts). */
  variableNu: boolean
  tableRows: number
  /** The viscosity table as float32 rows (x, ν). */
  table: Float32Array<ArrayBuffer>
  /** θ = T − referenceT on the GPU (referenceTemperature; 0 when off). */
  referenceT: number
}

/** What the constants ask for; the reference temperature from the particles [0, n) of `a`. */
export function gpuThermal(k: SphConstants, a?: ParticleArrays, n = 0): GpuThermal {
  const conduction = k.heat.conduction > 0
  const model = k.heat.viscosityModel
  const variable = model !== VISCOSITY_MODEL.constant
  const on = conduction || variable
  return {
    on,
    conduction,
    model,
    variableNu: variable && k.nu > 0,
    tableRows: k.heat.viscosityTableX.length,
    table: viscosityTableRows(k),
    referenceT: on && a ? referenceTemperature(a, n) : 0,
  }
}

/** The viscosity table as float32 rows (x, ν). */
export function viscosityTableRows(k: SphConstants): Float32Array<ArrayBuffer> {
  const { viscosityTableX: x, viscosityTableNu: nu } = k.heat
  const rows = new Float32Array(2 * Math.max(x.length, 1))
  for (let r = 0; r < x.length; r++) rows.set([x[r]!, nu[r]!], 2 * r)
  return rows
}

/**
 * The run's reference temperature T_ref (θ = T − T_ref on the GPU): the mean of the fluid's
 * finite temperatures, rounded to float32 (the uniform block holds it so); 0 without any.
 */
export function referenceTemperature(a: ParticleArrays, n: number): number {
  let sum = 0
  let count = 0
  for (let i = 0; i < n; i++) {
    const t = a.temp[i]!
    if (a.kind[i] === FLUID && Number.isFinite(t)) {
      sum += t
      count++
    }
  }
  return count > 0 ? Math.fround(sum / count) : 0
}

/** θ's fixed-point units on the GPU (heatShaders.ts): 2⁻⁸ K, and 2⁻⁴⁰ K for the remainder. */
const HIGH_PER_K = 256
const LOW_PER_HIGH = 2 ** 32

/**
 * Particle i's therm entry at o..o + 4 (u32 and float32 views of one buffer): fluid (θ in 2⁻⁸ K,
 * the remainder in 2⁻⁴⁰ K, 0, ν), θ = T − T_ref; a wall (θ set, 0, 0, 1) at a set temperature,
 * else adiabatic (0, 0, 0, 0), as float32.
 */
export function packTherm(
  a: ParticleArrays,
  i: number,
  referenceT: number,
  out: { u32: Uint32Array; f32: Float32Array },
  o: number,
): void {
  const t = a.temp[i]!
  if (a.kind[i] === FLUID) {
    const units = (t - referenceT) * HIGH_PER_K
    let high = Math.floor(units)
    let low = Math.round((units - high) * LOW_PER_HIGH)
    if (low === LOW_PER_HIGH) {
      high++
      low = 0
    }
    out.u32[o] = high >>> 0
    out.u32[o + 1] = low
    out.f32.set([0, a.visc[i]!], o + 2)
  } else if (Number.isFinite(t)) out.f32.set([t - referenceT, 0, 0, 1], o)
  else out.f32.set([0, 0, 0, 0], o)
}

/** A fluid particle's temperature from its therm entry at o (u32 view; double precision). */
export function temperatureAt(therm: Uint32Array, o: number, referenceT: number): number {
  return referenceT + ((therm[o]! | 0) + therm[o + 1]! / LOW_PER_HIGH) / HIGH_PER_K
}
