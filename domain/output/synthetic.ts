/**
 * Seeded synthetic outputs for tests, fixtures and benches: a dam break (or a sloshing tank) at a
 * given time, written through the same writer the solver uses. Particles sit on a lattice (with a
 * little jitter) inside the water body, with velocity, hydrostatic plus dynamic pressure, density
 * from Tait's equation and mass; the tank is a wall as particles and as a triangle mesh with
 * pressure per vertex; an open boundary and a volume clip mask are optional.
 * Everything is typed arrays: 5,000,000 particles generate in 1–2 s.
 */
import type { OutputInput, MaskObjectInput, MeshInput, ParticleObjectInput } from './writer.ts'
import { writeOutput, type WrittenOutput } from './writer.ts'
import { OutputFormatError } from '../outputFormat.ts'

/** Flows the generator can produce. */
export const SYNTHETIC_SCENARIOS = ['dam_break', 'sloshing'] as const
/** One synthetic flow. */
export type SyntheticScenario = (typeof SYNTHETIC_SCENARIOS)[number]

/** Most fluid particles one synthetic output may have (the engine's particle limit is 5M). */
export const SYNTHETIC_MAX_PARTICLES = 20_000_000

/** Options of {@link generateOutput}. */
export interface SyntheticOutputOptions {
  /** Fluid particles, exactly (walls and boundaries come on top, at the same spacing). */
  particles: number
  /** Simulated time of the output, seconds. */
  timeS: number
  /** Seed of the jitter and noise; the same options always give the same output. Default 1. */
  seed?: number
  simulationId?: number
  runId?: number | null
  outputNo?: number
  scenario?: SyntheticScenario
  /** Add an outflow patch as an open boundary object. Default false. */
  openBoundary?: boolean
  /** Add volume clip `clip-1` (downstream half of the tank) as a mask over the fluid. Default true. */
  volumeClip?: boolean
  /** Mesh cells along the tank's longest edge. Default 48. */
  meshCellsPerEdge?: number
}

/** Object ids the generator uses. */
export const SYNTHETIC_OBJECT_IDS = {
  fluid: 'fluid-0',
  wall: 'wall-1',
  openBoundary: 'outlet-2',
  volumeClip: 'clip-1@fluid-0',
} as const

const GRAVITY = 9.81
const WATER_DENSITY = 1000
const TAIT_GAMMA = 7
const PROFILE_BINS = 1024

/** A free surface and velocity field in a box tank [0, L] × [0, W] × [0, H]. */
interface FlowModel {
  lengthM: number
  widthM: number
  heightM: number
  volumeM3: number
  maxDepthM: number
  surfaceAt(x: number): number
  /** Writes vx, vz and the dynamic pressure (Pa) at (x, z) into `out`. */
  sample(x: number, z: number, out: Float64Array): void
}

/** mulberry32: small, fast, good enough for jitter and noise. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function binOf(x: number, lengthM: number): number {
  const bin = Math.floor((x / lengthM) * PROFILE_BINS)
  return bin < 0 ? 0 : bin >= PROFILE_BINS ? PROFILE_BINS - 1 : bin
}

/**
 * Dam break after Martin & Moyce: a column a = 1 m wide, h0 = 2 m high at the left of a 4 m tank.
 * Until the front reaches the far wall the surface follows Ritter's dry-bed solution
 * h = (2c0 − ξ/t)² / 9g, u = 2/3 (c0 + ξ/t); afterwards a bore runs back and forth over a level
 * that relaxes to the still depth. The profile is rescaled so the water volume stays constant.
 */
