/**
 * The particle state a solver starts from: shared buffers filled from the config's particles
 * (fluid densities from their initial pressures or hydrostatic), the grid buffers, and the
 * reference box of the cell grid.
 */
import type { Box } from './grid.ts'
import { allocateGridBuffers } from './grid.ts'
import type { SolverConfig, SolverOptions, SphConstants } from './config.ts'
import { resolveIntegrator, SolverSetupError } from './config.ts'
import { densityFromPressure } from './equationOfState.ts'
import { initialiseTemperatures } from './heat.ts'
import { phaseTait } from './phaseTable.ts'
import { openBoundaryReserve } from './openBoundary.ts'
import { imageReserve } from './periodicRotation.ts'
import type { ParticleArrays } from './particles.ts'
import { allocateParticleBuffers, PARTICLE_KIND, viewParticleArrays } from './particles.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const FLUID = PARTICLE_KIND.fluid
const WALL = PARTICLE_KIND.wall

export interface PreparedParticles {
  buffers: ReturnType<typeof allocateParticleBuffers>
  arrays: ParticleArrays
  grid: ReturnType<typeof allocateGridBuffers>
  count: number
  partIds: number[]
  referenceBox: Box
}

export function prepareParticles(
  config: SolverConfig,
  options: SolverOptions,
  k: SphConstants,
): PreparedParticles {
  const input = config.particles
  const n = input.kinds.length
  if (input.positions.length !== 3 * n)
    throw new SolverSetupError('positions must hold 3 values per particle.')
  if (input.partIds.length !== n)
    throw new SolverSetupError('partIds must hold one value per particle.')
  if (input.velocities && input.velocities.length !== 3 * n)
    throw new SolverSetupError('velocities must hold 3 values per particle.')
  if (input.pressures && input.pressures.length !== n)
    throw new SolverSetupError('pressures must hold one value per particle.')
  const slice = config.rotationalPeriodic
  const capacity =
    n +
    reserveForOpenBoundaries(config, n) +
    (slice ? imageReserve(slice, input.positions, n, k.support) : 0)
  const buffers = allocateParticleBuffers(capacity, {
    rungeKutta: resolveIntegrator(config.settings, options) !== 'symplectic',
    riemannWall: k.riemannWall === 1,
    surfaceTension: k.surfaceTension > 0,
  })
  const a = viewParticleArrays(buffers)
  const partIds: number[] = []
  const partIndexOf = new Map<number, number>()
  const slipParts = new Set(
    (config.parts ?? []).filter((p) => p.wallCondition === 'slip').map((p) => p.id),
  )
  const tait = {
    referenceDensity: k.referenceDensity,
    speedOfSound: k.speedOfSound,
    gamma: k.gamma,
  }
  // multiphase: each fluid particle's phase (its material's index in the phase table)
  const phases = k.phases
  const phaseOf = new Map(phases?.materialIds.map((id, index) => [id, index]))
  // variable resolution: each particle's spacing (variableResolution.ts), else the settings' dp
  const spacings = k.variableResolution ? input.spacings : undefined
  const hPerSpacing = k.h / k.particleDiameter
  for (let i = 0; i < n; i++) {
    const kind = input.kinds[i]!
    if (kind !== FLUID && kind !== WALL)
      throw new SolverSetupError(`Particle ${i} has an unknown kind ${kind}.`)
    const partId = input.partIds[i]!
    let partIndex = partIndexOf.get(partId)
    if (partIndex === undefined) {
      partIndex = partIds.length
      partIds.push(partId)
      partIndexOf.set(partId, partIndex)
    }
    const x = input.positions[3 * i]!
    const y = input.positions[3 * i + 1]!
    const z = input.positions[3 * i + 2]!
    a.posX[i] = a.refX[i] = x
    a.posY[i] = a.refY[i] = y
    a.posZ[i] = a.refZ[i] = z
    a.kind[i] = kind
    a.partIndex[i] = partIndex
    a.particleId[i] = i
    a.mass[i] = k.particleMass
    a.hsml[i] = k.h
    if (spacings) {
      const spacing = spacings[i]!
      a.mass[i] = k.referenceDensity * spacing * spacing * spacing
      a.hsml[i] = hPerSpacing * spacing
    }
    a.rho[i] = k.referenceDensity
    a.noSlip[i] = slipParts.has(partId) ? 0 : 1
    if (kind === FLUID) {
      if (input.velocities) {
        a.velX[i] = input.velocities[3 * i]!
        a.velY[i] = input.velocities[3 * i + 1]!
        a.velZ[i] = input.velocities[3 * i + 2]!
      }
      if (phases) {
        const phase = input.materialIds ? phaseOf.get(input.materialIds[i]!)! : 0
        a.phase[i] = phase
        a.rho[i] = phases.referenceDensity[phase]!
        if (input.pressures)
          a.rho[i] = densityFromPressure(phaseTait(phases, phase), input.pressures[i]!)
      } else if (input.pressures) a.rho[i] = densityFromPressure(tait, input.pressures[i]!)
    }
  }
  if (options.hydrostaticInitialisation && !input.pressures) initialiseHydrostatic(a, n, k)
  // a fluid particle fills its lattice cell at its initial density: m = ρ dp³. With ρ0 dp³ a
  // column started under pressure would hold less volume than its lattice (by p/(ρ0 c0²), 1 % at
  // the foot of a column of c0 = 10√(gH)) for good, and stand 1.5 % above hydrostatic pressure
  const cell = k.particleDiameter ** 3
  for (let i = 0; i < n; i++)
    if (a.kind[i] === FLUID) a.mass[i] = a.rho[i]! * (spacings ? spacings[i]! ** 3 : cell)
  initialiseTemperatures(a, n, config)

  const settings = config.settings
  let referenceBox: Box
  if (settings.calcDomainActive) {
    const min = settings.calcDomainMin.map((v, c) => requireFinite(v, `calcDomainMin.${c}`))
    const max = settings.calcDomainMax.map((v, c) => requireFinite(v, `calcDomainMax.${c}`))
    referenceBox = { min: min as Box['min'], max: max as Box['max'] }
  } else {
    const min: Box['min'] = [Infinity, Infinity, Infinity]
    const max: Box['max'] = [-Infinity, -Infinity, -Infinity]
    for (let i = 0; i < n; i++) {
      const p = [a.posX[i]!, a.posY[i]!, a.posZ[i]!]
      for (let c = 0; c < 3; c++) {
        min[c] = Math.min(min[c]!, p[c]!)
        max[c] = Math.max(max[c]!, p[c]!)
      }
    }
    if (n === 0) referenceBox = { min: [0, 0, 0], max: [0, 0, 0] }
    else {
      // room for splashes; beyond it particles share the edge cells (still correct)
      for (let c = 0; c < 3; c++) {
        const margin = Math.max(0.5 * (max[c]! - min[c]!), 10 * k.support)
        min[c] = min[c]! - margin
        max[c] = max[c]! + margin
      }
      referenceBox = { min, max }
    }
  }
  // cells of 2h/3 = dp hold about one particle where there is fluid: 8n leaves room for voids
  // (a grid that would need more cells gets larger cells, slower but still exact)
  const maxCells = Math.max(8 * capacity, 1 << 16)
  return {
    buffers,
    arrays: a,
    grid: allocateGridBuffers(maxCells),
    count: n,
    partIds,
    referenceBox,
  }
}

