/**
 * One output of a run on disk: the solver's snapshot as output-format objects (one fluid object
 * per material, one wall object per wall part with its wall pressure, one open-boundary object
 * per open-boundary part with its buffer particles), written with writeOutput
 * into the files of domain/output/layout.ts, manifest.json last (its presence marks the output
 * complete; it is written to a temporary name and renamed).
 */
import { mkdir, open, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { ManifestObject, OutputManifest } from '../../domain/output/layout.ts'
import { objectFile, OUTPUT_MANIFEST_FILE, outputDirectory } from '../../domain/output/layout.ts'
import type { ParticleObjectInput } from '../../domain/output/writer.ts'
import { writeOutput } from '../../domain/output/writer.ts'
import {
  FORMAT_MINOR_VERSION,
  FORMAT_VERSION,
  formatVersionString,
  SPH_PARTICLE_COLUMNS,
} from '../../domain/outputFormat.ts'
import type { SolverSnapshot } from '../sph/SphSolver.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { OPEN_BOUNDARY_KIND } from '../sph/snapshot.ts'

/** Object id of the fluid of a material. */
export function fluidObjectId(materialId: number): string {
  return `fluid-${materialId}`
}

/** Object id of the wall particles of a part. */
export function wallObjectId(partId: number): string {
  return `wall-${partId}`
}

/** Object id of the buffer particles of an open-boundary part. */
export function openBoundaryObjectId(partId: number): string {
  return `open-${partId}`
}

/** Columns of a wall object: position, the wall's velocity, its (extrapolated) pressure, density. */
export const WALL_COLUMNS = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'pressure', 'density'] as const

/** Names of materials and parts for the manifest. */
export interface OutputNames {
  material: (materialId: number) => string
  part: (partId: number) => string
}

/** The names of a setup's materials and parts for the manifests. */
export function outputNames(setup: {
  materials: readonly { id: number; name: string }[]
  parts: readonly { id: number; name: string }[]
}): OutputNames {
  const materialNames = new Map(setup.materials.map((m) => [m.id, m.name]))
  const partNames = new Map(setup.parts.map((p) => [p.id, p.name]))
  return {
    material: (id) => materialNames.get(id) ?? `Material ${id}`,
    part: (id) => partNames.get(id) ?? `Part ${id}`,
  }
}

interface ObjectSource {
  input: ParticleObjectInput
  name: string
  sourceId: number
}

function gatherColumns(
  snapshot: SolverSnapshot,
  rows: number[],
  names: readonly string[],
): Record<string, Float32Array> {
  const columns: Record<string, Float32Array> = {}
  for (const name of names) columns[name] = new Float32Array(rows.length)
  const { positions, velocities, pressure, density, mass } = snapshot
  const x = columns.x!
  const y = columns.y!
  const z = columns.z!
  const vx = columns.vx!
  const vy = columns.vy!
  const vz = columns.vz!
  const p = columns.pressure!
  const rho = columns.density!
  const m = columns.mass
  for (let row = 0; row < rows.length; row++) {
    const i = rows[row]!
    x[row] = positions[3 * i]!
    y[row] = positions[3 * i + 1]!
    z[row] = positions[3 * i + 2]!
    vx[row] = velocities[3 * i]!
    vy[row] = velocities[3 * i + 1]!
    vz[row] = velocities[3 * i + 2]!
    p[row] = pressure[i]!
    rho[row] = density[i]!
  }
  if (m) for (let row = 0; row < rows.length; row++) m[row] = mass[rows[row]!]!
  // thermodynamics and viscosity models: only in the columns asked for (fluid objects)
  const extras = [
    ['temperature', snapshot.temperature],
    ['kinematic_viscosity', snapshot.kinematicViscosity],
  ] as const
  for (const [name, values] of extras) {
    const column = columns[name]
    if (column && values) rows.forEach((i, row) => (column[row] = values[i]!))
  }
  return columns
}

/**
 * The columns of a fluid object: SPH_PARTICLE_COLUMNS, with the temperature (thermodynamics) and
 * the kinematic viscosity (a temperature or shear-rate model) where the snapshot has them.
 */
export function fluidColumns(snapshot: SolverSnapshot): string[] {
  const columns: string[] = [...SPH_PARTICLE_COLUMNS]
  if (snapshot.temperature) columns.push('temperature')
  if (snapshot.kinematicViscosity) columns.push('kinematic_viscosity')
  return columns
}

/**
 * The output-format objects of a snapshot: fluids by material, then walls by part, then open
 * boundaries by part.
 */