function createDamBreak(timeS: number): FlowModel {
  const lengthM = 4
  const widthM = 1
  const heightM = 2.4
  const columnWidthM = 1
  const columnHeightM = 2
  const c0 = Math.sqrt(GRAVITY * columnHeightM)
  const hitS = (lengthM - columnWidthM) / (2 * c0)
  const stillDepthM = (columnWidthM * columnHeightM) / lengthM
  const t = Math.max(timeS, 0)
  const ritter = (x: number, at: number): [number, number] => {
    if (at <= 0) return x < columnWidthM ? [columnHeightM, 0] : [0, 0]
    const xi = x - columnWidthM
    if (xi <= -c0 * at) return [columnHeightM, 0]
    if (xi >= 2 * c0 * at) return [0, 0]
    const s = 2 * c0 - xi / at
    return [(s * s) / (9 * GRAVITY), (2 / 3) * (c0 + xi / at)]
  }
  const binWidthM = lengthM / PROFILE_BINS
  const height = new Float64Array(PROFILE_BINS)
  const velocity = new Float64Array(PROFILE_BINS)
  const afterS = t - hitS
  const boreSpeed = 1.5 * Math.sqrt(GRAVITY * stillDepthM)
  const travelled = (boreSpeed * Math.max(afterS, 0)) % (2 * lengthM)
  const boreX = travelled <= lengthM ? lengthM - travelled : travelled - lengthM
  const boreDirection = travelled <= lengthM ? -1 : 1
  for (let bin = 0; bin < PROFILE_BINS; bin++) {
    const x = (bin + 0.5) * binWidthM
    if (afterS <= 0) {
      ;[height[bin], velocity[bin]] = ritter(x, t)
      continue
    }
    const [baseHeight, baseVelocity] = ritter(x, hitS)
    const decay = Math.exp(-afterS / 1.2)
    const bore = 0.8 * Math.exp(-afterS / 1.0) * Math.exp(-(((x - boreX) / 0.35) ** 2))
    const h = stillDepthM + (baseHeight - stillDepthM) * decay + bore
    height[bin] = h
    velocity[bin] =
      baseVelocity * decay * (1 - (x / lengthM) ** 8) +
      (0.5 * boreDirection * boreSpeed * bore) / Math.max(h, 0.05)
  }
  let area = 0
  for (let bin = 0; bin < PROFILE_BINS; bin++) area += height[bin]! * binWidthM
  const scale = area > 0 ? (columnWidthM * columnHeightM) / area : 1
  for (let bin = 0; bin < PROFILE_BINS; bin++) {
    height[bin] = Math.min(height[bin]! * scale, heightM)
  }
  const slope = new Float64Array(PROFILE_BINS)
  for (let bin = 0; bin < PROFILE_BINS; bin++) {
    const left = velocity[Math.max(bin - 1, 0)]!
    const right = velocity[Math.min(bin + 1, PROFILE_BINS - 1)]!
    slope[bin] = (right - left) / (2 * binWidthM)
  }
  // Impact pressure on the far wall: peaks when the front arrives, decays within ~0.1 s.
  const impactPa = afterS >= 0 ? 0.5 * WATER_DENSITY * (2 * c0) ** 2 * Math.exp(-afterS / 0.08) : 0
  return {
    lengthM,
    widthM,
    heightM,
    volumeM3: columnWidthM * columnHeightM * widthM,
    maxDepthM: columnHeightM,
    surfaceAt: (x) => height[binOf(x, lengthM)]!,
    sample: (x, z, out) => {
      const bin = binOf(x, lengthM)
      out[0] = velocity[bin]!
      // Shallow-water continuity: w = −z ∂u/∂x.
      out[1] = -z * slope[bin]!
      out[2] = impactPa * Math.exp(-(lengthM - x) / 0.2 - z / 0.5)
    },
  }
}

/**
 * First sloshing mode of a 1 m tank filled to d = 0.5 m, linear potential flow:
 * η = A cos(kx) cos(ωt), ω² = g k tanh(kd), u = Aω cosh(kz)/sinh(kd) sin(kx) sin(ωt),
 * w = −Aω sinh(kz)/sinh(kd) cos(kx) sin(ωt), dynamic pressure ρgη (cosh(kz)/cosh(kd) − 1).
 */