/** Room for the particles the inlets bring in over the run (openBoundaryReserve). */
function reserveForOpenBoundaries(config: SolverConfig, n: number): number {
  const zones = config.openBoundaries ?? []
  if (zones.length === 0) return 0
  const counts = zones.map(() => 0)
  for (let i = 0; i < n; i++) {
    const z = zones.findIndex((zone) => zone.partId === config.particles.partIds[i])
    if (z >= 0) counts[z]!++
  }
  const endTimeS = config.settings.endTime ?? 0
  return openBoundaryReserve(zones, counts, config.settings.particleDiameter ?? 1, endTimeS)
}

function requireFinite(value: number | null, name: string): number {
  if (value === null || !Number.isFinite(value))
    throw new SolverSetupError(`Setting ${name} must be a number.`)
  return value
}

/** Hydrostatic pressure below the top of each fluid part: p = ρ0 |g| (top + dp/2 − depth). */
function initialiseHydrostatic(a: ParticleArrays, n: number, k: SphConstants): void {
  const [gx, gy, gz] = k.gravity
  const g = Math.hypot(gx, gy, gz)
  if (g === 0) return
  const up = [-gx / g, -gy / g, -gz / g] as const
  const top = new Map<number, number>()
  for (let i = 0; i < n; i++) {
    if (a.kind[i] !== FLUID) continue
    const s = a.posX[i]! * up[0] + a.posY[i]! * up[1] + a.posZ[i]! * up[2]
    top.set(a.partIndex[i]!, Math.max(top.get(a.partIndex[i]!) ?? -Infinity, s))
  }
  const tait = {
    referenceDensity: k.referenceDensity,
    speedOfSound: k.speedOfSound,
    gamma: k.gamma,
  }
  for (let i = 0; i < n; i++) {
    if (a.kind[i] !== FLUID) continue
    const s = a.posX[i]! * up[0] + a.posY[i]! * up[1] + a.posZ[i]! * up[2]
    const depth = top.get(a.partIndex[i]!)! + 0.5 * k.particleDiameter - s
    // multiphase: each part with its own material's density, as if nothing lay above it
    const own = k.phases ? phaseTait(k.phases, a.phase[i]!) : tait
    a.rho[i] = densityFromPressure(own, own.referenceDensity * g * depth)
  }
}
