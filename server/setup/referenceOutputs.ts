import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import * as v from 'valibot'
import { objectFile, runNumericsFile } from '../../domain/output/layout.ts'
import { readObjectStream } from '../../domain/output/reader.ts'
import type { Shape } from '../../domain/parts.ts'
import { RunNumericsSchema } from '../../domain/runNumerics.ts'
import { rotationMatrixFromDegrees } from '../../solver/geometry/mesh.ts'
import type { ReferencePointCloud } from '../../solver/setup.ts'
import { readSettings } from '../api/views.ts'
import type { Database } from '../db/schema.ts'
import { readOutputManifest } from '../results/outputFiles.ts'

/*
 * The particles a pointcloud part takes from another simulation of the organization: the fluid
 * objects of one output of the reference's active run (full dataset), with its velocities,
 * pressures and densities where written, and the particle diameter that run used (its
 * numerics.json, else the reference's settings).
 */

type Db = Kysely<Database>
type PointcloudShape = Extract<Shape, { type: 'pointcloud' }>

async function readNumericsDiameter(
  dataDir: string,
  simulationId: number,
  runId: number,
): Promise<number | null> {
  try {
    const text = await readFile(join(dataDir, runNumericsFile(simulationId, runId)), 'utf8')
    const parsed = v.safeParse(RunNumericsSchema, JSON.parse(text))
    return parsed.success ? parsed.output.particleDiameter : null
  } catch {
    return null
  }
}

function concat(parts: readonly (Float32Array | undefined)[], lengths: readonly number[]) {
  if (parts.some((p) => p === undefined)) return null
  const out = new Float32Array(lengths.reduce((a, b) => a + b, 0))
  let offset = 0
  parts.forEach((p, i) => {
    out.set(p!.subarray(0, lengths[i]), offset)
    offset += lengths[i]!
  })
  return out
}

/**
 * The fluid particles of output `refSimulationOutput` of simulation `refSimulationId`, if it is a
 * simulation of `organizationId` whose active run wrote that output; else null (the discretizer
 * then reports the part).
 */
export async function readReferenceCloud(
  db: Db,
  dataDir: string,
  organizationId: number,
  shape: PointcloudShape,
): Promise<ReferencePointCloud | null> {
  const { refSimulationId, refSimulationOutput } = shape
  if (refSimulationId === null || refSimulationOutput === null) return null
  const reference = await db
    .selectFrom('simulations')
    .select(['id', 'active_run_id', 'settings'])
    .where('id', '=', refSimulationId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  if (!reference || reference.active_run_id === null) return null
  const runId = reference.active_run_id
  const manifest = await readOutputManifest(dataDir, reference.id, runId, refSimulationOutput)
  if (!manifest) return null
  const fluids = manifest.objects.filter((object) => object.kind === 'fluid')
  const views = await Promise.all(
    fluids.map(async (object) =>
      readObjectStream(
        await readFile(
          join(
            dataDir,
            objectFile(reference.id, runId, refSimulationOutput, object.objectId, 'full'),
          ),
        ),
      ),
    ),
  )
  const lengths = views.map((view) => view.rowCount)
  const column = (name: string) =>
    concat(
      views.map((view) => view.columns[name]),
      lengths,
    )
  const interleave = (names: readonly string[]) => {
    const columns = names.map(column)
    if (columns.some((c) => c === null)) return null
    const count = lengths.reduce((a, b) => a + b, 0)
    const out = new Float32Array(count * 3)
    for (let i = 0; i < count; i++) for (let c = 0; c < 3; c++) out[i * 3 + c] = columns[c]![i]!
    return out
  }
  const positions = interleave(['x', 'y', 'z'])
  if (!positions) return null
  const particleDiameter =
    (await readNumericsDiameter(dataDir, reference.id, runId)) ??
    readSettings(reference.settings).particleDiameter
  if (particleDiameter === null || !(particleDiameter > 0)) return null
  return {
    refSimulationId,
    refSimulationOutput,
    particleDiameter,
    count: positions.length / 3,
    positions,
    velocities: interleave(['vx', 'vy', 'vz']),
    pressures: column('pressure'),
    densities: column('density'),
  }
}

/** The cloud's positions turned and moved by the part's rotation and translation (the discretizer's placement). */
export function placeCloudPositions(shape: PointcloudShape, positions: Float32Array): Float32Array {
  const r = rotationMatrixFromDegrees(shape.rotation)
  const t = shape.translation.map((c) => c ?? 0)
  const out = new Float32Array(positions.length)
  for (let i = 0; i + 2 < positions.length; i += 3) {
    const x = positions[i]!
    const y = positions[i + 1]!
    const z = positions[i + 2]!
    for (let c = 0; c < 3; c++)
      out[i + c] = r[c * 3]! * x + r[c * 3 + 1]! * y + r[c * 3 + 2]! * z + t[c]!
  }
  return out
}
