/**
 * The constants of heat conduction and of the viscosity models, derived from the settings and the
 * fluid material (see heat.ts, viscosityModels.ts and NUMERICS.md, 'Heat conduction and viscosity
 * models').
 */
import type { SolverConfig, SolverMaterial } from './config.ts'
import { SolverSetupError } from './config.ts'
import { maxTableViscosity, VISCOSITY_MODEL } from './viscosityModels.ts'

/** Heat conduction and viscosity-model constants (part of SphConstants, plain data). */
export interface HeatConstants {
  /** 2k/c_p of the fluid (dT_i/dt = conduction/ρ_i Σ …, heat.ts); 0: no heat conduction. */
  conduction: number
  /** Thermal diffusivity k/(ρ0 c_p), m²/s, for the time-step limit; 0: no heat conduction. */
  thermalDiffusivity: number
  /** VISCOSITY_MODEL of the fluid material. */
  viscosityModel: number
  /** The model's table: abscissae ascending (K or 1/s) and ν (m²/s); empty for constant. */
  viscosityTableX: number[]
  viscosityTableNu: number[]
}

function requirePositive(value: number | null | undefined, what: string): number {
  if (value === null || value === undefined || !(value > 0) || !Number.isFinite(value))
    throw new SolverSetupError(`${what} must be a number greater than 0.`)
  return value
}

/**
 * The constants of a run: conduction with settings.thermodynamics (the material's conductivity
 * and heat capacity are then required), the viscosity table of a 'temperature' (which needs
 * thermodynamics) or 'shear_rate' material (the table is then required).
 */
export function deriveHeatConstants(config: SolverConfig, material: SolverMaterial): HeatConstants {
  const thermal = config.settings.thermodynamics
  let conduction = 0
  let thermalDiffusivity = 0
  if (thermal) {
    const k = requirePositive(material.thermalConductivity, 'The thermal conductivity')
    const cp = requirePositive(material.specificHeatCapacity, 'The specific heat capacity')
    conduction = (2 * k) / cp
    thermalDiffusivity = k / (material.density * cp)
  }
  const kind = material.viscosityKind ?? 'constant'
  if (kind === 'constant')
    return {
      conduction,
      thermalDiffusivity,
      viscosityModel: VISCOSITY_MODEL.constant,
      viscosityTableX: [],
      viscosityTableNu: [],
    }
  if (kind === 'temperature' && !thermal)
    throw new SolverSetupError('Temperature-dependent viscosity requires the Heat Transfer Model.')
  const table = material.viscosityTable
  if (!table || table.x.length < 2 || table.x.length !== table.nu.length)
    throw new SolverSetupError(
      `The ${kind.replace('_', '-')} viscosity table needs at least 2 rows.`,
    )
  return {
    conduction,
    thermalDiffusivity,
    viscosityModel:
      kind === 'temperature' ? VISCOSITY_MODEL.temperature : VISCOSITY_MODEL.shearRate,
    viscosityTableX: [...table.x],
    viscosityTableNu: [...table.nu],
  }
}

/**
 * The laminar ν the force pass and the viscous time-step limit use: the material's constant ν,
 * or with a table the table's largest ν (no particle's ν exceeds it: values are held beyond the
 * table's ends), which sets the viscous limit 0.125 h²/ν.
 */
export function laminarViscosity(material: SolverMaterial): number {
  const kind = material.viscosityKind ?? 'constant'
  if (kind === 'constant' || !material.viscosityTable) return material.kinematicViscosity
  return maxTableViscosity(material.viscosityTable)
}
