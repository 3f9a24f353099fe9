/**
 * The weakly-compressible SPH solver: createSolver(config) → Solver with step(), runUntil(),
 * snapshot(), checkpoint() and restore(). One step of the Symplectic scheme (DualSPHysics) is:
 * sort by cell → interactions at t → predictor to t + dt/2 → interactions → corrector to t + dt.
 */
import type { Box } from './grid.ts'
import { allocateGridBuffers, CellSorter } from './grid.ts'
import type {
  BoundaryKind,
  Integrator,
  SolverConfig,
  SolverOptions,
  SphConstants,
} from './config.ts'
import {
  ACOUSTIC_CFL_FACTOR,
  deriveConstants,
  findFluidMaterial,
  resolveBoundary,
  resolveIntegrator,
  resolveOptions,
  SHIFTING_CODE,
  SolverSetupError,
  unsupportedSettings,
} from './config.ts'
import { densityFromPressure } from './equationOfState.ts'
import { STAT, STAT_STRIDE } from './interactions.ts'
import type { RigidTransform, WallMotion } from './motion.ts'
import { identityTransform, MOTION_DIFFERENCE_S, poseToTransform } from './motion.ts'
import type { ParticleArrays } from './particles.ts'
import { allocateParticleBuffers, PARTICLE_KIND, viewParticleArrays } from './particles.ts'
import { PHASE, PhaseRunner } from './threads.ts'
import type { CheckpointHeader } from './checkpoint.ts'
import { decodeCheckpointArrays, decodeCheckpointHeader, encodeCheckpoint } from './checkpoint.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const FLUID = PARTICLE_KIND.fluid
const WALL = PARTICLE_KIND.wall

/** What one step did. Deletion counts are totals since the start of the run. */
export interface SolverStepReport {
  step: number
  timeS: number
  dtS: number
  particleCount: number
  fluidCount: number
  deletedOutside: number
  deletedInvalid: number
  /** Pair interactions (neighbours inside the support) in this step's force passes. */
  interactions: number
}

/** The particle state, ordered by particle id (the index in the creation input). */
export interface SolverSnapshot {
  timeS: number
  step: number
  count: number
  particleIds: Int32Array
  /** Interleaved x, y, z (3 × count). */
  positions: Float64Array
  velocities: Float64Array
  pressure: Float64Array
  density: Float64Array
  mass: Float64Array
  /** PARTICLE_KIND per particle. */
  kind: Uint8Array
  partId: Int32Array
  /** Fluid material id; −1 for walls. */
  materialId: Int32Array
}

export interface SolverDescription {
  options: SolverOptions
  /** The time integration scheme in use. */
  integrator: Integrator
  /** The wall treatment in use. */
  boundary: BoundaryKind
  constants: SphConstants
  threads: number
  particleCount: number
  /** The fixed time step (dynamicTimeStep off), or null. */
  fixedDtS: number | null
}

export interface RunHooks {
  onStep?: (report: SolverStepReport) => void
  /** Checked after every step; true stops the run early. */
  shouldStop?: () => boolean
}

export interface Solver {
  describe(): SolverDescription
  /** The state now, as a step report (the last step's dt and interactions; 0 before any step). */
  report(): SolverStepReport
  /** Advances by one time step, at most maxDtS long. */
  step(maxDtS?: number): SolverStepReport
  /** Steps until the time reaches timeS exactly (the last step is shortened) or a hook stops it. */
  runUntil(timeS: number, hooks?: RunHooks): SolverStepReport
  snapshot(): SolverSnapshot
  checkpoint(): Uint8Array
  /** Replaces the state by a checkpoint of a solver created from the same config. */
  restore(bytes: Uint8Array): void
  /**
   * For benchmarks: sorts, runs the pressure and wall passes once, then times `passes` force
   * passes (or the plain reference loop over the same pairs). Leaves the state unchanged apart
   * from the sort order.
   */
  measureInteractionPass(kind: 'forces' | 'reference', passes: number): PassMeasurement
  /** Ends the worker threads. */
  dispose(): Promise<void>
}

