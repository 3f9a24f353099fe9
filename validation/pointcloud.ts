/**
 * Pointcloud parts and initial conditions (issue 16 item 10), through the discretizer into the
 * solver:
 * - restart: a dam break run to t1, its fluid written as an output would hold it (Float32) and
 *   loaded as a pointcloud part, run on to t2, against the uninterrupted run at t2;
 * - rigid block: a free block with an initial velocity and zero pressure falls as one body,
 *   x(t) = x0 + v0·t + ½·g·t² (analytic) over its first steps;
 * - initial distribution table: the discretizer reproduces the table's values at particles on
 *   its rows, and interpolates within the rows' range elsewhere.
 */
import type { Part, Shape } from '../domain/parts.ts'
import { discretize } from '../solver/discretizer/discretize.ts'
import { boxShape, makePart, makeSetup } from '../solver/discretizer/testSetup.ts'
import type { Discretization } from '../solver/discretizer/types.ts'
import type { ReferencePointCloud } from '../solver/setup.ts'
import type { SolverConfig, SolverParticles } from '../solver/sph/config.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import { buildTankParticles, WATER } from '../solver/sph/scenarios.ts'
import type { SolverSnapshot } from '../solver/sph/solverTypes.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { GRAVITY, metric, reported, settingsFor, withSolver } from './common.ts'

export interface PointcloudCaseOptions extends CaseOverrides {
  dp: number
  threads?: number
}

const RESTART = 'restart from a pointcloud of its own output'
const BLOCK = 'initial velocity: rigid block in free fall'
const TABLE = 'initial distribution table'

/** A speed of sound above 10·|u| of the dam break, so the restart picks the same c0. */
const MATERIAL = { ...WATER, speedOfSound: 40 }

/** Fluid rows of a snapshot by particle id: positions and velocities (3 each), pressures. */
function fluidById(snapshot: SolverSnapshot, ids: readonly number[]) {
  const row = new Map<number, number>()
  for (let i = 0; i < snapshot.count; i++) row.set(snapshot.particleIds[i]!, i)
  const n = ids.length
  const positions = new Float64Array(n * 3)
  const velocities = new Float64Array(n * 3)
  const pressures = new Float64Array(n)
  const densities = new Float64Array(n)
  ids.forEach((id, k) => {
    const i = row.get(id)!
    for (let c = 0; c < 3; c++) {
      positions[k * 3 + c] = snapshot.positions[i * 3 + c]!
      velocities[k * 3 + c] = snapshot.velocities[i * 3 + c]!
    }
    pressures[k] = snapshot.pressure[i]!
    densities[k] = snapshot.density[i]!
  })
  return { positions, velocities, pressures, densities }
}

function pointcloudShape(): Shape {
  return {
    type: 'pointcloud',
    translation: [0, 0, 0],
    scale: [1, 1, 1],
    rotation: [0, 0, 0],
    flipNormals: false,
    info: null,
    refSimulationId: 1,
    refSimulationOutput: 1,
    splittingRatio: 1,
  }
}

function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!))
  return worst
}

/** The fluid particles of a discretization followed by `walls` (static wall particles). */
function withWalls(d: Discretization, walls: SolverParticles): SolverParticles {
  const wallIndex: number[] = []
  for (let i = 0; i < walls.kinds.length; i++)
    if (walls.kinds[i] === PARTICLE_KIND.wall) wallIndex.push(i)
  const n = d.fluidCount + wallIndex.length
  const positions = new Float64Array(n * 3)
  const velocities = new Float64Array(n * 3)
  const pressures = new Float64Array(n)
  const kinds = new Uint8Array(n)
  const partIds = new Int32Array(n)
  positions.set(d.positions.subarray(0, d.fluidCount * 3))
  velocities.set(d.velocities.subarray(0, d.fluidCount * 3))
  pressures.set(d.pressures.subarray(0, d.fluidCount))
  partIds.fill(1, 0, d.fluidCount)
  wallIndex.forEach((i, k) => {
    const q = d.fluidCount + k
    for (let c = 0; c < 3; c++) positions[q * 3 + c] = walls.positions[i * 3 + c]!
    kinds[q] = PARTICLE_KIND.wall
    partIds[q] = walls.partIds[i]!
  })
  return { positions, velocities, pressures, kinds, partIds }
}

