/**
 * A dam break in a closed box (lid on): mass and particle count exact, no fluid through a wall.
 */
import type { SolverConfig } from '../solver/sph/config.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import { buildTankParticles, WATER } from '../solver/sph/scenarios.ts'
import type { SolverSnapshot } from '../solver/sph/solverTypes.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { metric, settingsFor, withSolver } from './common.ts'

export interface ClosedBoxOptions extends CaseOverrides {
  dp: number
  endTimeS: number
  threads?: number
}

function totalFluidMass(snapshot: SolverSnapshot): { mass: number; count: number } {
  let mass = 0
  let count = 0
  for (let i = 0; i < snapshot.count; i++) {
    if (snapshot.kind[i] !== PARTICLE_KIND.fluid) continue
    mass += snapshot.mass[i]!
    count++
  }
  return { mass, count }
}

/**
 * A dam break in a closed box (lid on), run until the water has hit the far wall and the lid.
 * Mass and particle count must be exactly those of the start; no fluid particle centre may be
 * outside the box's inner faces at any sampled time (every 0.01 s).
 */
export async function runClosedBoxCase(options: ClosedBoxOptions): Promise<ValidationMetric[]> {
  const { dp } = options
  const box: [number, number, number] = [0.4, 0.1, 0.2]
  const config: SolverConfig = {
    settings: settingsFor(dp, options.settings),
    materials: [WATER],
    particles: buildTankParticles({
      dp,
      tank: box,
      fluidMin: [0, 0, 0],
      fluidMax: [0.15, 0.1, 0.18],
      closed: true,
      wallLayers: 3,
    }),
    options: {
      hydrostaticInitialisation: true,
      threads: options.threads ?? 1,
      ...options.solverOptions,
    },
  }
  return withSolver(config, async (solver) => {
    const start = totalFluidMass(await solver.snapshot())
    let outside = 0
    let worstDepth = 0
    let end = start
    for (let t = 0.01; t <= options.endTimeS + 1e-9; t += 0.01) {
      await solver.runUntil(t)
      const snapshot = await solver.snapshot()
      end = totalFluidMass(snapshot)
      for (let i = 0; i < snapshot.count; i++) {
        if (snapshot.kind[i] !== PARTICLE_KIND.fluid) continue
        for (let c = 0; c < 3; c++) {
          const p = snapshot.positions[3 * i + c]!
          const beyond = Math.max(-p, p - box[c]!)
          if (beyond > 0) outside++
          worstDepth = Math.max(worstDepth, beyond + dp / 2)
        }
      }
    }
    const note = `dp ${dp} m, ${start.count} fluid particles, t = ${options.endTimeS} s`
    return [
      metric('closed box', 'fluid mass change (kg)', end.mass - start.mass, 0, note),
      metric('closed box', 'fluid particle count change', end.count - start.count, 0),
      metric(
        'closed box',
        'fluid particle centres beyond a wall surface (sampled every 0.01 s)',
        outside,
        0,
        `closest approach: ${(0.5 - worstDepth / dp).toFixed(2)} dp from the wall surface`,
      ),
    ]
  })
}
