/**
 * For the wall tests (wallFunction.test.ts, freeSlipViscosity.test.ts): a layer 3 cm thick sliding
 * at 1 m/s along the floor of a tank, in a slab periodic along y, for 0.05 s.
 */
import type { SolverConfig, SolverOptions } from './config.ts'
import { PARTICLE_KIND } from './particles.ts'
import {
  buildTankParticles,
  supportedSettings,
  TANK_PART_ID,
  tankPeriodicY,
  WATER,
  type TankScenario,
} from './scenarios.ts'
import { createSolver } from './SphSolver.ts'

/** The share of the layer's mean velocity lost in 0.05 s at spacing dp. */
export async function slidingLayerLoss(
  dp: number,
  wallCondition: 'slip' | 'no_slip',
  options: Partial<SolverOptions>,
): Promise<number> {
  const scenario: TankScenario = {
    dp,
    tank: [0.3, 3 * dp, 0.06],
    fluidMin: [0.05, 0, 0],
    fluidMax: [0.17, 3 * dp, 0.03],
    closed: false,
    wallLayers: 3,
    periodicY: true,
  }
  const particles = buildTankParticles(scenario)
  const velocities = new Float64Array(particles.positions.length)
  for (let i = 0; i < particles.kinds.length; i++)
    if (particles.kinds[i] === PARTICLE_KIND.fluid) velocities[3 * i] = 1
  const config: SolverConfig = {
    settings: supportedSettings(dp, { noRiemannWall: false }),
    materials: [WATER],
    particles: { ...particles, velocities },
    parts: [{ id: TANK_PART_ID, wallCondition }],
    options: { hydrostaticInitialisation: true, periodicY: tankPeriodicY(scenario), ...options },
  }
  const solver = await createSolver(config)
  try {
    solver.runUntil(0.05)
    const s = solver.snapshot()
    let sum = 0
    let n = 0
    for (let i = 0; i < s.count; i++) {
      if (s.kind[i] !== PARTICLE_KIND.fluid) continue
      n++
      sum += s.velocities[3 * i]!
    }
    return 1 - sum / n
  } finally {
    await solver.dispose()
  }
}
