import { expect, it } from 'vitest'
import { checkRunStart } from '../../solver/run/runConfig.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { openChannelRun } from './openChannelRun.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'

/*
 * Open boundaries (issue 16 item 6) through the product's own path: an inlet and an outlet made
 * through the API beside a block of water, read by the run's setup loader, discretized into
 * buffers and run by the solver, which brings water in at the inlet's speed.
 */
describeEachDialect('open boundaries reach the solver', (dialect) => {
  const t = useSetupApi(dialect, 'Open boundary run')

  it('runs an inlet and an outlet and refuses an inlet with pressure', async () => {
    const { id, inlet, options, config } = await openChannelRun(t)
    const solver = await createSolver(config)
    try {
      // 0.12 s at 0.1 m/s: the inlet's first layer (dp/2 behind the plane) entered
      const report = solver.runUntil(0.12)
      expect(report.openBoundary!.inflowMass).toBeGreaterThan(0)
      const s = solver.snapshot()
      const inletBuffer = s.partId.filter((p, i) => p === inlet.id && s.kind[i] === 2).length
      expect(inletBuffer).toBe(4 * 25)
    } finally {
      await solver.dispose()
    }

    // an inlet with pressure is refused with the spec's words
    const broken = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    const part = broken.parts.find((p) => p.id === inlet.id)!
    if (part.component.type === 'openboundary') part.component.ioType = 'riemann_pressure'
    expect(checkRunStart({ ...options, setup: broken })).toContain(
      'Unsupported parts: open boundary part "Inlet" (An inlet with pressure is not allowed.).',
    )
  })
})