function createSloshing(timeS: number): FlowModel {
  const lengthM = 1
  const widthM = 0.4
  const heightM = 1
  const depthM = 0.5
  const amplitudeM = 0.08
  const k = Math.PI / lengthM
  const omega = Math.sqrt(GRAVITY * k * Math.tanh(k * depthM))
  const cosine = Math.cos(omega * timeS)
  const sine = Math.sin(omega * timeS)
  const sinhDepth = Math.sinh(k * depthM)
  const coshDepth = Math.cosh(k * depthM)
  return {
    lengthM,
    widthM,
    heightM,
    volumeM3: lengthM * widthM * depthM,
    maxDepthM: depthM + amplitudeM,
    surfaceAt: (x) => depthM + amplitudeM * Math.cos(k * x) * cosine,
    sample: (x, z, out) => {
      const eta = amplitudeM * Math.cos(k * x) * cosine
      out[0] = ((amplitudeM * omega * Math.cosh(k * z)) / sinhDepth) * Math.sin(k * x) * sine
      out[1] = ((-amplitudeM * omega * Math.sinh(k * z)) / sinhDepth) * Math.cos(k * x) * sine
      out[2] = WATER_DENSITY * GRAVITY * eta * (Math.cosh(k * z) / coshDepth - 1)
    },
  }
}

/** Lattice columns: nx × ny columns at spacing dp, with how many particles each holds. */
interface Lattice {
  spacingM: number
  nx: number
  ny: number
  perColumn: Uint32Array
}

function columnHeights(
  flow: FlowModel,
  spacingM: number,
): { nx: number; ny: number; perX: Uint32Array } {
  const nx = Math.floor(flow.lengthM / spacingM)
  const ny = Math.floor(flow.widthM / spacingM)
  const maxLayers = Math.floor(flow.heightM / spacingM)
  const perX = new Uint32Array(nx)
  for (let i = 0; i < nx; i++) {
    perX[i] = Math.min(Math.floor(flow.surfaceAt((i + 0.5) * spacingM) / spacingM), maxLayers)
  }
  return { nx, ny, perX }
}

function countLattice(flow: FlowModel, spacingM: number): number {
  const { ny, perX } = columnHeights(flow, spacingM)
  let sum = 0
  for (const layers of perX) sum += layers
  return sum * ny
}

/**
 * The lattice holding exactly `particles`: the largest spacing whose lattice holds at least that
 * many, then surplus top-layer particles removed over columns spread by a coprime stride.
 */
function buildLattice(flow: FlowModel, particles: number): Lattice {
  const estimate = Math.cbrt(flow.volumeM3 / particles)
  let low = estimate / 2
  let high = estimate * 2
  for (let tries = 0; countLattice(flow, low) < particles; tries++) {
    if (tries > 40) throw new OutputFormatError('invalid_input', 'No lattice fits the particles.')
    low /= 2
  }
  while (countLattice(flow, high) >= particles) high *= 2
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2
    if (countLattice(flow, middle) >= particles) low = middle
    else high = middle
  }
  const spacingM = low
  const { nx, ny, perX } = columnHeights(flow, spacingM)
  const columns = nx * ny
  const perColumn = new Uint32Array(columns)
  let total = 0
  for (let i = 0; i < nx; i++) {
    perColumn.fill(perX[i]!, i * ny, (i + 1) * ny)
    total += perX[i]! * ny
  }
  let surplus = total - particles
  let stride = Math.max(1, Math.round(columns * 0.618))
  while (greatestCommonDivisor(stride, columns) !== 1) stride++
  while (surplus > 0) {
    for (let step = 0; step < columns && surplus > 0; step++) {
      const column = (step * stride) % columns
      if (perColumn[column]! > 0) {
        perColumn[column] = perColumn[column]! - 1
        surplus--
      }
    }
  }
  return { spacingM, nx, ny, perColumn }
}

function greatestCommonDivisor(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b]
  return a
}

