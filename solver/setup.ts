/**
 * What a run needs, gathered by the server from the database and storage and handed to the
 * discretizer and the solver (worker threads, no database): settings, materials, parts, movements
 * and the decoded triangle mesh of every part whose shape is an uploaded file.
 */
import type { AirDragDomain } from '../domain/airDrag.ts'
import type { Material } from '../domain/materials.ts'
import type { Refinement } from '../domain/meshes.ts'
import type { PeriodicBoundary } from '../domain/periodic.ts'
import type { Movement } from '../domain/movements.ts'
import type { Part } from '../domain/parts.ts'
import type { SimulationSettings } from '../domain/settings.ts'
import type { TriangleMesh } from './geometry/mesh.ts'

/** A sensor the run samples while stepping (domain/sensorSampling.ts; the others are not listed). */
export interface RunSensor {
  id: number
  kind: 'point' | 'surface'
  /** Sample points, x, y, z each (m): the point, or a surface sensor's triangle centroids. */
  points: number[]
  /** 'every_step', or samples per second of simulated time. */
  sampleRate: 'every_step' | number
}

/**
 * The particles a pointcloud part takes from another simulation's output (its fluid objects,
 * read by the server): world metres as written, with the velocities, pressures and densities the
 * output holds (null where it has no such column), and the reference's particle diameter.
 */
export interface ReferencePointCloud {
  refSimulationId: number
  refSimulationOutput: number
  /** The reference simulation's particle diameter, m: the run's particle diameter. */
  particleDiameter: number
  count: number
  /** x, y, z per particle, m. */
  positions: Float32Array
  /** vx, vy, vz per particle, m/s; null: the output has no velocity. */
  velocities: Float32Array | null
  /** Pa; null: the output has no pressure column. */
  pressures: Float32Array | null
  /** kg/m³; null: the output has no density column. */
  densities: Float32Array | null
}

/** One output of the reference simulation of an air drag domain of kind simulation. */
export interface AirDragReferenceFrame {
  outputNo: number
  /** The output's time in the reference run, s. */
  timeS: number
  /** x, y, z of its fluid particles, m. */
  positions: Float32Array
  /** vx, vy, vz of its fluid particles, m/s. */
  velocities: Float32Array
}

/** An initial distribution table as the discretizer reads it: its headers and column map. */
export interface RunDatatable {
  headers: string[]
  table: Record<string, (number | null)[]>
}

/** Everything a discretization or a run of one simulation reads. */
export interface RunSetup {
  simulationId: number
  settings: SimulationSettings
  materials: Material[]
  parts: Part[]
  movements: Movement[]
  /**
   * Meshes of 'stl' parts by part id, in the file's own coordinates (metres, before the part's
   * translation, rotation and scale). 'plane' and 'stl_cube' parts are built from their shape.
   */
  meshes: Record<number, TriangleMesh>
  /** Sensors sampled while the run steps; absent or empty: none. */
  sensors?: RunSensor[]
  /** Refinement zones; absent or empty: none (solver/discretizer/refinement.ts splits in them). */
  refinements?: Refinement[]
  /** The periodic boundary (at most one); absent or empty: none (refused for now). */
  periodics?: PeriodicBoundary[]
  /** The particles of each pointcloud part by part id; a part without an entry is refused. */
  pointClouds?: Record<number, ReferencePointCloud>
  /**
   * The initial distribution tables the parts name, the materials' viscosity tables and the air
   * drag domain's velocity table, by id.
   */
  datatables?: Record<number, RunDatatable>
  /** The air drag domain (read while settings.airDrag is on); absent or null: none. */
  airDragDomain?: AirDragDomain | null
  /** The reference outputs of an air drag domain of kind simulation, in output order. */
  airDragFrames?: AirDragReferenceFrame[]
}
