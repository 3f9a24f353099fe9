/**
 * Validation cases of the SPH solver, each at a chosen resolution: the fine versions run in
 * `npm run validate` (scripts/validate.ts), coarse ones in vitest (solver/run/validation.test.ts).
 * Every case runs the default settings of a new simulation (lyu21 shifting, dual-step RK4,
 * Riemann wall) with water whose speed of sound is left to the solver (10√(gH)).
 */
import { defaultSettings, type SimulationSettings } from '../domain/settings.ts'
import type { SolverConfig } from '../solver/sph/config.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import { buildTankParticles, TANK_PART_ID, WATER } from '../solver/sph/scenarios.ts'
import type { Solver, SolverSnapshot } from '../solver/sph/SphSolver.ts'
import { createSolver } from '../solver/sph/SphSolver.ts'

const GRAVITY = 9.81

/** One checked figure of a case. */
export interface ValidationMetric {
  case: string
  metric: string
  value: number
  tolerance: number
  ok: boolean
  /** Reported beside the checked value (not checked). */
  note?: string
}

function metric(
  caseName: string,
  name: string,
  value: number,
  tolerance: number,
  note?: string,
): ValidationMetric {
  return {
    case: caseName,
    metric: name,
    value,
    tolerance,
    ok: Number.isFinite(value) && Math.abs(value) <= tolerance,
    ...(note === undefined ? {} : { note }),
  }
}

function settingsFor(dp: number, overrides: Partial<SimulationSettings> = {}): SimulationSettings {
  return { ...defaultSettings(), particleDiameter: dp, ...overrides }
}

async function withSolver<T>(config: SolverConfig, body: (solver: Solver) => T | Promise<T>) {
  const solver = await createSolver(config)
  try {
    return await body(solver)
  } finally {
    await solver.dispose()
  }
}

// ── Hydrostatic tank ─────────────────────────────────────────────────────────────────────────────

export interface HydrostaticOptions {
  /** Particle diameter, m. */
  dp: number
  /** Water depth, m. */
  depth: number
  /**
   * Simulated time, s; pressures are averaged over its second half (10 samples: several periods
   * of the column's acoustic oscillation 4H/c0, about 0.06 s for 0.2 m).
   */
  endTimeS: number
  threads?: number
  /** Tolerances: relative pressure error, surface offset in dp. */
  pressureTolerance?: number
  surfaceTolerance?: number
  /** Overrides of the default settings and solver options (for studies). */
  settings?: Partial<SimulationSettings>
  solverOptions?: Partial<SolverConfig['options']>
}

/**
 * A square tank of water at rest (started with hydrostatic pressure). Checks the pressure on the
 * centre line (the particles within dp of it, averaged per layer and over the second half of the
 * run) deeper than 2h against ρ0 g (surface − z), and the free surface (top particle + dp/2)
 * against the fill height.
 */