export function buildOutputObjects(snapshot: SolverSnapshot, names: OutputNames): ObjectSource[] {
  const fluidRows = new Map<number, number[]>()
  const wallRows = new Map<number, number[]>()
  const openRows = new Map<number, number[]>()
  // neighbours in id order mostly share their object: look it up only when it changes
  let lastMap: Map<number, number[]> | null = null
  let lastKey = 0
  let rows: number[] = []
  for (let i = 0; i < snapshot.count; i++) {
    const kind = snapshot.kind[i]
    const fluid = kind === PARTICLE_KIND.fluid
    const map = fluid ? fluidRows : kind === OPEN_BOUNDARY_KIND ? openRows : wallRows
    const key = fluid ? snapshot.materialId[i]! : snapshot.partId[i]!
    if (map !== lastMap || key !== lastKey) {
      let found = map.get(key)
      if (!found) map.set(key, (found = []))
      rows = found
      lastMap = map
      lastKey = key
    }
    rows.push(i)
  }
  const objects: ObjectSource[] = []
  for (const [materialId, rows] of [...fluidRows].sort((a, b) => a[0] - b[0])) {
    objects.push({
      input: {
        kind: 'fluid',
        objectId: fluidObjectId(materialId),
        materialId,
        columns: gatherColumns(snapshot, rows, fluidColumns(snapshot)),
      },
      name: names.material(materialId),
      sourceId: materialId,
    })
  }
  for (const [partId, rows] of [...wallRows].sort((a, b) => a[0] - b[0])) {
    objects.push({
      input: {
        kind: 'wall_boundary',
        objectId: wallObjectId(partId),
        columns: gatherColumns(snapshot, rows, WALL_COLUMNS),
      },
      name: names.part(partId),
      sourceId: partId,
    })
  }
  // open boundaries: their buffer particles (solver/sph/openBoundary.ts)
  for (const [partId, rows] of [...openRows].sort((a, b) => a[0] - b[0])) {
    objects.push({
      input: {
        kind: 'open_boundary',
        objectId: openBoundaryObjectId(partId),
        columns: gatherColumns(snapshot, rows, WALL_COLUMNS),
      },
      name: names.part(partId),
      sourceId: partId,
    })
  }
  return objects
}

/** Where and as what an output is written. */
export interface OutputTarget {
  dataDir: string
  simulationId: number
  runId: number
  outputNo: number
  timeS: number
}

/**
 * Writes every object file of one output, then its manifest; returns the manifest. `pause` is
 * awaited between the long pieces of host work (a run that steps meanwhile lets its loop in).
 */
export async function writeRunOutput(
  target: OutputTarget,
  snapshot: SolverSnapshot,
  names: OutputNames,
  pause: () => Promise<void> = () => Promise.resolve(),
): Promise<OutputManifest> {
  const { dataDir, simulationId, runId, outputNo, timeS } = target
  const sources = buildOutputObjects(snapshot, names)
  await pause()
  const written = writeOutput({
    simulationId,
    runId,
    outputNo,
    timeS,
    objects: sources.map((source) => source.input),
  })
  const directory = join(dataDir, outputDirectory(simulationId, runId, outputNo))
  await mkdir(directory, { recursive: true })
  const objects: ManifestObject[] = []
  for (const source of sources) {
    const id = source.input.objectId
    const full = written.full.get(id)!
    const fast = written.fast.get(id)!
    for (const object of [full, fast]) {
      const path = join(dataDir, objectFile(simulationId, runId, outputNo, id, object.dataset))
      await writeFile(path, object.bytes)
    }
    objects.push({
      objectId: id,
      kind: source.input.kind,
      name: source.name,
      sourceId: source.sourceId,
      columns: Object.keys(source.input.columns).filter((c) => c !== 'x' && c !== 'y' && c !== 'z'),
      particleCount: { full: full.particleCount, fast: fast.particleCount },
      triangleCount: full.triangleCount,
      sizeBytes: { full: full.bytes.length, fast: fast.bytes.length },
    })
  }
  const manifest: OutputManifest = {
    formatVersion: formatVersionString({ major: FORMAT_VERSION, minor: FORMAT_MINOR_VERSION }),
    simulationId,
    runId,
    outputNo,
    timeS,
    objects,
  }
  const path = join(directory, OUTPUT_MANIFEST_FILE)
  await writeFile(`${path}.tmp`, JSON.stringify(manifest, null, 1))
  await rename(`${path}.tmp`, path)
  return manifest
}

/**
 * Writes a file, creating its directory; through a temporary name so a reader never sees half.
 * Parts are written one after the other (a large file without concatenating its parts first).
 */
export async function writeFileAtomically(
  path: string,
  bytes: Uint8Array | string | readonly Uint8Array[],
): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  if (Array.isArray(bytes)) {
    const file = await open(`${path}.tmp`, 'w')
    try {
      for (const part of bytes as readonly Uint8Array[]) await file.writeFile(part)
    } finally {
      await file.close()
    }
  } else await writeFile(`${path}.tmp`, bytes as Uint8Array | string)
  await rename(`${path}.tmp`, path)
}