/** Hydrostatic plus dynamic pressure, Tait density. */
interface PressureModel {
  pressureAt(x: number, z: number, noise: number, scratch: Float64Array): number
  densityOf(pressurePa: number): number
}

function createPressureModel(flow: FlowModel): PressureModel {
  // Weakly compressible SPH: speed of sound ten times the largest shallow-water wave speed.
  const soundSpeed = 10 * Math.sqrt(GRAVITY * flow.maxDepthM)
  const taitB = (WATER_DENSITY * soundSpeed ** 2) / TAIT_GAMMA
  const noisePa = 0.01 * WATER_DENSITY * GRAVITY * flow.maxDepthM
  return {
    pressureAt: (x, z, noise, scratch) => {
      const xc = Math.min(Math.max(x, 0), flow.lengthM)
      const zc = Math.max(z, 0)
      flow.sample(xc, zc, scratch)
      const depth = flow.surfaceAt(xc) - zc
      if (depth <= 0) return 0
      return WATER_DENSITY * GRAVITY * depth + scratch[2]! + noise * noisePa
    },
    densityOf: (pressurePa) =>
      WATER_DENSITY * Math.pow(Math.max(1 + pressurePa / taitB, 0.5), 1 / TAIT_GAMMA),
  }
}

function fillFluid(
  flow: FlowModel,
  lattice: Lattice,
  particles: number,
  random: () => number,
): Record<string, Float32Array> {
  const names = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'pressure', 'density', 'mass'] as const
  const columns = Object.fromEntries(names.map((name) => [name, new Float32Array(particles)]))
  const { x, y, z, vx, vy, vz, pressure, density, mass } = columns as Record<
    (typeof names)[number],
    Float32Array
  >
  const { spacingM, nx, ny, perColumn } = lattice
  const pressureModel = createPressureModel(flow)
  const scratch = new Float64Array(3)
  const jitter = 0.05 * spacingM
  mass.fill(WATER_DENSITY * spacingM ** 3)
  let row = 0
  for (let i = 0; i < nx; i++) {
    const px = (i + 0.5) * spacingM
    for (let j = 0; j < ny; j++) {
      const py = (j + 0.5) * spacingM
      const layers = perColumn[i * ny + j]!
      for (let k = 0; k < layers; k++) {
        const pz = (k + 0.5) * spacingM
        x[row] = px + (random() - 0.5) * jitter
        y[row] = py + (random() - 0.5) * jitter
        z[row] = pz + (random() - 0.5) * jitter
        const p = pressureModel.pressureAt(px, pz, random() + random() - 1, scratch)
        vx[row] = scratch[0]! * (1 + 0.02 * (random() - 0.5))
        vy[row] = 0.01 * scratch[0]! * (random() - 0.5)
        vz[row] = scratch[1]!
        pressure[row] = p
        density[row] = pressureModel.densityOf(p)
        row++
      }
    }
  }
  return columns
}

/** The tank's floor and four side walls, one particle layer half a spacing outside the water. */
function fillWallParticles(flow: FlowModel, spacingM: number): Record<string, Float32Array> {
  const nx = Math.max(1, Math.round(flow.lengthM / spacingM))
  const ny = Math.max(1, Math.round(flow.widthM / spacingM))
  const nz = Math.max(1, Math.round(flow.heightM / spacingM))
  const count = nx * ny + 2 * ny * nz + 2 * nx * nz
  const x = new Float32Array(count)
  const y = new Float32Array(count)
  const z = new Float32Array(count)
  const pressure = new Float32Array(count)
  const pressureModel = createPressureModel(flow)
  const scratch = new Float64Array(3)
  const dx = flow.lengthM / nx
  const dy = flow.widthM / ny
  const dz = flow.heightM / nz
  const half = spacingM / 2
  let row = 0
  const put = (px: number, py: number, pz: number): void => {
    x[row] = px
    y[row] = py
    z[row] = pz
    pressure[row] = pressureModel.pressureAt(px, pz, 0, scratch)
    row++
  }
  for (let i = 0; i < nx; i++)
    for (let j = 0; j < ny; j++) put((i + 0.5) * dx, (j + 0.5) * dy, -half)
  for (const px of [-half, flow.lengthM + half]) {
    for (let j = 0; j < ny; j++)
      for (let k = 0; k < nz; k++) put(px, (j + 0.5) * dy, (k + 0.5) * dz)
  }
  for (const py of [-half, flow.widthM + half]) {
    for (let i = 0; i < nx; i++)
      for (let k = 0; k < nz; k++) put((i + 0.5) * dx, py, (k + 0.5) * dz)
  }
  return { x, y, z, pressure }
}