async function runRestart(options: PointcloudCaseOptions): Promise<ValidationMetric[]> {
  const { dp } = options
  const t1 = 0.1
  const t2 = 0.2
  const tank = buildTankParticles({
    dp,
    tank: [0.4, 0.1, 0.25],
    fluidMin: [0, 0, 0],
    fluidMax: [0.15, 0.1, 0.2],
    closed: false,
    wallLayers: 3,
  })
  const fluidIds: number[] = []
  for (let i = 0; i < tank.kinds.length; i++)
    if (tank.kinds[i] === PARTICLE_KIND.fluid) fluidIds.push(i)
  const settings = settingsFor(dp, options.settings)
  const solverOptions = { threads: options.threads ?? 1, ...options.solverOptions }
  const reference: SolverConfig = {
    settings,
    materials: [MATERIAL],
    particles: tank,
    options: { hydrostaticInitialisation: true, ...solverOptions },
  }
  const { atT1, atT2 } = await withSolver(reference, async (solver) => {
    await solver.runUntil(t1)
    const first = fluidById(await solver.snapshot(), fluidIds)
    await solver.runUntil(t2)
    return { atT1: first, atT2: fluidById(await solver.snapshot(), fluidIds) }
  })
  // the output format stores Float32 columns
  const cloud: ReferencePointCloud = {
    refSimulationId: 1,
    refSimulationOutput: 1,
    particleDiameter: dp,
    count: fluidIds.length,
    positions: Float32Array.from(atT1.positions),
    velocities: Float32Array.from(atT1.velocities),
    pressures: Float32Array.from(atT1.pressures),
    densities: Float32Array.from(atT1.densities),
  }
  const setup = makeSetup([makePart(1, 'flow', pointcloudShape())], dp, {}, settings)
  setup.pointClouds = { 1: cloud }
  const d = discretize(setup)
  if (d.errors.length > 0) throw new Error(d.errors.map((e) => e.message).join(' '))
  const restarted: SolverConfig = {
    settings,
    materials: [MATERIAL],
    particles: withWalls(d, tank),
    options: { hydrostaticInitialisation: false, ...solverOptions },
  }
  const restartIds = fluidIds.map((_, k) => k)
  const { start, end } = await withSolver(restarted, async (solver) => {
    const first = fluidById(await solver.snapshot(), restartIds)
    await solver.runUntil(t2 - t1)
    return { start: first, end: fluidById(await solver.snapshot(), restartIds) }
  })
  let squared = 0
  let frontReference = -Infinity
  let frontRestart = -Infinity
  for (let k = 0; k < fluidIds.length; k++) {
    const dx = end.positions[k * 3]! - atT2.positions[k * 3]!
    const dy = end.positions[k * 3 + 1]! - atT2.positions[k * 3 + 1]!
    const dz = end.positions[k * 3 + 2]! - atT2.positions[k * 3 + 2]!
    squared += dx * dx + dy * dy + dz * dz
    frontReference = Math.max(frontReference, atT2.positions[k * 3]!)
    frontRestart = Math.max(frontRestart, end.positions[k * 3]!)
  }
  const rms = Math.sqrt(squared / fluidIds.length)
  const note = `dp ${dp} m, ${fluidIds.length} fluid particles, output at t1 = ${t1} s, compared at t2 = ${t2} s`
  return [
    metric(
      RESTART,
      'max |position at t0 − output position| (m)',
      maxDifference(start.positions, atT1.positions),
      1e-6,
      note,
    ),
    metric(
      RESTART,
      'max |velocity at t0 − output velocity| (m/s)',
      maxDifference(start.velocities, atT1.velocities),
      1e-5,
    ),
    metric(
      RESTART,
      'max |pressure at t0 − output pressure| / ρ0·g·H',
      maxDifference(start.pressures, atT1.pressures) / (MATERIAL.density * GRAVITY * 0.2),
      1e-4,
    ),
    metric(RESTART, 'RMS particle distance to the uninterrupted run at t2 / dp', rms / dp, 0.05),
    metric(
      RESTART,
      'front position difference to the uninterrupted run at t2 / dp',
      (frontRestart - frontReference) / dp,
      0.1,
    ),
  ]
}

async function runBlock(options: PointcloudCaseOptions): Promise<ValidationMetric[]> {
  const { dp } = options
  const v0 = [0.5, 0, 1] as const
  const part = makePart(1, 'flow', boxShape([0, 0, 0], [0.1, 0.1, 0.1]))
  const component = part.component as Extract<Part['component'], { type: 'flow' }>
  component.initialVelocity = [...v0]
  // zero pressure (no hydrostatic pressure in free fall): a table with only its prs column
  component.initialDistribution = true
  component.initialDistributionTableId = 1
  const settings = settingsFor(dp, options.settings)
  const setup = makeSetup([part], dp, {}, settings)
  setup.datatables = {
    1: {
      headers: ['pos_x', 'pos_y', 'pos_z', 'prs'],
      table: { pos_x: [0, 0.1], pos_y: [0, 0.1], pos_z: [0, 0.1], prs: [0, 0] },
    },
  }
  const d = discretize(setup)
  if (d.errors.length > 0) throw new Error(d.errors.map((e) => e.message).join(' '))
  const ids = Array.from({ length: d.fluidCount }, (_, k) => k)
  const config: SolverConfig = {
    settings,
    materials: [MATERIAL],
    particles: {
      positions: d.positions,
      velocities: d.velocities,
      pressures: d.pressures,
      kinds: d.kinds,
      partIds: d.partIds,
    },
    options: {
      hydrostaticInitialisation: false,
      threads: options.threads ?? 1,
      ...options.solverOptions,
    },
  }
  const t = 0.01
  const { end, steps } = await withSolver(config, async (solver) => {
    const report = await solver.runUntil(t)
    return { end: fluidById(await solver.snapshot(), ids), steps: report.step }
  })
  const g = settings.gravity.map((c) => c ?? 0)
  let worstPosition = 0
  let worstVelocity = 0
  for (let k = 0; k < ids.length; k++)
    for (let c = 0; c < 3; c++) {
      const expected = d.positions[k * 3 + c]! + v0[c]! * t + 0.5 * g[c]! * t * t
      worstPosition = Math.max(worstPosition, Math.abs(end.positions[k * 3 + c]! - expected))
      worstVelocity = Math.max(
        worstVelocity,
        Math.abs(end.velocities[k * 3 + c]! - (v0[c]! + g[c]! * t)),
      )
    }
  const note = `dp ${dp} m, ${ids.length} particles, v0 = (0.5, 0, 1) m/s, t = ${t} s`
  return [
    metric(BLOCK, 'max |x − (x0 + v0·t + ½·g·t²)| / dp', worstPosition / dp, 0.02, note),
    metric(BLOCK, 'max |v − (v0 + g·t)| / (g·t)', worstVelocity / (GRAVITY * t), 0.05),
    reported(BLOCK, 'time steps', steps),
  ]
}

