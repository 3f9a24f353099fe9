/**
 * Seeded synthetic outputs for tests, fixtures and benches: a dam break (or a sloshing tank) at a
 * given time, written through the same writer the solver uses. Particles sit on a lattice (with a
 * little jitter) inside the water body, with velocity, hydrostatic plus dynamic pressure, density
 * from Tait's equation and mass; the tank is a wall as particles and as a triangle mesh with
 * pressure per vertex; an open boundary and a volume clip mask are optional.
 * Everything is typed arrays: 5,000,000 particles generate in 1–2 s.
 */
import type { OutputInput, MaskObjectInput, ParticleObjectInput } from './writer.ts'
import { writeOutput, type WrittenOutput } from './writer.ts'
import { OutputFormatError } from '../outputFormat.ts'
import {
  createDamBreak,
  createSloshing,
  WATER_DENSITY,
  createPressureModel,
  type FlowModel,
} from './syntheticFlow.ts'
import { buildWallMesh, fillOpenBoundary, fillWallParticles } from './syntheticWalls.ts'
import { createRandom } from '../random.ts'

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