export async function runHydrostaticCase(options: HydrostaticOptions): Promise<{
  metrics: ValidationMetric[]
  profile: { depthM: number; pressurePa: number; expectedPa: number }[]
}> {
  const { dp, depth, endTimeS } = options
  const width = 10 * dp
  const scenario = {
    dp,
    tank: [width, width, depth + 6 * dp] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [width, width, depth] as [number, number, number],
    closed: false,
    wallLayers: 3,
  }
  const config: SolverConfig = {
    settings: settingsFor(dp, options.settings),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    options: {
      hydrostaticInitialisation: true,
      threads: options.threads ?? 1,
      ...options.solverOptions,
    },
  }
  return withSolver(config, (solver) => {
    const h = solver.describe().constants.h
    const rho0 = WATER.density
    const samples = 10
    // centre-line particles binned by layer: mean pressure and height over particles and samples
    const bins = new Map<number, { pressure: number; z: number; count: number }>()
    let surface = 0
    for (let k = 0; k < samples; k++) {
      solver.runUntil(endTimeS * (0.5 + (0.5 * (k + 1)) / samples))
      const snapshot = solver.snapshot()
      let top = -Infinity
      for (let i = 0; i < snapshot.count; i++)
        if (snapshot.kind[i] === PARTICLE_KIND.fluid)
          top = Math.max(top, snapshot.positions[3 * i + 2]!)
      surface += (top + dp / 2) / samples
      for (let i = 0; i < snapshot.count; i++) {
        if (snapshot.kind[i] !== PARTICLE_KIND.fluid) continue
        const x = snapshot.positions[3 * i]!
        const y = snapshot.positions[3 * i + 1]!
        if (Math.abs(x - width / 2) > dp || Math.abs(y - width / 2) > dp) continue
        const z = snapshot.positions[3 * i + 2]!
        const layer = Math.floor(z / dp)
        const bin = bins.get(layer) ?? { pressure: 0, z: 0, count: 0 }
        bin.pressure += snapshot.pressure[i]!
        bin.z += z
        bin.count++
        bins.set(layer, bin)
      }
    }
    const profile: { depthM: number; pressurePa: number; expectedPa: number }[] = []
    let worst = 0
    for (const bin of bins.values()) {
      const z = bin.z / bin.count
      const pressure = bin.pressure / bin.count
      const depthM = surface - z
      const expected = rho0 * GRAVITY * depthM
      profile.push({ depthM, pressurePa: pressure, expectedPa: expected })
      if (depthM > 2 * h) worst = Math.max(worst, Math.abs(pressure - expected) / expected)
    }
    profile.sort((a, b) => a.depthM - b.depthM)
    return {
      metrics: [
        metric(
          'hydrostatic tank',
          'max |p − ρgh| / ρgh on the centre line, depth > 2h',
          worst,
          options.pressureTolerance ?? 0.02,
          `dp ${dp} m, depth ${depth} m, ${profile.length} centre-line layers, t = ${endTimeS} s`,
        ),
        metric(
          'hydrostatic tank',
          'free surface − fill height (in dp)',
          (surface - depth) / dp,
          options.surfaceTolerance ?? 1,
        ),
      ],
      profile,
    }
  })
}

// ── Dam break against Martin & Moyce (1952) ──────────────────────────────────────────────────────

/**
 * Martin & Moyce (1952), column height 2a (n² = 2), a = 2.25 in, their Figure 3: surge front
 * Z = x/a against T = t √(2g/a), as tabulated in PySPH's examples/db_exp_data.py.
 */
export const MARTIN_MOYCE_N2: readonly (readonly [number, number])[] = [
  [0, 1],
  [0.832, 1.217],
  [1.219, 1.474],
  [1.997, 2.292],
  [2.547, 2.995],
  [3.345, 4.134],
  [4.034, 4.944],
]

/** Linear interpolation in a table sorted by its first column (clamped at the ends). */
export function interpolateTable(table: readonly (readonly [number, number])[], x: number): number {
  if (x <= table[0]![0]) return table[0]![1]
  for (let k = 1; k < table.length; k++) {
    const [x1, y1] = table[k]!
    if (x <= x1) {
      const [x0, y0] = table[k - 1]!
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0)
    }
  }
  return table.at(-1)![1]
}

/** Slope of the least-squares line through the points with x in [from, to]. */
export function fitSlope(points: readonly (readonly [number, number])[], from: number, to: number) {
  const inside = points.filter(([x]) => x >= from && x <= to)
  const n = inside.length
  const mx = inside.reduce((s, [x]) => s + x, 0) / n
  const my = inside.reduce((s, [, y]) => s + y, 0) / n
  let sxy = 0
  let sxx = 0
  for (const [x, y] of inside) {
    sxy += (x - mx) * (y - my)
    sxx += (x - mx) * (x - mx)
  }
  return sxy / sxx
}

export interface DamBreakOptions {
  /** Column width a, m (height 2a). */
  columnWidth: number
  /** Particles across the column width. */
  particlesAcross: number
  /** Particles across the tank depth (y); the tank walls are free-slip, so the flow is 2D-like. */
  particlesDeep: number
  /** Last dimensionless time T. */
  endT: number
  threads?: number
  /** Relative tolerances of the front speed and the shifted front position. */
  speedTolerance?: number
  positionTolerance?: number
  /** Largest allowed time shift ΔT. */
  maxShift?: number
}

export interface DamBreakResult {
  metrics: ValidationMetric[]
  /** Simulated front Z(T), every 0.05 in T. */
  front: [number, number][]
  shiftT: number
}