export interface PassMeasurement {
  /** Pair interactions (neighbours inside the support) over all passes. */
  interactions: number
  seconds: number
  /** CPU time of the process over the passes (all threads): robust on a busy machine. */
  cpuSeconds: number
  threads: number
}

/**
 * Creates a solver. Refuses (SolverSetupError) settings it does not implement, listing them, and
 * invalid input. Resolves once the worker threads (options.threads − 1) are running.
 */
export async function createSolver(config: SolverConfig): Promise<Solver> {
  const refused = unsupportedSettings(config.settings, config.options)
  if (refused.length > 0)
    throw new SolverSetupError(`Unsupported simulation settings: ${refused.join(', ')}.`)
  const options = resolveOptions(config.options)
  const material = findFluidMaterial(config)
  const constants = deriveConstants(config, options, material)
  const setup = prepareParticles(config, options, constants)
  const runner = await PhaseRunner.start({
    threads: options.threads,
    particles: setup.buffers,
    grid: setup.grid,
    constants,
  })
  return new SphSolver(config, options, constants, material.id, setup, runner)
}

interface PreparedParticles {
  buffers: ReturnType<typeof allocateParticleBuffers>
  arrays: ParticleArrays
  grid: ReturnType<typeof allocateGridBuffers>
  count: number
  partIds: number[]
  referenceBox: Box
}

function prepareParticles(
  config: SolverConfig,
  options: SolverOptions,
  k: SphConstants,
): PreparedParticles {
  const input = config.particles
  const n = input.kinds.length
  if (input.positions.length !== 3 * n)
    throw new SolverSetupError('positions must hold 3 values per particle.')
  if (input.partIds.length !== n)
    throw new SolverSetupError('partIds must hold one value per particle.')
  if (input.velocities && input.velocities.length !== 3 * n)
    throw new SolverSetupError('velocities must hold 3 values per particle.')
  if (input.pressures && input.pressures.length !== n)
    throw new SolverSetupError('pressures must hold one value per particle.')
  const buffers = allocateParticleBuffers(n, {
    rungeKutta: resolveIntegrator(config.settings, options) !== 'symplectic',
    riemannWall: k.riemannWall === 1,
  })
  const a = viewParticleArrays(buffers)
  const partIds: number[] = []
  const partIndexOf = new Map<number, number>()
  const slipParts = new Set(
    (config.parts ?? []).filter((p) => p.wallCondition === 'slip').map((p) => p.id),
  )
  const tait = {
    referenceDensity: k.referenceDensity,
    speedOfSound: k.speedOfSound,
    gamma: k.gamma,
  }
  for (let i = 0; i < n; i++) {
    const kind = input.kinds[i]!
    if (kind !== FLUID && kind !== WALL)
      throw new SolverSetupError(`Particle ${i} has an unknown kind ${kind}.`)
    const partId = input.partIds[i]!
    let partIndex = partIndexOf.get(partId)
    if (partIndex === undefined) {
      partIndex = partIds.length
      partIds.push(partId)
      partIndexOf.set(partId, partIndex)
    }
    const x = input.positions[3 * i]!
    const y = input.positions[3 * i + 1]!
    const z = input.positions[3 * i + 2]!
    a.posX[i] = a.refX[i] = x
    a.posY[i] = a.refY[i] = y
    a.posZ[i] = a.refZ[i] = z
    a.kind[i] = kind
    a.partIndex[i] = partIndex
    a.particleId[i] = i
    a.mass[i] = k.particleMass
    a.rho[i] = k.referenceDensity
    a.noSlip[i] = slipParts.has(partId) ? 0 : 1
    if (kind === FLUID) {
      if (input.velocities) {
        a.velX[i] = input.velocities[3 * i]!
        a.velY[i] = input.velocities[3 * i + 1]!
        a.velZ[i] = input.velocities[3 * i + 2]!
      }
      if (input.pressures) a.rho[i] = densityFromPressure(tait, input.pressures[i]!)
    }
  }
  if (options.hydrostaticInitialisation && !input.pressures) initialiseHydrostatic(a, n, k)

  const settings = config.settings
  let referenceBox: Box
  if (settings.calcDomainActive) {
    const min = settings.calcDomainMin.map((v, c) => requireFinite(v, `calcDomainMin.${c}`))
    const max = settings.calcDomainMax.map((v, c) => requireFinite(v, `calcDomainMax.${c}`))
    referenceBox = { min: min as Box['min'], max: max as Box['max'] }
  } else {
    const min: Box['min'] = [Infinity, Infinity, Infinity]
    const max: Box['max'] = [-Infinity, -Infinity, -Infinity]
    for (let i = 0; i < n; i++) {
      const p = [a.posX[i]!, a.posY[i]!, a.posZ[i]!]
      for (let c = 0; c < 3; c++) {
        min[c] = Math.min(min[c]!, p[c]!)
        max[c] = Math.max(max[c]!, p[c]!)
      }
    }
    if (n === 0) referenceBox = { min: [0, 0, 0], max: [0, 0, 0] }
    else {
      // room for splashes; beyond it particles share the edge cells (still correct)
      for (let c = 0; c < 3; c++) {
        const margin = Math.max(0.5 * (max[c]! - min[c]!), 10 * k.support)
        min[c] = min[c]! - margin
        max[c] = max[c]! + margin
      }
      referenceBox = { min, max }
    }
  }
  // cells of 2h/3 = dp hold about one particle where there is fluid: 8n leaves room for voids
  // (a grid that would need more cells gets larger cells, slower but still exact)
  const maxCells = Math.max(8 * n, 1 << 16)
  return {
    buffers,
    arrays: a,
    grid: allocateGridBuffers(maxCells),
    count: n,
    partIds,
    referenceBox,
  }
}