/**
 * The tank as a triangle mesh (floor and four walls, open top), each face a grid of cells with
 * its own vertices; triangles wind counter-clockwise seen from inside the tank.
 */
function buildWallMesh(flow: FlowModel, cellsPerEdge: number): MeshInput {
  const cellM = Math.max(flow.lengthM, flow.widthM, flow.heightM) / cellsPerEdge
  const cells = (extentM: number): number => Math.max(1, Math.round(extentM / cellM))
  const { lengthM: L, widthM: W, heightM: H } = flow
  // Each face: origin, two edge vectors (u × v points into the tank).
  const faces: [number[], number[], number[]][] = [
    [
      [0, 0, 0],
      [0, W, 0],
      [L, 0, 0],
    ],
    [
      [0, 0, 0],
      [0, 0, H],
      [0, W, 0],
    ],
    [
      [L, 0, 0],
      [0, W, 0],
      [0, 0, H],
    ],
    [
      [0, 0, 0],
      [L, 0, 0],
      [0, 0, H],
    ],
    [
      [0, W, 0],
      [0, 0, H],
      [L, 0, 0],
    ],
  ]
  const grids = faces.map(([, u, v]) => [cells(Math.hypot(...u)), cells(Math.hypot(...v))])
  const vertexCount = grids.reduce((sum, [m, n]) => sum + (m! + 1) * (n! + 1), 0)
  const triangleCount = grids.reduce((sum, [m, n]) => sum + 2 * m! * n!, 0)
  const x = new Float32Array(vertexCount)
  const y = new Float32Array(vertexCount)
  const z = new Float32Array(vertexCount)
  const pressure = new Float32Array(vertexCount)
  const indices = new Uint32Array(3 * triangleCount)
  const pressureModel = createPressureModel(flow)
  const scratch = new Float64Array(3)
  let vertex = 0
  let index = 0
  faces.forEach(([origin, u, v], face) => {
    const [m, n] = grids[face] as [number, number]
    const first = vertex
    for (let b = 0; b <= n; b++) {
      for (let a = 0; a <= m; a++) {
        const px = origin[0]! + (u[0]! * a) / m + (v[0]! * b) / n
        const py = origin[1]! + (u[1]! * a) / m + (v[1]! * b) / n
        const pz = origin[2]! + (u[2]! * a) / m + (v[2]! * b) / n
        x[vertex] = px
        y[vertex] = py
        z[vertex] = pz
        pressure[vertex] = pressureModel.pressureAt(px, pz, 0, scratch)
        vertex++
      }
    }
    for (let b = 0; b < n; b++) {
      for (let a = 0; a < m; a++) {
        const corner = first + b * (m + 1) + a
        indices.set(
          [corner, corner + 1, corner + m + 2, corner, corner + m + 2, corner + m + 1],
          index,
        )
        index += 6
      }
    }
  })
  return { columns: { x, y, z, pressure }, indices }
}