function runTable(options: PointcloudCaseOptions): ValidationMetric[] {
  const { dp } = options
  const shape = boxShape([0, 0, 0], [0.2, 0.1, 0.1])
  const plain = discretize(makeSetup([makePart(1, 'flow', shape)], dp))
  // rows on every 7th particle (at most 100 rows): values of a smooth field there
  const rows: number[] = []
  for (let q = 0; q < plain.fluidCount && rows.length < 100; q += 7) rows.push(q)
  const at = (q: number, c: number) => plain.positions[q * 3 + c]!
  const field = (x: number, y: number, z: number) => ({
    vel_x: 1 + 2 * x,
    vel_y: -y,
    vel_z: 0.5 * z,
    prs: 1000 * (1 + x + y + z),
  })
  const values = rows.map((q) => field(at(q, 0), at(q, 1), at(q, 2)))
  const part: Part = makePart(1, 'flow', shape)
  const component = part.component as Extract<Part['component'], { type: 'flow' }>
  component.initialDistribution = true
  component.initialDistributionTableId = 3
  const setup = makeSetup([part], dp)
  setup.datatables = {
    3: {
      headers: ['pos_x', 'pos_y', 'pos_z', 'vel_x', 'vel_y', 'vel_z', 'prs'],
      table: {
        pos_x: rows.map((q) => at(q, 0)),
        pos_y: rows.map((q) => at(q, 1)),
        pos_z: rows.map((q) => at(q, 2)),
        vel_x: values.map((v) => v.vel_x),
        vel_y: values.map((v) => v.vel_y),
        vel_z: values.map((v) => v.vel_z),
        prs: values.map((v) => v.prs),
      },
    },
  }
  const d = discretize(setup)
  if (d.errors.length > 0) throw new Error(d.errors.map((e) => e.message).join(' '))
  let onRows = 0
  rows.forEach((q, r) => {
    const v = values[r]!
    onRows = Math.max(
      onRows,
      Math.abs(d.velocities[q * 3]! - v.vel_x),
      Math.abs(d.velocities[q * 3 + 1]! - v.vel_y),
      Math.abs(d.velocities[q * 3 + 2]! - v.vel_z),
      Math.abs(d.pressures[q]! - v.prs) / 1000,
    )
  })
  const range = (key: keyof ReturnType<typeof field>) => {
    const list = values.map((v) => v[key])
    return [Math.min(...list), Math.max(...list)] as const
  }
  const [pLo, pHi] = range('prs')
  const [vLo, vHi] = range('vel_x')
  let outside = 0
  let worstInterpolation = 0
  for (let q = 0; q < d.fluidCount; q++) {
    const p = d.pressures[q]!
    const vx = d.velocities[q * 3]!
    if (p < pLo - 1e-9 || p > pHi + 1e-9 || vx < vLo - 1e-12 || vx > vHi + 1e-12) outside++
    const exact = field(d.positions[q * 3]!, d.positions[q * 3 + 1]!, d.positions[q * 3 + 2]!)
    worstInterpolation = Math.max(worstInterpolation, Math.abs(vx - exact.vel_x) / (vHi - vLo))
  }
  const note = `dp ${dp} m, ${d.fluidCount} particles, ${rows.length} rows`
  return [
    metric(TABLE, 'max |value − table value| at particles on its rows', onRows, 1e-9, note),
    metric(TABLE, "particles with a value outside the rows' range", outside, 0),
    reported(
      TABLE,
      'max |vel_x − the linear field| / its range (inverse-distance weighting)',
      worstInterpolation,
    ),
  ]
}

/** The three pointcloud and initial condition cases at particle diameter dp. */
export async function runPointcloudCases(
  options: PointcloudCaseOptions,
): Promise<ValidationMetric[]> {
  return [
    ...(await runRestart(options)),
    ...(await runBlock(options)),
    ...runTable(options),
  ]
}