function requireFinite(value: number | null, name: string): number {
  if (value === null || !Number.isFinite(value))
    throw new SolverSetupError(`Setting ${name} must be a number.`)
  return value
}

/** Hydrostatic pressure below the top of each fluid part: p = ρ0 |g| (top + dp/2 − depth). */
function initialiseHydrostatic(a: ParticleArrays, n: number, k: SphConstants): void {
  const [gx, gy, gz] = k.gravity
  const g = Math.hypot(gx, gy, gz)
  if (g === 0) return
  const up = [-gx / g, -gy / g, -gz / g] as const
  const top = new Map<number, number>()
  for (let i = 0; i < n; i++) {
    if (a.kind[i] !== FLUID) continue
    const s = a.posX[i]! * up[0] + a.posY[i]! * up[1] + a.posZ[i]! * up[2]
    top.set(a.partIndex[i]!, Math.max(top.get(a.partIndex[i]!) ?? -Infinity, s))
  }
  const tait = {
    referenceDensity: k.referenceDensity,
    speedOfSound: k.speedOfSound,
    gamma: k.gamma,
  }
  for (let i = 0; i < n; i++) {
    if (a.kind[i] !== FLUID) continue
    const s = a.posX[i]! * up[0] + a.posY[i]! * up[1] + a.posZ[i]! * up[2]
    const depth = top.get(a.partIndex[i]!)! + 0.5 * k.particleDiameter - s
    a.rho[i] = densityFromPressure(tait, k.referenceDensity * g * depth)
  }
}

class SphSolver implements Solver {
  #options: SolverOptions
  #integrator: Integrator
  #boundary: BoundaryKind
  #constants: SphConstants
  #materialId: number
  #arrays: ParticleArrays
  #sorter: CellSorter
  #runner: PhaseRunner
  #referenceBox: Box
  #deletionBox: Box | null
  #partIds: number[]
  #wallMotion: WallMotion | undefined
  #count: number
  #fluidCount = 0
  #wallsAtRest = false
  #timeS = 0
  #step = 0
  #deletedOutside = 0
  #deletedInvalid = 0
  #fixedDtS: number | null
  #lastDtS = 0
  #interactions = 0
  #maxAcceleration2 = 0
  #maxViscous = 0
  /** Per part: the geometry transform at t and the velocity transforms at t − ε, t, t + ε. */
  #transforms: RigidTransform[][]
  #partMoving: Uint8Array

