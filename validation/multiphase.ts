/**
 * Multiphase: two fluids of different density, in a slab periodic along y (2D cases).
 * - Stratified column at rest: a light layer over a heavy one in an open tank; the pressure must
 *   be hydrostatic with each layer's own density (the kink at the interface), and the interface
 *   must stay where it is, sharp (no particle of one fluid found well inside the other).
 * - Rayleigh–Taylor instability: the heavy fluid over the light one in a closed box, started with
 *   the velocity of the linear mode w = v0 cos(kx) e^{−k|z − z_i|} (potential flow, no
 *   displacement). Linear theory (inviscid, layers deeper than 1/k): the interface's velocity
 *   grows as v0 cosh(nt) with n² = A g k tanh(kH), A = (ρ_h − ρ_l)/(ρ_h + ρ_l) the Atwood number.
 */
import type { SolverConfig, SolverMaterial } from '../solver/sph/config.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import { buildTankParticles, TANK_PART_ID, tankPeriodicY } from '../solver/sph/scenarios.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { GRAVITY, metric, reported, settingsFor, withSolver } from './common.ts'

export const HEAVY_FLUID: SolverMaterial = {
  id: 1,
  density: 1000,
  gamma: 7,
  speedOfSound: 1,
  kinematicViscosity: 1e-6,
}
export const LIGHT_FLUID: SolverMaterial = { ...HEAVY_FLUID, id: 2, density: 500 }

const STRATIFIED = 'two-fluid stratified column'
const RAYLEIGH_TAYLOR = 'Rayleigh–Taylor growth rate'

/** Settings of a multiphase case (the spec's: density limiter off, improved wall pressure on). */
function multiphaseSettings(dp: number, options: CaseOverrides) {
  return settingsFor(dp, {
    multiphase: true,
    densityLimiter: false,
    noRiemannWall: true,
    ...options.settings,
  })
}

export interface StratifiedOptions extends CaseOverrides {
  /** Particles across the column's depth (both layers). */
  across: number
  /** Depth of each layer, m. */
  layer?: number
  endTimeS?: number
  threads?: number
  tolerance?: number
}

/**
 * The heavy layer (0 < z < layer) under the light one (layer < z < 2 layer), started with the
 * hydrostatic pressure of both. Pressures on the centre band averaged per lattice layer over the
 * second half of the run, deeper than 2h below the surface and 2h above the floor, against
 * ρ_l g (2L − z) above the interface and ρ_l g L + ρ_h g (L − z) below it.
 */
