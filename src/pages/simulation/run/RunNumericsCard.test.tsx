import { cleanup, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RunNumerics } from '../../../../domain/runNumerics.ts'
import { renderSetup, stubApi } from '../setup/movements/testHarness.tsx'
import { RunNumericsCard } from './RunNumericsCard.tsx'

/** The seeded dam break's parameters as the solver stores them (solver/run numerics.ts). */
const NUMERICS: RunNumerics = {
  kernel: 'wendland',
  smoothingLengthFactor: 1.5,
  smoothingLength: 0.03,
  particleDiameter: 0.02,
  speedOfSound: 20,
  speedOfSoundRule: 'material',
  speedOfSoundCandidates: { material: 20, gravityWave: 19.809, initialSpeed: 0 },
  speedOfSoundCoefficient: 10,
  fluidHeight: 0.4,
  viscosity: 'artificial+laminar',
  artificialViscosityAlpha: 0.01,
  laminarViscosity: 1e-6,
  densityDiffusion: 'fourtakas',
  densityDiffusionDelta: 0.1,
  cfl: 0.2,
  acousticCfl: 0.4,
  integrator: 'rk4_dual_step',
  integrationScheme: 'dual_timestep_rk_4',
  fixedTimeStepS: null,
  shifting: 'lyu21',
  wall: 'riemann',
  densityThreshold: null,
  fluidParticles: 1000,
  wallParticles: 10686,
  threads: 2,
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('Monitor: numerical parameters of the run', () => {
  it('lists what the active run used, c0 with the rule that chose it', async () => {
    const calls = stubApi({
      'GET /api/simulations/4/jobs/9/numerics': [200, { runId: 9, numerics: NUMERICS }],
    })
    renderSetup(<RunNumericsCard simulation={{ id: 4, activeRunId: 9, state: 'completed' }} />)
    const card = await screen.findByRole('region', { name: 'Numerical parameters' })
    await waitFor(() => expect(within(card).getByText('Wendland C2')).toBeTruthy())
    const value = (term: string) =>
      within(card).getByText(term).closest('.facts__row')?.querySelector('dd')?.textContent
    expect(value('Smoothing length')).toBe('h = 1.5 dp = 0.03 m')
    expect(value('Speed of sound')).toBe(
      "c0 = 20 m/s: the material's speed of sound (10·√(g·H) 19.81 m/s)",
    )
    expect(value('Viscosity')).toBe('artificial α = 0.01, laminar ν = 1e-6 m²/s')
    expect(value('Density diffusion')).toBe('Fourtakas, δ = 0.1')
    expect(value('Time step')).toBe('variable, CFL 0.2 (acoustic 0.4)')
    expect(value('Integrator')).toBe('dual-step RK4 (dual_timestep_rk_4)')
    expect(value('Walls')).toBe('Riemann wall')
    expect(value('Particles')).toBe('1,000 fluid + 10,686 wall')
    expect(calls.map((c) => c.path)).toEqual(['/api/simulations/4/jobs/9/numerics'])
  })

  it('says why there is nothing to show before a run and for a run without parameters', async () => {
    stubApi({ 'GET /api/simulations/4/jobs/3/numerics': [200, { runId: 3, numerics: null }] })
    const first = renderSetup(
      <RunNumericsCard simulation={{ id: 4, activeRunId: null, state: 'not started' }} />,
    )
    expect(
      screen.getByText('The solver lists the parameters it uses here once the simulation runs.'),
    ).toBeTruthy()
    first.unmount()
    renderSetup(<RunNumericsCard simulation={{ id: 4, activeRunId: 3, state: 'failed' }} />)
    expect(await screen.findByText('This run did not record its parameters.')).toBeTruthy()
  })
})
