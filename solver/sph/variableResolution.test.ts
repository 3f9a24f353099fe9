import { describe, expect, it } from 'vitest'
import { addCell, useSolvers } from './testScenarios.ts'
import type { SolverConfig } from './config.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { Solver } from './SphSolver.ts'
import { createSolver } from './SphSolver.ts'
import { buildTankParticles, supportedSettings, WATER } from './scenarios.ts'
import { unsupportedWithRefinement } from './variableResolution.ts'

const start = useSolvers()

const DP = 0.01

/**
 * A free block of fluid, 8 × 4 × 4 cells of DP, without walls or gravity: the cells with x ≥ 4
 * hold 8 particles of DP/2 each (one cell of DP split on a cube stencil), the others one of DP.
 * Velocities from a fixed pseudo-random sequence.
 */
function mixedBlock(): SolverConfig {
  const positions: number[] = []
  const spacings: number[] = []
  const velocities: number[] = []
  let seed = 12345
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648 - 0.5
  }
  const add = (x: number, y: number, z: number, spacing: number) => {
    positions.push(x, y, z)
    spacings.push(spacing)
    velocities.push(0.05 * random(), 0.05 * random(), 0.05 * random())
  }
  for (let i = 0; i < 8; i++)
    for (let j = 0; j < 4; j++)
      for (let k = 0; k < 4; k++) {
        addCell(add, DP, i, j, k, i >= 4)
      }
  const n = spacings.length
  return {
    settings: supportedSettings(DP, { gravity: [0, 0, 0] }),
    materials: [WATER],
    particles: {
      positions,
      kinds: new Array<number>(n).fill(PARTICLE_KIND.fluid),
      partIds: new Array<number>(n).fill(1),
      velocities,
      spacings,
    },
    options: { integrator: 'symplectic' },
  }
}

function momentum(solver: Solver): { p: number[]; scale: number; mass: number } {
  const s = solver.snapshot()
  const p = [0, 0, 0]
  let scale = 0
  let mass = 0
  for (let i = 0; i < s.count; i++) {
    mass += s.mass[i]!
    for (let c = 0; c < 3; c++) {
      p[c]! += s.mass[i]! * s.velocities[3 * i + c]!
      scale += s.mass[i]! * Math.abs(s.velocities[3 * i + c]!)
    }
  }
  return { p, scale, mass }
}