export async function runStratifiedCase(options: StratifiedOptions) {
  const layer = options.layer ?? 0.1
  const dp = (2 * layer) / options.across
  const endTimeS = options.endTimeS ?? 0.5
  const width = 10 * dp
  const top = 2 * layer
  const scenario = {
    dp,
    tank: [width, 4 * dp, top + 6 * dp] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [width, 4 * dp, top] as [number, number, number],
    closed: false,
    wallLayers: 3,
    periodicY: true,
  }
  const particles = buildTankParticles(scenario)
  const n = particles.kinds.length
  const materialIds = new Int32Array(n)
  const pressures = new Float64Array(n)
  const g = GRAVITY
  const expected = (z: number) =>
    z > layer
      ? LIGHT_FLUID.density * g * (top - z)
      : LIGHT_FLUID.density * g * layer + HEAVY_FLUID.density * g * (layer - z)
  for (let i = 0; i < n; i++) {
    const z = particles.positions[3 * i + 2]!
    const fluid = particles.kinds[i] === PARTICLE_KIND.fluid
    materialIds[i] = fluid && z > layer ? LIGHT_FLUID.id : HEAVY_FLUID.id
    pressures[i] = fluid ? expected(z) : 0
  }
  const config: SolverConfig = {
    settings: multiphaseSettings(dp, options),
    materials: [HEAVY_FLUID, LIGHT_FLUID],
    particles: { ...particles, materialIds, pressures },
    options: {
      periodicY: tankPeriodicY(scenario),
      threads: options.threads ?? 1,
      ...options.solverOptions,
    },
  }
  return withSolver(config, async (solver) => {
    const { h } = solver.describe().constants
    const samples = 10
    const bins = new Map<number, { pressure: number; z: number; count: number }>()
    let interfaceZ = 0
    let mixed = 0
    for (let k = 0; k < samples; k++) {
      await solver.runUntil(endTimeS * (0.5 + (0.5 * (k + 1)) / samples))
      const s = await solver.snapshot()
      let lowestLight = Infinity
      let highestHeavy = -Infinity
      for (let i = 0; i < s.count; i++) {
        if (s.kind[i] !== PARTICLE_KIND.fluid) continue
        const z = s.positions[3 * i + 2]!
        const light = s.materialId[i] === LIGHT_FLUID.id
        if (light) lowestLight = Math.min(lowestLight, z)
        else highestHeavy = Math.max(highestHeavy, z)
        // a particle more than 2 dp on the wrong side of the initial interface has mixed in
        if (light ? z < layer - 2 * dp : z > layer + 2 * dp) mixed++
        const x = s.positions[3 * i]!
        if (Math.abs(x - width / 2) > 2 * dp) continue
        const bin = Math.floor(z / dp)
        const entry = bins.get(bin) ?? { pressure: 0, z: 0, count: 0 }
        entry.pressure += s.pressure[i]!
        entry.z += z
        entry.count++
        bins.set(bin, entry)
      }
      interfaceZ += (0.5 * (lowestLight + highestHeavy)) / samples
    }
    // the bulk of each layer, and the band within 2h of the interface, where the kernel
    // smooths the kink of the pressure profile over its support
    let worst = 0
    let worstInterface = 0
    const profile: { z: number; pressurePa: number; expectedPa: number }[] = []
    for (const bin of bins.values()) {
      const z = bin.z / bin.count
      const pressure = bin.pressure / bin.count
      profile.push({ z, pressurePa: pressure, expectedPa: expected(z) })
      if (!(z < top - 2 * h && z > 2 * h)) continue
      const error = Math.abs(pressure - expected(z)) / expected(z)
      if (Math.abs(z - layer) < 2 * h) worstInterface = Math.max(worstInterface, error)
      else worst = Math.max(worst, error)
    }
    profile.sort((a, b) => a.z - b.z)
    const res = `, ${options.across} across`
    const metrics: ValidationMetric[] = [
      metric(
        STRATIFIED,
        `max |p − p_hydrostatic| / p_hydrostatic, centre band, 2h from surface, floor and interface${res}`,
        worst,
        options.tolerance ?? 0.02,
        `layers ${layer} m each, ρ ${HEAVY_FLUID.density} under ${LIGHT_FLUID.density} kg/m³, mean of t = ${endTimeS / 2}–${endTimeS} s`,
      ),
      metric(
        STRATIFIED,
        `max |p − p_hydrostatic| / p_hydrostatic within 2h of the interface${res}`,
        worstInterface,
        0.05,
      ),
      metric(
        STRATIFIED,
        `interface (between the lowest light and highest heavy particle) − initial, in dp${res}`,
        (interfaceZ - layer) / dp,
        0.5,
      ),
      metric(STRATIFIED, `particles > 2 dp across the interface (summed over 10 samples)${res}`, mixed, 0),
    ]
    return { metrics, profile }
  })
}

export interface RayleighTaylorOptions extends CaseOverrides {
  /** Particles across the box (one wavelength). */
  across: number
  /** Wavelength (box width), m; each layer is one wavelength deep. */
  wavelength?: number
  /** Initial velocity amplitude at the interface, m/s. */
  v0?: number
  /** Density of the light fluid, kg/m³ (default LIGHT_FLUID's). */
  lightDensity?: number
  /** One material for both layers, multiphase off (a check of the set-up with A = 0). */
  singlePhase?: boolean
  /** Gravity, m/s² (default GRAVITY; 0 for the shear diagnostic of NUMERICS.md). */
  gravity?: number
  /** Pressure at the lid, Pa (default ρ_h g L: no tension anywhere). */
  lidPressure?: number
  /** The materials' speed of sound, m/s (default theirs: the rule's 10 √(gH) decides). */
  speedOfSound?: number
  endTimeS?: number
  threads?: number
  tolerance?: number
}

export interface RayleighTaylorResult {
  metrics: ValidationMetric[]
  /** Time and the interface band's velocity amplitude. */
  series: { t: number; amplitude: number }[]
  growthRate: number
  theory: number
}

/**
 * The growth rate n fitted to the interface band's amplitude A(t) = 2⟨w cos(kx)⟩ (particles
 * within 2 dp of the interface) as A(t)/A(0) = cosh(nt), least squares over the samples, against
 * √(A g k tanh(kL)). Free-slip side walls at x = 0 and λ hold the mode cos(kx), k = 2π/λ.
 */
