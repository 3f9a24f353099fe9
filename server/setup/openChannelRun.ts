/**
 * The channel of the open boundary runs through the product's path (openBoundaryRun.test.ts on
 * the CPU, openBoundaryRun.gpu.test.ts on both backends): a block of water 0.1 × 0.05 × 0.05 m
 * without gravity between an inlet at x = 0 (0.1 m/s) and an outlet at x = 0.1 (pressure 0),
 * made through the API, read by the run's setup loader and discretized (dp 1 cm).
 */
import { expect } from 'vitest'
import { discretize } from '../../solver/discretizer/discretize.ts'
import { checkRunStart, createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import type { SetupApiContext } from './setupApiTesting.ts'

/** The channel made and checked (no discretizer error, the run start accepted): its run. */
export async function openChannelRun(t: SetupApiContext) {
  const { api, createSimulation, createPart } = t
  const simulation = await createSimulation('Channel')
  const id = simulation.id
  const settings = await api('PUT', `/simulations/${id}/settings`, {
    gravity: [0, 0, 0],
    particleDiameter: 0.01,
    endTime: 0.2,
    outputTimeInterval: 0.01,
  })
  expect(settings.status, settings.text).toBe(200)
  await createPart(id, {
    name: 'Water',
    materialId: 0,
    component: { type: 'filling' },
    shape: { type: 'stl_cube', dimensions: [0.1, 0.05, 0.05], translation: [0.05, 0.025, 0.025] },
  })
  // planes (normal +z) turned about y to face along x, at x = 0 and x = 0.1
  const face = (x: number) => ({
    type: 'plane',
    scale: [0.05, 0.05, 1],
    rotation: [0, 90, 0],
    translation: [x, 0.025, 0.025],
  })
  const inlet = await createPart(id, {
    name: 'Inlet',
    materialId: 0,
    component: {
      type: 'openboundary',
      ioDirection: 'inflow',
      ioType: 'riemann_velocity',
      ioVelocity: 0.1,
    },
    shape: face(0),
  })
  await createPart(id, {
    name: 'Outlet',
    materialId: 0,
    component: {
      type: 'openboundary',
      ioDirection: 'outflow',
      ioType: 'riemann_pressure',
      ioPressure: 0,
    },
    shape: face(0.1),
  })
  const setup = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
  const particles = discretize(setup)
  expect(particles.errors).toEqual([])
  const options = { setup, particles, threads: 1 } as unknown as Parameters<typeof checkRunStart>[0]
  expect(checkRunStart(options)).toEqual([])
  const config = createRunSolverConfig(options)
  expect(config.openBoundaries?.map((zone) => zone.direction)).toEqual(['inflow', 'outflow'])
  return { id, inlet, options, config }
}