describe('variable resolution', () => {
  it('gives each particle the mass ρ dp_i³ and the smoothing length of its spacing', async () => {
    const solver = await start(mixedBlock())
    const s = solver.snapshot()
    const k = solver.describe().constants
    expect(k.variableResolution).toBe(true)
    expect(k.hMin).toBeCloseTo(k.h / 2, 12)
    const coarse = WATER.density * DP ** 3
    for (let i = 0; i < s.count; i++) {
      const fine = s.positions[3 * s.particleIds[i]!]! > 4 * DP
      expect(s.mass[i]).toBeCloseTo(fine ? coarse / 8 : coarse, 12)
    }
    // a coarse cell and its 8 children hold the same mass
    expect(momentum(solver).mass).toBeCloseTo(coarse * 128, 12)
  })

  it('conserves momentum and mass between particles of different spacing', async () => {
    // the pair terms (pressure, artificial viscosity, continuity) to round-off
    const config = mixedBlock()
    const solver = await start({
      ...config,
      options: { ...config.options, viscosity: 'artificial' },
    })
    const before = momentum(solver)
    for (let step = 0; step < 20; step++) solver.step()
    const after = momentum(solver)
    expect(solver.snapshot().count).toBe(64 + 64 * 8)
    expect(after.mass).toBe(before.mass)
    for (let c = 0; c < 3; c++)
      expect(Math.abs(after.p[c]! - before.p[c]!)).toBeLessThan(1e-12 * before.scale)
    // the particles did interact: the velocities changed
    expect(Math.abs(after.scale - before.scale)).toBeGreaterThan(1e-6 * before.scale)
  })

  it('keeps momentum with laminar viscosity to the interface correction, not a pair term', async () => {
    const solver = await start(mixedBlock())
    const before = momentum(solver)
    for (let step = 0; step < 20; step++) solver.step()
    const after = momentum(solver)
    // random velocities, ν of water: 4.3e-6 of Σ m|v| measured
    for (let c = 0; c < 3; c++)
      expect(Math.abs(after.p[c]! - before.p[c]!)).toBeLessThan(1e-5 * before.scale)
  })

  it('makes the laminar sum a Laplacian across a level interface: a linear shear feels nothing', async () => {
    // a block 10 × 4 × 10 cells of DP, periodic along y, the cells below z = 5 DP split in 8:
    // v_y = S z is linear, so ν∇²v = 0; the plain pair sum gives −M·∇v ≠ 0 next to the interface
    const positions: number[] = []
    const spacings: number[] = []
    const velocities: number[] = []
    const S = 1
    const add = (x: number, y: number, z: number, spacing: number) => {
      positions.push(x, y, z)
      spacings.push(spacing)
      velocities.push(0, S * z, 0)
    }
    for (let i = 0; i < 10; i++)
      for (let j = 0; j < 4; j++)
        for (let k = 0; k < 10; k++) {
          addCell(add, DP, i, j, k, k < 5)
        }
    const n = spacings.length
    const dt = 1e-6
    const solver = await start({
      settings: supportedSettings(DP, { gravity: [0, 0, 0], dynamicTimeStep: false }),
      materials: [WATER],
      particles: {
        positions,
        kinds: new Array<number>(n).fill(PARTICLE_KIND.fluid),
        partIds: new Array<number>(n).fill(1),
        velocities,
        spacings,
      },
      options: {
        integrator: 'symplectic',
        viscosity: 'laminar',
        fixedTimeStepS: dt,
        periodicY: { min: 0, max: 4 * DP },
      },
    })
    const support = solver.describe().constants.support
    solver.step()
    const s = solver.snapshot()
    let largest = 0
    let seen = 0
    for (let i = 0; i < s.count; i++) {
      const id = s.particleIds[i]!
      const x = positions[3 * id]!
      const z = positions[3 * id + 2]!
      // full support inside the block, within a support of the interface
      if (Math.min(x, 10 * DP - x, z, 10 * DP - z) <= support) continue
      if (Math.abs(z - 5 * DP) > support) continue
      seen++
      const a = (s.velocities[3 * i + 1]! - velocities[3 * id + 1]!) / dt
      largest = Math.max(largest, Math.abs(a))
    }
    expect(seen).toBeGreaterThan(100)
    // the plain pair sum gives 0.38 ν S/DP here; the corrected one 2e-5 ν S/DP (rounding of Δv/dt)
    expect(largest).toBeLessThan(1e-3 * ((WATER.kinematicViscosity * S) / DP))
  })

  it('computes what the uniform pass does where all neighbours share one spacing', async () => {
    // a dam break, and the same with one wall particle of half the spacing far below the tank
    // (it sees no fluid): the variable passes run, and must give the uniform passes' numbers
    const scenario = {
      dp: 0.025,
      tank: [0.4, 0.1, 0.2] as [number, number, number],
      fluidMin: [0, 0, 0] as [number, number, number],
      fluidMax: [0.1, 0.1, 0.15] as [number, number, number],
      closed: false,
      wallLayers: 3,
    }
    const config = (variable: boolean): SolverConfig => {
      const particles = buildTankParticles(scenario)
      const n = particles.kinds.length
      const positions = [...Array.from(particles.positions), 0.2, 0.05, -0.5]
      return {
        settings: supportedSettings(scenario.dp, { dynamicTimeStep: false, shifting: 'sun17' }),
        materials: [WATER],
        particles: {
          positions,
          kinds: [...Array.from(particles.kinds), PARTICLE_KIND.wall],
          partIds: [...Array.from(particles.partIds), 2],
          spacings: variable
            ? [...new Array<number>(n).fill(scenario.dp), scenario.dp / 2]
            : undefined,
        },
        options: { integrator: 'symplectic', fixedTimeStepS: 2e-4 },
      }
    }
    const uniform = await start(config(false))
    const variable = await start(config(true))
    expect(variable.describe().constants.variableResolution).toBe(true)
    for (let step = 0; step < 30; step++) {
      uniform.step()
      variable.step()
    }
    const a = uniform.snapshot()
    const b = variable.snapshot()
    let largest = 0
    let moved = 0
    for (let i = 0; i < 3 * a.count; i++) {
      largest = Math.max(largest, Math.abs(a.positions[i]! - b.positions[i]!))
      moved = Math.max(moved, Math.abs(a.velocities[i]!))
    }
    expect(moved).toBeGreaterThan(0.01)
    // rounding only (h_ij = h, w_ij = 1, s = 1 exactly; 2δc0·h taken apart in another order)
    expect(largest).toBeLessThan(1e-12)
  })

  it('names what it does not run with refinement', () => {
    expect(unsupportedWithRefinement({ multiphase: true, thermodynamics: true })).toEqual([
      'multiphase with refinement',
      'thermodynamics with refinement',
    ])
    expect(
      unsupportedWithRefinement(
        { multiphase: false, thermodynamics: false },
        { boundary: 'dynamic' },
        ['shear_rate'],
      ),
    ).toEqual([
      'a temperature or shear-rate viscosity with refinement',
      'dynamic boundary particles with refinement',
    ])
  })

  it('refuses a spacing above the particle diameter, and multiphase with refinement', async () => {
    const block = mixedBlock()
    const spacings = Array.from(block.particles.spacings!)
    spacings[0] = 2 * DP
    await expect(
      createSolver({ ...block, particles: { ...block.particles, spacings } }),
    ).rejects.toThrow(/spacings must lie between 0 and the particle diameter/)
    await expect(
      createSolver({ ...block, settings: { ...block.settings, thermodynamics: true } }),
    ).rejects.toThrow('Not supported with refinement: thermodynamics with refinement.')
  })
})
