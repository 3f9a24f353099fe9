import { expect, it } from 'vitest'
import { discretize } from '../../solver/discretizer/discretize.ts'
import { checkRunStart, createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { PARTICLE_KIND } from '../../solver/sph/particles.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'

/*
 * Refinement zones (issue 16 item 9) through the product's own path: a fluid block and a floor
 * discretized (solver/discretizer), a refinement zone stored through the API around the block's
 * lower half, read by the run's setup loader and turned into the solver's input (solver/run
 * createRunSolverConfig), which splits the particles in the zone; the solver runs them, more and
 * lighter, with the mass of the block unchanged.
 */
describeEachDialect('refinement zones reach the solver', (dialect) => {
  const t = useSetupApi(dialect, 'Refinement run')
  const { api, createSimulation, createPart } = t

  it('splits the particles inside a zone into lighter ones that the solver runs', async () => {
    const simulation = await createSimulation('Refined block')
    const id = simulation.id
    const dp = 0.01
    const settings = await api('PUT', `/simulations/${id}/settings`, {
      particleDiameter: dp,
      endTime: 0.01,
      outputTimeInterval: 0.001,
    })
    expect(settings.status, settings.text).toBe(200)
    await createPart(id, {
      name: 'Water',
      materialId: 0,
      component: { type: 'filling' },
      shape: { type: 'stl_cube', dimensions: [0.06, 0.06, 0.06] },
    })
    await createPart(id, { name: 'Floor', component: { type: 'rigid' }, shape: { type: 'plane' } })
    const particles = discretize(
      await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id),
    )
    expect(particles.errors).toEqual([])
    // the block's extent, and a zone around its lower half (the floor under it included)
    const lo = [Infinity, Infinity, Infinity]
    const hi = [-Infinity, -Infinity, -Infinity]
    for (let i = 0; i < particles.count; i++) {
      if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
      for (let c = 0; c < 3; c++) {
        lo[c] = Math.min(lo[c]!, particles.positions[3 * i + c]!)
        hi[c] = Math.max(hi[c]!, particles.positions[3 * i + c]!)
      }
    }
    // between two layers' centres (a quarter of a spacing off any of them)
    const mid = 0.5 * (lo[2]! + hi[2]!) + dp / 4
    const mesh = await api('POST', `/simulations/${id}/meshes`, {
      kind: 'cube',
      center: [0.5 * (lo[0]! + hi[0]!), 0.5 * (lo[1]! + hi[1]!), mid - 0.05],
      dimensions: [hi[0]! - lo[0]! + dp, hi[1]! - lo[1]! + dp, 0.1],
    })
    expect(mesh.status, mesh.text).toBe(201)
    const zone = await api('POST', `/simulations/${id}/refinements`, {
      name: 'Lower half',
      meshId: (mesh.body as { id: number }).id,
    })
    expect(zone.status, zone.text).toBe(201)
    expect(zone.body).toMatchObject({ level: 0.3 })

    const setup = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    expect(setup.refinements?.map((r) => r.name)).toEqual(['Lower half'])
    const options = { setup, particles, threads: 1 } as unknown as Parameters<
      typeof checkRunStart
    >[0]
    expect(checkRunStart(options)).toEqual([])
    const config = createRunSolverConfig(options)
    const fluid = (kinds: ArrayLike<number>) =>
      Array.from(kinds).flatMap((k, i) => (k === PARTICLE_KIND.fluid ? [i] : []))
    const coarseBelow = fluid(particles.kinds).filter(
      (i) => particles.positions[3 * i + 2]! < mid,
    ).length
    const coarseAbove = fluid(particles.kinds).length - coarseBelow
    expect(coarseBelow).toBeGreaterThan(0)
    expect(coarseAbove).toBeGreaterThan(0)
    // level 0.3: spacing dp/3, 27 particles for each one in the zone, none elsewhere
    const spacings = config.particles.spacings!
    const refined = fluid(config.particles.kinds).filter((i) => spacings[i]! < dp)
    expect(refined.length).toBe(27 * coarseBelow)
    expect(refined.every((i) => Math.abs(spacings[i]! - dp / 3) < 1e-15)).toBe(true)
    expect(fluid(config.particles.kinds).length - refined.length).toBe(coarseAbove)

    const solver = await createSolver(config)
    try {
      expect(solver.describe().constants.variableResolution).toBe(true)
      const start = solver.snapshot()
      for (let step = 0; step < 5; step++) solver.step()
      const s = solver.snapshot()
      expect(s.count).toBe(start.count)
      let massBelow = 0
      let massAbove = 0
      let lightest = Infinity
      let heaviest = 0
      for (let i = 0; i < s.count; i++) {
        if (s.kind[i] !== PARTICLE_KIND.fluid) continue
        // the snapshot is by particle id, the index in the solver's input
        if (spacings[i]! < dp) {
          massBelow += s.mass[i]!
          lightest = Math.min(lightest, s.mass[i]!)
        } else {
          massAbove += s.mass[i]!
          heaviest = Math.max(heaviest, s.mass[i]!)
        }
        expect(Number.isFinite(s.positions[3 * i + 2]!)).toBe(true)
      }
      // lighter particles in the zone, 1/27 of a coarse one's mass, the same mass per volume
      expect(lightest).toBeLessThan(heaviest / 20)
      expect(massBelow / (27 * coarseBelow)).toBeCloseTo(massAbove / coarseAbove / 27, 0)
      expect(massBelow + massAbove).toBeGreaterThan(0)
    } finally {
      await solver.dispose()
    }
  })
})