  constructor(
    config: SolverConfig,
    options: SolverOptions,
    constants: SphConstants,
    materialId: number,
    setup: PreparedParticles,
    runner: PhaseRunner,
  ) {
    this.#options = options
    this.#integrator = resolveIntegrator(config.settings, options)
    this.#boundary = resolveBoundary(config.settings, options)
    this.#constants = constants
    this.#materialId = materialId
    this.#arrays = setup.arrays
    this.#count = setup.count
    this.#sorter = new CellSorter(setup.arrays, setup.grid)
    this.#runner = runner
    this.#referenceBox = setup.referenceBox
    this.#deletionBox = config.settings.calcDomainActive ? setup.referenceBox : null
    this.#partIds = setup.partIds
    this.#wallMotion = config.wallMotion
    this.#transforms = setup.partIds.map(() => [
      identityTransform(),
      identityTransform(),
      identityTransform(),
      identityTransform(),
    ])
    this.#partMoving = new Uint8Array(setup.partIds.length)
    this.#fixedDtS = config.settings.dynamicTimeStep
      ? null
      : (options.fixedTimeStepS ?? this.#initialDt())
    this.#fluidCount = this.#countFluid()
    // sorted from the start, so that a snapshot before the first step has its pressures
    this.#sortParticles()
    this.#moveWalls(0)
  }

  #countFluid(): number {
    let fluid = 0
    for (let i = 0; i < this.#count; i++) if (this.#arrays.kind[i] === FLUID) fluid++
    return fluid
  }

  describe(): SolverDescription {
    return {
      options: { ...this.#options },
      integrator: this.#integrator,
      boundary: this.#boundary,
      constants: structuredClone(this.#constants),
      threads: this.#runner.threadCount(),
      particleCount: this.#count,
      fixedDtS: this.#fixedDtS,
    }
  }

  /** The CFL time step with gravity as the only force: the fixed step of static time stepping. */
  #initialDt(): number {
    const k = this.#constants
    const g = Math.hypot(...k.gravity)
    const dtForce = g > 0 ? Math.sqrt(k.h / g) : Infinity
    const dtSound = k.h / k.speedOfSound
    return Math.min(this.#options.cfl * Math.min(dtForce, dtSound), this.#viscousDtLimit())
  }

  #viscousDtLimit(): number {
    const k = this.#constants
    return k.nu > 0 ? (0.125 * k.h * k.h) / k.nu : Infinity
  }

  #sortParticles(): void {
    const result = this.#sorter.sort({
      count: this.#count,
      support: this.#constants.support,
      reach: this.#options.cellsPerSupport,
      referenceBox: this.#referenceBox,
      deletionBox: this.#deletionBox,
    })
    this.#count = result.count
    this.#deletedOutside += result.deletedOutside
    this.#deletedInvalid += result.deletedInvalid
    this.#fluidCount = result.fluidCount
    // the sort does not carry wall accelerations: #moveWalls must write them again
    this.#wallsAtRest = false
    this.#runner.partition()
  }

  /**
   * Places wall particles at time t and sets their velocity and acceleration. Skipped while every
   * part is at rest and the walls already are.
   */
  #moveWalls(timeS: number): void {
    const motion = this.#wallMotion
    const eps = MOTION_DIFFERENCE_S
    let anyMoving = false
    for (let p = 0; p < this.#partIds.length; p++) {
      const [geometry, before, now, after] = this.#transforms[p]!
      let moving = 0
      if (motion) {
        const id = this.#partIds[p]!
        const poses = [motion(id, timeS - eps), motion(id, timeS), motion(id, timeS + eps)]
        if (poses.some((pose) => pose !== null)) moving = 1
        poseToTransform(poses[1]!, geometry!)
        poseToTransform(poses[0]?.velocityPose ?? poses[0]!, before!)
        poseToTransform(poses[1]?.velocityPose ?? poses[1]!, now!)
        poseToTransform(poses[2]?.velocityPose ?? poses[2]!, after!)
      }
      this.#partMoving[p] = moving
      anyMoving ||= moving === 1
    }
    if (!anyMoving && this.#wallsAtRest) return
    this.#wallsAtRest = !anyMoving
    const a = this.#arrays
    const {
      posX,
      posY,
      posZ,
      refX,
      refY,
      refZ,
      velX,
      velY,
      velZ,
      accX,
      accY,
      accZ,
      kind,
      partIndex,
    } = a
    const { viscVX, viscVY, viscVZ } = a
    const inv2eps = 1 / (2 * eps)
    const invEps2 = 1 / (eps * eps)
    for (let i = 0; i < this.#count; i++) {
      if (kind[i] === FLUID) continue
      const p = partIndex[i]!
      if (this.#partMoving[p] === 0) {
        posX[i] = refX[i]!
        posY[i] = refY[i]!
        posZ[i] = refZ[i]!
        velX[i] = velY[i] = velZ[i] = 0
        accX[i] = accY[i] = accZ[i] = 0
        viscVX[i] = viscVY[i] = viscVZ[i] = 0
        continue
      }
      const [geometry, before, now, after] = this.#transforms[p]!
      const x0 = refX[i]!
      const y0 = refY[i]!
      const z0 = refZ[i]!
      const g = geometry!.matrix
      const og = geometry!.offset
      posX[i] = g[0]! * x0 + g[1]! * y0 + g[2]! * z0 + og[0]!
      posY[i] = g[3]! * x0 + g[4]! * y0 + g[5]! * z0 + og[1]!
      posZ[i] = g[6]! * x0 + g[7]! * y0 + g[8]! * z0 + og[2]!
      const m = now!.matrix
      const o = now!.offset
      const mb = before!.matrix
      const ob = before!.offset
      const ma = after!.matrix
      const oa = after!.offset
      const x = m[0]! * x0 + m[1]! * y0 + m[2]! * z0 + o[0]!
      const y = m[3]! * x0 + m[4]! * y0 + m[5]! * z0 + o[1]!
      const z = m[6]! * x0 + m[7]! * y0 + m[8]! * z0 + o[2]!
      const xb = mb[0]! * x0 + mb[1]! * y0 + mb[2]! * z0 + ob[0]!
      const yb = mb[3]! * x0 + mb[4]! * y0 + mb[5]! * z0 + ob[1]!
      const zb = mb[6]! * x0 + mb[7]! * y0 + mb[8]! * z0 + ob[2]!
      const xa = ma[0]! * x0 + ma[1]! * y0 + ma[2]! * z0 + oa[0]!
      const ya = ma[3]! * x0 + ma[4]! * y0 + ma[5]! * z0 + oa[1]!
      const za = ma[6]! * x0 + ma[7]! * y0 + ma[8]! * z0 + oa[2]!
      velX[i] = viscVX[i] = (xa - xb) * inv2eps
      velY[i] = viscVY[i] = (ya - yb) * inv2eps
      velZ[i] = viscVZ[i] = (za - zb) * inv2eps
      accX[i] = (xa - 2 * x + xb) * invEps2
      accY[i] = (ya - 2 * y + yb) * invEps2
      accZ[i] = (za - 2 * z + zb) * invEps2
    }
  }

  /** Pressures, wall extrapolation and forces at the current state. */
  #interact(): void {
    const runner = this.#runner
    runner.run(PHASE.pressures)
    if (this.#boundary !== 'dynamic') runner.run(PHASE.walls)
    runner.run(PHASE.forces)
    const stats = runner.stats()
    let maxA2 = 0
    let maxVisc = 0
    for (let t = 0; t < runner.threadCount(); t++) {
      const base = t * STAT_STRIDE
      maxA2 = Math.max(maxA2, stats[base + STAT.maxAcceleration2]!)
      maxVisc = Math.max(maxVisc, stats[base + STAT.maxViscous]!)
      this.#interactions += stats[base + STAT.interactions]!
    }
    this.#maxAcceleration2 = maxA2
    this.#maxViscous = maxVisc
  }

  /** Variable time step: CFL · min(√(h/|a|max), h/(c0 + max h|v·r|/(r²+η²))), and 0.125 h²/ν. */
  #chooseDt(): number {
    if (this.#fixedDtS !== null) return this.#fixedDtS
    const k = this.#constants
    const aMax = Math.sqrt(this.#maxAcceleration2)
    const dtForce = aMax > 0 ? Math.sqrt(k.h / aMax) : Infinity
    const dtSound = k.h / (k.speedOfSound + this.#maxViscous)
    const cfl = this.#options.cfl
    const acousticCfl = this.#integrator === 'rk4_dual_step' ? ACOUSTIC_CFL_FACTOR * cfl : cfl
    const dt = Math.min(cfl * dtForce, acousticCfl * dtSound, this.#viscousDtLimit())
    // a floor so that a blown-up particle cannot stall the run (it is deleted once non-finite)
    const dtMin = (1e-3 * this.#options.cfl * k.h) / k.speedOfSound
    return dt > dtMin ? dt : dtMin
  }

  step(maxDtS = Infinity): SolverStepReport {
    if (!(maxDtS > 0)) throw new RangeError(`maxDtS must be positive, got ${maxDtS}.`)
    this.#interactions = 0
    const t0 = this.#timeS
    this.#sortParticles()
    this.#moveWalls(t0)
    this.#interact()
    const dt = Math.min(this.#chooseDt(), maxDtS)
    const runner = this.#runner
    if (this.#integrator === 'symplectic') {
      runner.run(PHASE.predict, dt)
      this.#moveWalls(t0 + 0.5 * dt)
      this.#interact()
      runner.run(PHASE.correct, dt)
    } else {
      runner.run(PHASE.rungeKutta1, dt)
      this.#moveWalls(t0 + 0.5 * dt)
      this.#interact()
      runner.run(PHASE.rungeKutta2, dt)
      this.#interact()
      runner.run(PHASE.rungeKutta3, dt)
      this.#moveWalls(t0 + dt)
      this.#interact()
      runner.run(PHASE.rungeKutta4, dt)
    }
    this.#timeS = t0 + dt
    this.#step++
    this.#lastDtS = dt
    this.#moveWalls(this.#timeS)
    if (this.#constants.shiftingCode !== SHIFTING_CODE.zero) this.#shift(dt)
    return this.#report()
  }

  /** Particle shifting after a step (see shiftParticles), scaled by the fastest fluid particle. */
  #shift(dt: number): void {
    const { velX, velY, velZ, kind } = this.#arrays
    let max2 = 0
    for (let i = 0; i < this.#count; i++) {
      if (kind[i] !== FLUID) continue
      const v2 = velX[i]! * velX[i]! + velY[i]! * velY[i]! + velZ[i]! * velZ[i]!
      if (v2 > max2) max2 = v2
    }
    if (max2 === 0) return
    this.#runner.run(PHASE.pressures)
    this.#runner.run(PHASE.shift, 4 * this.#constants.h * Math.sqrt(max2) * dt)
  }

  report(): SolverStepReport {
    return this.#report()
  }

  #report(): SolverStepReport {
    return {
      step: this.#step,
      timeS: this.#timeS,
      dtS: this.#lastDtS,
      particleCount: this.#count,
      fluidCount: this.#fluidCount,
      deletedOutside: this.#deletedOutside,
      deletedInvalid: this.#deletedInvalid,
      interactions: this.#interactions,
    }
  }

  runUntil(timeS: number, hooks: RunHooks = {}): SolverStepReport {
    let report = this.#report()
    // a remainder below 1e-9 of a step is rounding, not a step to take
    while (timeS - this.#timeS > 1e-9 * Math.max(this.#lastDtS, 1e-12)) {
      report = this.step(timeS - this.#timeS)
      hooks.onStep?.(report)
      if (hooks.shouldStop?.()) break
    }
    return report
  }

  snapshot(): SolverSnapshot {
    // pressures of the current densities (the last pass saw the half-step state)
    this.#runner.run(PHASE.pressures)
    const a = this.#arrays
    const n = this.#count
    // ids are unique and below the capacity: order by id through an index table
    const indexOfId = new Int32Array(a.capacity).fill(-1)
    for (let i = 0; i < n; i++) indexOfId[a.particleId[i]!] = i
    const order = new Int32Array(n)
    let next = 0
    for (let id = 0; id < a.capacity; id++) if (indexOfId[id]! >= 0) order[next++] = indexOfId[id]!
    const snapshot: SolverSnapshot = {
      timeS: this.#timeS,
      step: this.#step,
      count: n,
      particleIds: new Int32Array(n),
      positions: new Float64Array(3 * n),
      velocities: new Float64Array(3 * n),
      pressure: new Float64Array(n),
      density: new Float64Array(n),
      mass: new Float64Array(n),
      kind: new Uint8Array(n),
      partId: new Int32Array(n),
      materialId: new Int32Array(n),
    }
    for (let s = 0; s < n; s++) {
      const i = order[s]!
      snapshot.particleIds[s] = a.particleId[i]!
      snapshot.positions[3 * s] = a.posX[i]!
      snapshot.positions[3 * s + 1] = a.posY[i]!
      snapshot.positions[3 * s + 2] = a.posZ[i]!
      snapshot.velocities[3 * s] = a.velX[i]!
      snapshot.velocities[3 * s + 1] = a.velY[i]!
      snapshot.velocities[3 * s + 2] = a.velZ[i]!
      snapshot.pressure[s] = a.press[i]!
      snapshot.density[s] = a.rho[i]!
      snapshot.mass[s] = a.mass[i]!
      const kind = a.kind[i]!
      snapshot.kind[s] = kind
      snapshot.partId[s] = this.#partIds[a.partIndex[i]!]!
      snapshot.materialId[s] = kind === FLUID ? this.#materialId : -1
    }
    return snapshot
  }

  #fingerprint(): Record<string, number> {
    const k = this.#constants
    return {
      h: k.h,
      speedOfSound: k.speedOfSound,
      referenceDensity: k.referenceDensity,
      particleMass: k.particleMass,
      capacity: this.#arrays.capacity,
      parts: this.#partIds.length,
    }
  }

  checkpoint(): Uint8Array {
    const header: CheckpointHeader = {
      count: this.#count,
      timeS: this.#timeS,
      step: this.#step,
      fixedDtS: this.#fixedDtS,
      deletedOutside: this.#deletedOutside,
      deletedInvalid: this.#deletedInvalid,
      fingerprint: this.#fingerprint(),
      referenceBox: structuredClone(this.#referenceBox),
    }
    return encodeCheckpoint(header, this.#arrays)
  }

  restore(bytes: Uint8Array): void {
    const header = decodeCheckpointHeader(bytes)
    const expected = this.#fingerprint()
    for (const [key, value] of Object.entries(expected)) {
      if (header.fingerprint[key] !== value)
        throw new Error(
          `Checkpoint does not match this solver (${key}: ${header.fingerprint[key]} ≠ ${value}).`,
        )
    }
    if (header.count > this.#arrays.capacity)
      throw new Error('Checkpoint holds more particles than this solver.')
    decodeCheckpointArrays(bytes, header, this.#arrays)
    this.#count = header.count
    this.#timeS = header.timeS
    this.#step = header.step
    this.#fixedDtS = header.fixedDtS
    this.#deletedOutside = header.deletedOutside
    this.#deletedInvalid = header.deletedInvalid
    this.#referenceBox = header.referenceBox
    if (this.#deletionBox) this.#deletionBox = header.referenceBox
    this.#lastDtS = 0
    this.#fluidCount = this.#countFluid()
    // the sort is stable, so sorting the restored order again leaves the next step unchanged
    this.#sortParticles()
    this.#moveWalls(this.#timeS)
  }

  measureInteractionPass(kind: 'forces' | 'reference', passes: number): PassMeasurement {
    this.#sortParticles()
    this.#moveWalls(this.#timeS)
    const runner = this.#runner
    runner.run(PHASE.pressures)
    if (this.#boundary !== 'dynamic') runner.run(PHASE.walls)
    const phase = kind === 'forces' ? PHASE.forces : PHASE.reference
    let interactions = 0
    const started = performance.now()
    const cpuStarted = process.cpuUsage()
    for (let k = 0; k < passes; k++) {
      runner.run(phase)
      const stats = runner.stats()
      for (let t = 0; t < runner.threadCount(); t++)
        interactions += stats[t * STAT_STRIDE + STAT.interactions]!
    }
    const cpu = process.cpuUsage(cpuStarted)
    return {
      interactions,
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      threads: runner.threadCount(),
    }
  }

  async dispose(): Promise<void> {
    await this.#runner.dispose()
  }
}