/**
 * A water column a wide and 2a high at the end of a tank 5a long (free-slip walls), released at
 * t = 0. The front is the largest x of a fluid particle + dp/2, Z = x/a, T = t √(2g/a).
 */
export async function runDamBreakCase(options: DamBreakOptions): Promise<DamBreakResult> {
  const a = options.columnWidth
  const dp = a / options.particlesAcross
  const depth = options.particlesDeep * dp
  const scenario = {
    dp,
    tank: [5 * a, depth, 2.5 * a] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [a, depth, 2 * a] as [number, number, number],
    closed: false,
    wallLayers: 3,
  }
  const config: SolverConfig = {
    settings: settingsFor(dp),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    parts: [{ id: TANK_PART_ID, wallCondition: 'slip' }],
    options: { hydrostaticInitialisation: true, threads: options.threads ?? 1 },
  }
  const timeScale = Math.sqrt(a / (2 * GRAVITY))
  const front: [number, number][] = []
  await withSolver(config, (solver) => {
    for (let T = 0; T <= options.endT + 1e-9; T += 0.05) {
      if (T > 0) solver.runUntil(T * timeScale)
      const snapshot = solver.snapshot()
      let x = -Infinity
      for (let i = 0; i < snapshot.count; i++)
        if (snapshot.kind[i] === PARTICLE_KIND.fluid) x = Math.max(x, snapshot.positions[3 * i]!)
      front.push([T, (x + dp / 2) / a])
    }
  })
  const simulated = (T: number) => interpolateTable(front, T)
  const experiment = MARTIN_MOYCE_N2.filter(([T]) => T >= 1 && T <= options.endT)
  const positionError = (shift: number) =>
    Math.max(...experiment.map(([T, Z]) => Math.abs(simulated(T - shift) - Z) / Z))
  const maxShift = options.maxShift ?? 0.25
  let shiftT = 0
  // shifts in steps of 0.005 (integer counts, so the last one is maxShift exactly)
  for (let k = 0; k <= Math.round(maxShift / 0.005); k++) {
    const shift = Math.min(maxShift, k * 0.005)
    if (positionError(shift) < positionError(shiftT)) shiftT = shift
  }
  const experimentSpeed =
    interpolateTable(MARTIN_MOYCE_N2, 3) - interpolateTable(MARTIN_MOYCE_N2, 2)
  const speed = fitSlope(front, 2, 3)
  const note = `a ${a} m, dp ${dp.toPrecision(3)} m (${options.particlesAcross} across, ${options.particlesDeep} deep)`
  return {
    front,
    shiftT,
    metrics: [
      metric(
        'dam break (Martin & Moyce 1952)',
        'front speed dZ/dT over T = 2–3, relative error',
        (speed - experimentSpeed) / experimentSpeed,
        options.speedTolerance ?? 0.05,
        `${note}; simulated ${speed.toFixed(3)}, experiment ${experimentSpeed.toFixed(3)}`,
      ),
      metric(
        'dam break (Martin & Moyce 1952)',
        `front position for T ≥ 1, max relative error after time shift ΔT = ${shiftT.toFixed(3)}`,
        positionError(shiftT),
        options.positionTolerance ?? 0.05,
      ),
      metric('dam break (Martin & Moyce 1952)', 'time shift ΔT', shiftT, maxShift),
      {
        ...metric(
          'dam break (Martin & Moyce 1952)',
          'front position for T ≥ 1, max relative error without shift (reported)',
          positionError(0),
          Infinity,
        ),
      },
    ],
  }
}

// ── Closed box ───────────────────────────────────────────────────────────────────────────────────

export interface ClosedBoxOptions {
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
    settings: settingsFor(dp),
    materials: [WATER],
    particles: buildTankParticles({
      dp,
      tank: box,
      fluidMin: [0, 0, 0],
      fluidMax: [0.15, 0.1, 0.18],
      closed: true,
      wallLayers: 3,
    }),
    options: { hydrostaticInitialisation: true, threads: options.threads ?? 1 },
  }
  return withSolver(config, (solver) => {
    const start = totalFluidMass(solver.snapshot())
    let outside = 0
    let worstDepth = 0
    let end = start
    for (let t = 0.01; t <= options.endTimeS + 1e-9; t += 0.01) {
      solver.runUntil(t)
      const snapshot = solver.snapshot()
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
