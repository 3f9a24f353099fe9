import { describe, expect, it } from 'vitest'
import { discretize } from '../../solver/discretizer/discretize.ts'
import { createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { createSolver, solverInternals } from '../../solver/sph/SphSolver.ts'
import { DEMO_DAM_BREAK, demoRunSetup } from './demoSetup.ts'

const FLUID = 0

describe('the seeded demo (issue 12 item 6)', () => {
  it('holds at least 20,000 fluid particles', () => {
    const particles = discretize(demoRunSetup())
    expect(particles.errors).toEqual([])
    expect(particles.fluidCount).toBe(40 * 38 * 14)
    expect(particles.fluidCount).toBeGreaterThanOrEqual(20_000)
  })

  it('sends the surge against the obstacle, up its face and past it before the run ends', async () => {
    // the demo's copy at 2 cm (every size is a whole number of 2 cm cells): 2,660 fluid particles
    const setup = demoRunSetup({ particleDiameter: 0.02 })
    const particles = discretize(setup)
    const solver = await createSolver(
      createRunSolverConfig({
        setup,
        particles,
        dataDir: '',
        simulationId: 1,
        runId: 1,
        threads: 1,
        signal: new AbortController().signal,
      }),
    )
    try {
      solver.runUntil(DEMO_DAM_BREAK.endTime)
      const internals = solverInternals(solver)
      const arrays = internals.arrays
      const [x0, y0] = DEMO_DAM_BREAK.obstacleMin
      const [sx, sy, sz] = DEMO_DAM_BREAK.obstacleSize
      let atFace = 0
      let top = 0
      let past = 0
      for (let i = 0; i < internals.count(); i++) {
        if (arrays.kind[i] !== FLUID) continue
        const x = arrays.posX[i]!
        const y = arrays.posY[i]!
        if (y > y0 && y < y0 + sy && x > x0 - 0.015 && x < x0 + sx) {
          atFace++
          top = Math.max(top, arrays.posZ[i]!)
        }
        if (x > x0 + sx) past++
      }
      // measured: 21 at the face, 0.073 m up the 0.06 m box, 16 past it
      expect(atFace).toBeGreaterThanOrEqual(10)
      expect(top).toBeGreaterThan(sz)
      expect(past).toBeGreaterThan(0)
    } finally {
      await solver.dispose()
    }
  }, 120_000)
})
