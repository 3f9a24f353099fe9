import { expect, it } from 'vitest'
import { checkRunStart, createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { PARTICLE_KIND } from '../../solver/sph/particles.ts'
import { rotatingFrameMessage } from '../../solver/sph/rotatingFrame.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'

/*
 * The rotating system (issue 16 item 5) through the product's own path: the settings stored
 * through the API, read by the run's setup loader and turned into the solver's input, which the
 * solver accepts and runs in the frame turning with the settings' velocity about their axis.
 */
describeEachDialect('the rotating system reaches the solver', (dialect) => {
  const t = useSetupApi(dialect, 'Rotating run')
  const { api, createSimulation, createPart } = t

  it('runs the fluid in the rotating frame and refuses a rotating system without an axis', async () => {
    const simulation = await createSimulation('Spinning bucket')
    const id = simulation.id
    const settings = await api('PUT', `/simulations/${id}/settings`, {
      gravity: [0, 0, 0],
      particleDiameter: 0.01,
      endTime: 0.01,
      outputTimeInterval: 0.001,
      rotatingSystem: true,
      rotationVelocity: 4,
      rotationAxis: [0, 0, 2],
      rotationCenter: [0, 0, 0],
    })
    expect(settings.status, settings.text).toBe(200)
    const fluid = await createPart(id, {
      name: 'Water',
      materialId: 0,
      component: { type: 'filling' },
      shape: { type: 'stl_cube', dimensions: [0.1, 0.1, 0.1] },
    })
    const wall = await createPart(id, {
      name: 'Floor',
      component: { type: 'rigid' },
      shape: { type: 'plane' },
    })
    const setup = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    // one fluid particle 0.2 m off the axis, at rest in the rotating frame, far from a floor
    const particles = {
      positions: Float64Array.from([0.2, 0, 0.5, 0, 0, -0.005, 0.01, 0, -0.005]),
      kinds: Uint8Array.from([0, 1, 1]),
      partIds: Int32Array.from([fluid.id, wall.id, wall.id]),
      materialIds: Int32Array.from([0, -1, -1]),
    }
    const options = { setup, particles, threads: 1 } as unknown as Parameters<
      typeof checkRunStart
    >[0]
    expect(checkRunStart(options)).toEqual([])
    const config = createRunSolverConfig(options)
    expect(config.settings).toMatchObject({
      rotatingSystem: true,
      rotationVelocity: 4,
      rotationAxis: [0, 0, 2],
    })
    const solver = await createSolver(config)
    try {
      const rotation = solver.describe().constants.rotation
      expect(rotation).toEqual({ omega: [0, 0, 4], center: [0, 0, 0] })
      expect(rotatingFrameMessage(rotation)).toBe(
        'Rotating system: positions and velocities are in the frame turning at 4 rad/s about the axis (0, 0, 1) through (0, 0, 0) m; walls are at rest in it.',
      )
      solver.runUntil(0.01)
      const s = solver.snapshot()
      const i = Array.from(s.kind).indexOf(PARTICLE_KIND.fluid)
      // centrifugal Ω²r = 3.2 m/s² outwards (x), then Coriolis −2Ω×v turns it backwards (−y)
      const [vx, vy, vz] = s.velocities.subarray(3 * i, 3 * i + 3)
      expect(vx).toBeCloseTo(3.2 * 0.01, 3)
      expect(vy!).toBeLessThan(0)
      expect(vz).toBe(0)
    } finally {
      await solver.dispose()
    }

    // the run refuses a rotating system without an axis, with the settings rule's words
    const broken = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    broken.settings.rotationAxis = [0, 0, 0]
    expect(checkRunStart({ ...options, setup: broken })).toContain(
      'Rotating system needs velocity, a non-zero axis and a centre.',
    )
  })
})
