import { describe, expect, it } from 'vitest'
import { useSolvers } from './testScenarios.ts'
import type { SolverConfig } from './config.ts'
import type { SolverSnapshot } from './SphSolver.ts'
import { createMovementMotion } from './motion.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { TankScenario } from './scenarios.ts'
import { buildTankParticles, supportedSettings, TANK_PART_ID, WATER } from './scenarios.ts'

const start = useSolvers()

function tankConfig(scenario: TankScenario, options: SolverConfig['options'] = {}): SolverConfig {
  return {
    settings: supportedSettings(scenario.dp),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    options: { hydrostaticInitialisation: true, integrator: 'symplectic', ...options },
  }
}

/** A small dam break: a 0.1 × 0.1 × 0.15 column in a 0.4 × 0.1 × 0.2 tank (dp 0.025). */
const smallDamBreak = (closed = false): TankScenario => ({
  dp: 0.025,
  tank: [0.4, 0.1, 0.2],
  fluidMin: [0, 0, 0],
  fluidMax: [0.1, 0.1, 0.15],
  closed,
  wallLayers: 3,
})

function fluidIndices(snapshot: SolverSnapshot): number[] {
  const result: number[] = []
  for (let i = 0; i < snapshot.count; i++)
    if (snapshot.kind[i] === PARTICLE_KIND.fluid) result.push(i)
  return result
}

describe('moving and slip walls', () => {
  it('moves wall particles with their part and pushes the fluid with a piston', async () => {
    const scenario: TankScenario = {
      dp: 0.025,
      tank: [0.3, 0.1, 0.15],
      fluidMin: [0, 0, 0],
      fluidMax: [0.3, 0.1, 0.1],
      closed: false,
      wallLayers: 3,
    }
    const particles = buildTankParticles(scenario)
    // the wall layers at x < 0 become a piston part moving in +x at 0.2 m/s
    const pistonId = 9
    const partIds = Int32Array.from(particles.partIds)
    for (let i = 0; i < partIds.length; i++) {
      if (particles.kinds[i] === PARTICLE_KIND.wall && particles.positions[3 * i]! < 0)
        partIds[i] = pistonId
    }
    const motion = createMovementMotion(
      new Map([
        [
          pistonId,
          [
            {
              type: 'translatory' as const,
              startS: 0,
              endS: null,
              velocity: 0.2,
              acceleration: 0,
              direction: [1, 0, 0] as [number, number, number],
            },
          ],
        ],
      ]),
    )
    const solver = await start({
      ...tankConfig(scenario),
      particles: { ...particles, partIds },
      wallMotion: motion,
    })
    const before = solver.snapshot()
    solver.runUntil(0.1)
    const after = solver.snapshot()
    let pistonFront = -Infinity
    for (let i = 0; i < after.count; i++) {
      if (after.partId[i] === pistonId) {
        expect(after.positions[3 * i]).toBeCloseTo(before.positions[3 * i]! + 0.02, 12)
        expect(after.velocities[3 * i]).toBeCloseTo(0.2, 6)
        pistonFront = Math.max(pistonFront, after.positions[3 * i]!)
      }
      if (after.partId[i] === TANK_PART_ID)
        expect(after.positions[3 * i]).toBe(before.positions[3 * i])
    }
    let pushed = 0
    for (const i of fluidIndices(after)) {
      expect(after.positions[3 * i]).toBeGreaterThan(pistonFront)
      if (after.positions[3 * i]! < 0.05) pushed += after.velocities[3 * i]!
    }
    expect(pushed).toBeGreaterThan(0)
  })

  it('gives a virtually moving wall a velocity but keeps its geometry in place', async () => {
    const scenario = smallDamBreak(true)
    const motion = createMovementMotion(
      new Map([
        [
          TANK_PART_ID,
          [
            {
              type: 'translatory' as const,
              startS: 0,
              endS: null,
              velocity: 0.3,
              acceleration: 0,
              direction: [1, 0, 0] as [number, number, number],
            },
          ],
        ],
      ]),
    )
    const solver = await start({
      ...tankConfig(scenario),
      wallMotion: (partId, timeS) => {
        const pose = motion(partId, timeS)
        return pose && { translation: [0, 0, 0], velocityPose: pose }
      },
    })
    const before = solver.snapshot()
    solver.runUntil(0.01)
    const after = solver.snapshot()
    for (let i = 0; i < after.count; i++) {
      if (after.kind[i] !== PARTICLE_KIND.wall) continue
      expect(after.positions[3 * i]).toBe(before.positions[3 * i])
      expect(after.velocities[3 * i]).toBeCloseTo(0.3, 9)
    }
  })

  it('slows fluid along a no-slip wall more than along a slip wall', async () => {
    const scenario: TankScenario = {
      dp: 0.025,
      tank: [0.3, 0.1, 0.15],
      fluidMin: [0, 0, 0],
      fluidMax: [0.3, 0.1, 0.06],
      closed: false,
      wallLayers: 3,
    }
    const particles = buildTankParticles(scenario)
    const velocities = new Float64Array(particles.kinds.length * 3)
    for (let i = 0; i < particles.kinds.length; i++)
      if (particles.kinds[i] === PARTICLE_KIND.fluid) velocities[3 * i + 1] = 0.5
    const meanSpeed = async (wallCondition: 'slip' | 'no_slip') => {
      const solver = await start({
        ...tankConfig(scenario),
        materials: [{ ...WATER, kinematicViscosity: 0.02 }],
        particles: { ...particles, velocities },
        parts: [{ id: TANK_PART_ID, wallCondition }],
      })
      solver.runUntil(0.03)
      const s = solver.snapshot()
      const fluid = fluidIndices(s)
      return fluid.reduce((sum, i) => sum + s.velocities[3 * i + 1]!, 0) / fluid.length
    }
    const slip = await meanSpeed('slip')
    const noSlip = await meanSpeed('no_slip')
    expect(slip).toBeGreaterThan(noSlip + 0.01)
  })
})
