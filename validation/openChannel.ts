/**
 * Open boundaries (solver/sph/openBoundary.ts) in a channel: a 2D slab periodic along y between a
 * free-slip floor and lid (height H), an inlet at x = 0 imposing U along +x and an outlet at
 * x = L = 2H at p = 0, without gravity. The fluid starts at rest; the inlet's push travels down
 * the channel at the speed of sound and the flow settles to the analytic steady state, a plug
 * u = U, p = 0 (free-slip walls carry no shear). Measured over the window t ∈ [t1, t2] after
 * t1 = 4 L/c0 + L/U (the start-up wave gone, the first fluid flushed out):
 * - the inflow mass rate: the mass of the buffer particles turned fluid at the inlet, per second,
 *   against ρ0 U A (A = H × slab depth);
 * - the mass flow rate through the plane x = L/2: the mass of the fluid particles crossing it
 *   (signed), from snapshots a quarter diameter of travel apart, per second, against ρ0 U A;
 * - the profile: the fluid's mean u_x in bins of dp across the height within H/4 of x = L/2,
 *   averaged over the window, as max |u − U| / U;
 * - the mass balance (reported): the fluid's mass now minus at the start, against inflow minus
 *   outflow counted by the boundaries (exact up to rounding).
 */
import type { SolverMaterial } from '../solver/sph/config.ts'
import { buildOpenChannel, CHANNEL_FLUID_ID } from '../solver/sph/openChannel.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import type { SolverSnapshot } from '../solver/sph/solverTypes.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { fitSlope, metric, reported, withSolver } from './common.ts'

const CASE = 'open channel (inlet U, outlet p = 0)'

export interface OpenChannelCaseOptions extends CaseOverrides {
  /** Particles across the channel's height. */
  particlesAcross: number
  threads?: number
  /** Largest relative error that passes (the 2 %). */
  tolerance?: number
}

const HEIGHT = 0.1
const SPEED = 0.05
/** Water with c0 = 10 U (Mach 0.1), ν of water (the walls are free-slip: no shear). */
const MATERIAL: SolverMaterial = {
  id: 1,
  density: 1000,
  gamma: 7,
  speedOfSound: 10 * SPEED,
  kinematicViscosity: 1e-6,
}

function fluidMass(snapshot: SolverSnapshot): number {
  let mass = 0
  for (let i = 0; i < snapshot.count; i++)
    if (snapshot.kind[i] === PARTICLE_KIND.fluid) mass += snapshot.mass[i]!
  return mass
}

/** Runs the channel at one resolution; see the module comment for the metrics. */
export async function runOpenChannelCase(
  options: OpenChannelCaseOptions,
): Promise<ValidationMetric[]> {
  const n = options.particlesAcross
  const tolerance = options.tolerance ?? 0.02
  const lengthInHeights = 2
  const length = lengthInHeights * HEIGHT
  const depthParticles = 4
  const dp = HEIGHT / n
  // the channel's slowest acoustic mode (velocity held at one end, pressure at the other)
  const period = (4 * length) / MATERIAL.speedOfSound
  const ramp = 2 * period
  const t1 = ramp + period
  const t2 = t1 + 2 * period
  const config = buildOpenChannel(
    {
      particlesAcross: n,
      height: HEIGHT,
      lengthInHeights,
      depthParticles,
      speed: SPEED,
      initialSpeed: 0,
      inletRampS: ramp,
      outletPressure: 0,
      walls: 'slip',
      material: MATERIAL,
    },
    { endTime: t2, ...options.settings },
    { threads: options.threads ?? 1, ...options.solverOptions },
  )
  const area = HEIGHT * depthParticles * dp
  const expected = MATERIAL.density * SPEED * area
  const label = `, ${n} across`
  return withSolver(config, async (solver) => {
    const start = await solver.snapshot()
    const startMass = fluidMass(start)
    await solver.runUntil(t1)
    // cumulative masses over time: their least-squares slopes are the rates (a plug crosses
    // the plane a lattice layer at a time; a slope does not see that step)
    const inflow: [number, number][] = []
    const through: [number, number][] = []
    const plane = 0.5 * length
    const sampleS = (0.25 * dp) / SPEED
    const bins = new Float64Array(n)
    const binCounts = new Float64Array(n)
    let crossed = 0
    let previous = new Map<number, number>()
    const remember = (snapshot: SolverSnapshot) => {
      const next = new Map<number, number>()
      for (let i = 0; i < snapshot.count; i++) {
        if (snapshot.kind[i] !== PARTICLE_KIND.fluid) continue
        const x = snapshot.positions[3 * i]!
        const id = snapshot.particleIds[i]!
        next.set(id, x)
        const before = previous.get(id)
        // a recycled id (a particle gone at the outlet, new at the inlet) jumps the channel
        if (before !== undefined && Math.abs(x - before) < 0.25 * length) {
          if (before < plane && x >= plane) crossed += snapshot.mass[i]!
          else if (before >= plane && x < plane) crossed -= snapshot.mass[i]!
        }
        if (Math.abs(x - plane) < 0.25 * HEIGHT) {
          const b = Math.min(n - 1, Math.max(0, Math.floor(snapshot.positions[3 * i + 2]! / dp)))
          bins[b] = bins[b]! + snapshot.velocities[3 * i]!
          binCounts[b] = binCounts[b]! + 1
        }
      }
      previous = next
    }
    remember(await solver.snapshot())
    crossed = 0
    bins.fill(0)
    binCounts.fill(0)
    let t = t1
    while (t < t2 - 1e-12) {
      t = Math.min(t2, t + sampleS)
      const step = await solver.runUntil(t)
      remember(await solver.snapshot())
      inflow.push([step.timeS, step.openBoundary!.inflowMass])
      through.push([step.timeS, crossed])
    }
    const report = solver.report().openBoundary!
    const window = solver.report().timeS - t1
    const inflowRate = fitSlope(inflow, t1, t2)
    const planeRate = fitSlope(through, t1, t2)
    let profile = 0
    for (let b = 0; b < n; b++)
      profile = Math.max(profile, Math.abs(bins[b]! / binCounts[b]! - SPEED) / SPEED)
    const end = await solver.snapshot()
    const balance =
      (fluidMass(end) - startMass - (report.inflowMass - report.outflowMass)) / startMass
    return [
      metric(CASE, `inflow mass rate / (ρ0 U A) − 1${label}`, inflowRate / expected - 1, tolerance),
      metric(
        CASE,
        `mass flow rate through x = L/2 / (ρ0 U A) − 1${label}`,
        planeRate / expected - 1,
        tolerance,
      ),
      metric(CASE, `max |u − U| / U across x = L/2${label}`, profile, tolerance),
      reported(
        CASE,
        `fluid mass − (start + in − out), of the start${label}`,
        balance,
        `fluid part ${CHANNEL_FLUID_ID}, window ${window.toFixed(2)} s from ${t1.toFixed(2)} s`,
      ),
    ]
  })
}