export async function runRayleighTaylorCase(
  options: RayleighTaylorOptions,
): Promise<RayleighTaylorResult> {
  const lambda = options.wavelength ?? 0.1
  const dp = lambda / options.across
  const v0 = options.v0 ?? 0.01
  const depth = lambda
  const height = 2 * depth
  const wave = (2 * Math.PI) / lambda
  const heavyFluid = { ...HEAVY_FLUID, speedOfSound: options.speedOfSound ?? HEAVY_FLUID.speedOfSound }
  const light = options.singlePhase
    ? heavyFluid
    : { ...heavyFluid, id: LIGHT_FLUID.id, density: options.lightDensity ?? LIGHT_FLUID.density }
  const atwood = (HEAVY_FLUID.density - light.density) / (HEAVY_FLUID.density + light.density)
  const g = options.gravity ?? GRAVITY
  const theory = Math.sqrt(atwood * g * wave * Math.tanh(wave * depth))
  const endTimeS = options.endTimeS ?? 1.6 / theory
  const scenario = {
    dp,
    tank: [lambda, 4 * dp, height] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [lambda, 4 * dp, height] as [number, number, number],
    closed: true,
    wallLayers: 3,
    periodicY: true,
  }
  const particles = buildTankParticles(scenario)
  const n = particles.kinds.length
  const materialIds = new Int32Array(n)
  const pressures = new Float64Array(n)
  const velocities = new Float64Array(3 * n)
  const lid = options.lidPressure ?? HEAVY_FLUID.density * g * depth
  for (let i = 0; i < n; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    const x = particles.positions[3 * i]!
    const z = particles.positions[3 * i + 2]!
    const heavy = z > depth
    materialIds[i] = heavy ? HEAVY_FLUID.id : light.id
    // hydrostatic from the lid pressure (default ρ_h g L: no tension anywhere)
    pressures[i] = heavy
      ? lid + HEAVY_FLUID.density * g * (height - z)
      : lid + HEAVY_FLUID.density * g * depth + light.density * g * (depth - z)
    const decay = v0 * Math.exp(-wave * Math.abs(z - depth))
    velocities[3 * i] = (heavy ? 1 : -1) * decay * Math.sin(wave * x)
    velocities[3 * i + 2] = decay * Math.cos(wave * x)
  }
  const config: SolverConfig = {
    settings: multiphaseSettings(dp, {
      ...options,
      settings: {
        ...(options.singlePhase ? { multiphase: false } : {}),
        ...(options.gravity !== undefined ? { gravity: [0, 0, -g] as [number, number, number] } : {}),
        ...options.settings,
      },
    }),
    materials: options.singlePhase ? [heavyFluid] : [heavyFluid, light],
    particles: { ...particles, materialIds, pressures, velocities },
    parts: [{ id: TANK_PART_ID, wallCondition: 'slip' }],
    options: {
      periodicY: tankPeriodicY(scenario),
      threads: options.threads ?? 1,
      ...options.solverOptions,
    },
  }
  return withSolver(config, async (solver) => {
    const series: { t: number; amplitude: number }[] = []
    const samples = 16
    const amplitude = async () => {
      const s = await solver.snapshot()
      let sum = 0
      let count = 0
      for (let i = 0; i < s.count; i++) {
        if (s.kind[i] !== PARTICLE_KIND.fluid) continue
        const z = s.positions[3 * i + 2]!
        if (Math.abs(z - depth) > 2 * dp) continue
        sum += s.velocities[3 * i + 2]! * Math.cos(wave * s.positions[3 * i]!)
        count++
      }
      return (2 * sum) / count
    }
    series.push({ t: 0, amplitude: await amplitude() })
    for (let k = 1; k <= samples; k++) {
      const t = (endTimeS * k) / samples
      await solver.runUntil(t)
      series.push({ t, amplitude: await amplitude() })
    }
    const a0 = series[0]!.amplitude
    const misfit = (rate: number) =>
      series.reduce((sum, p) => sum + (p.amplitude / a0 - Math.cosh(rate * p.t)) ** 2, 0)
    // golden-section search for the least-squares rate in (0, 3 × theory)
    let lo = 0
    let hi = 3 * theory
    for (let it = 0; it < 80; it++) {
      const m1 = hi - (hi - lo) / 1.618034
      const m2 = lo + (hi - lo) / 1.618034
      if (misfit(m1) < misfit(m2)) hi = m2
      else lo = m1
    }
    const growthRate = 0.5 * (lo + hi)
    const res = `, ${options.across} across`
    return {
      metrics: [
        metric(
          RAYLEIGH_TAYLOR,
          `fitted growth rate / √(A g k tanh kL) − 1${res}`,
          growthRate / theory - 1,
          options.tolerance ?? 0.1,
          `A ${atwood.toFixed(3)}, λ ${lambda} m, theory ${theory.toFixed(3)} 1/s, fitted ${growthRate.toFixed(3)} 1/s over t = 0–${endTimeS.toFixed(3)} s (n t = ${(theory * endTimeS).toFixed(2)})`,
        ),
        reported(RAYLEIGH_TAYLOR, `amplitude growth A(end)/A(0)${res}`, series.at(-1)!.amplitude / a0),
      ],
      series,
      growthRate,
      theory,
    }
  })
}