/** An outflow patch in the far wall, near the floor. */
function fillOpenBoundary(flow: FlowModel, spacingM: number): Record<string, Float32Array> {
  const ny = Math.max(1, Math.round((0.4 * flow.widthM) / spacingM))
  const nz = Math.max(1, Math.round((0.1 * flow.heightM) / spacingM))
  const count = ny * nz
  const names = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'pressure', 'density', 'mass'] as const
  const columns = Object.fromEntries(names.map((name) => [name, new Float32Array(count)]))
  const pressureModel = createPressureModel(flow)
  const scratch = new Float64Array(3)
  const px = flow.lengthM - spacingM / 2
  columns.mass!.fill(WATER_DENSITY * spacingM ** 3)
  for (let j = 0; j < ny; j++) {
    for (let k = 0; k < nz; k++) {
      const row = j * nz + k
      const py = 0.3 * flow.widthM + (j + 0.5) * spacingM
      const pz = (k + 0.5) * spacingM
      const p = pressureModel.pressureAt(px, pz, 0, scratch)
      columns.x![row] = px
      columns.y![row] = py
      columns.z![row] = pz
      columns.vx![row] = scratch[0]!
      columns.vz![row] = scratch[1]!
      columns.pressure![row] = p
      columns.density![row] = pressureModel.densityOf(p)
    }
  }
  return columns
}

/**
 * A synthetic output as the solver would hand it to the writer: fluid `fluid-0` (material 0)
 * with exactly `particles` particles, wall `wall-1` as particles and mesh, optionally open
 * boundary `outlet-2` and the mask `clip-1@fluid-0` (inside where x ≥ half the tank length).
 */
export function generateOutput(options: SyntheticOutputOptions): OutputInput {
  const { particles, timeS } = options
  if (!Number.isInteger(particles) || particles < 1 || particles > SYNTHETIC_MAX_PARTICLES) {
    throw new OutputFormatError(
      'invalid_input',
      `Particles must be an integer from 1 to ${SYNTHETIC_MAX_PARTICLES}.`,
    )
  }
  if (!Number.isFinite(timeS)) throw new OutputFormatError('invalid_input', 'Time must be finite.')
  const flow =
    (options.scenario ?? 'dam_break') === 'dam_break'
      ? createDamBreak(timeS)
      : createSloshing(timeS)
  const random = createRandom(options.seed ?? 1)
  const lattice = buildLattice(flow, particles)
  const fluid = fillFluid(flow, lattice, particles, random)
  const objects: (ParticleObjectInput | MaskObjectInput)[] = [
    { kind: 'fluid', objectId: SYNTHETIC_OBJECT_IDS.fluid, materialId: 0, columns: fluid },
    {
      kind: 'wall_boundary',
      objectId: SYNTHETIC_OBJECT_IDS.wall,
      columns: fillWallParticles(flow, lattice.spacingM),
      mesh: buildWallMesh(flow, options.meshCellsPerEdge ?? 48),
    },
  ]
  if (options.openBoundary ?? false) {
    objects.push({
      kind: 'open_boundary',
      objectId: SYNTHETIC_OBJECT_IDS.openBoundary,
      columns: fillOpenBoundary(flow, lattice.spacingM),
    })
  }
  if (options.volumeClip ?? true) {
    const inside = new Uint8Array(particles)
    const half = flow.lengthM / 2
    const x = fluid.x!
    for (let row = 0; row < particles; row++) inside[row] = x[row]! >= half ? 1 : 0
    objects.push({
      kind: 'volume_clip',
      objectId: SYNTHETIC_OBJECT_IDS.volumeClip,
      targetObjectId: SYNTHETIC_OBJECT_IDS.fluid,
      materialId: 0,
      inside,
    })
  }
  return {
    simulationId: options.simulationId ?? 1,
    runId: options.runId ?? null,
    outputNo: options.outputNo ?? 0,
    timeS,
    objects,
  }
}

/** {@link generateOutput} written through {@link writeOutput}: both datasets, every object. */
export function writeSyntheticOutput(options: SyntheticOutputOptions): WrittenOutput {
  return writeOutput(generateOutput(options))
}
