import type { Kysely } from 'kysely'
import type { TriangleMesh } from '../../solver/geometry/mesh.ts'
import type { RunSetup } from '../../solver/setup.ts'
import type { Database } from '../db/schema.ts'
import { listRunSensors } from '../sensors/series.ts'
import { readStoredMesh } from '../storage/files.ts'
import { checkStoredSetup, readSetup, summarizeSetupValidation } from './store.ts'

/*
 * What the jobs need from the setup: the whole setup of a simulation as solver/setup.ts RunSetup
 * (with the decoded mesh of every 'stl' part), and whether it may be discretized and run.
 */

type Db = Kysely<Database>

/** The setup of a simulation could not be read (missing simulation or stored mesh file). */
export class RunSetupError extends Error {
  override name = 'RunSetupError'
}

/**
 * Settings, materials, parts, movements, the meshes of 'stl' parts by part id (metres, the file's
 * own coordinates; plane and stl_cube parts are built from their shape by the discretizer) and the
 * sensors the run samples while stepping (those with a sample rate, with their points).
 */
export async function loadRunSetup(
  db: Db,
  dataDir: string,
  simulationId: number,
): Promise<RunSetup> {
  const simulation = await db
    .selectFrom('simulations')
    .selectAll()
    .where('id', '=', simulationId)
    .executeTakeFirst()
  if (!simulation) throw new RunSetupError(`Simulation ${simulationId} not found.`)
  const setup = await readSetup(db, simulation)
  const meshes: Record<number, TriangleMesh> = {}
  for (const part of setup.parts) {
    if (part.shape.type !== 'stl' || part.shape.fileId === null) continue
    const upload = await db
      .selectFrom('uploads')
      .select('stored_path')
      .where('id', '=', part.shape.fileId)
      .where('organization_id', '=', simulation.organization_id)
      .executeTakeFirst()
    if (!upload) throw new RunSetupError(`The STL file of part "${part.name}" was not found.`)
    try {
      meshes[part.id] = await readStoredMesh(dataDir, upload.stored_path)
    } catch (error) {
      throw new RunSetupError(`The STL file of part "${part.name}" could not be read.`, {
        cause: error,
      })
    }
  }
  return {
    simulationId,
    settings: setup.settings,
    materials: setup.materials,
    parts: setup.parts,
    movements: setup.movements,
    meshes,
    sensors: await listRunSensors(db, simulationId),
    refinements: setup.refinements,
    periodics: setup.periodics,
  }
}

/**
 * The Input Validation bar of a simulation's setup and whether it may run: `runnable` is false
 * while an error or a missing value exists, and `message` is then 'There are errors in your
 * setup. Please check the Input Validation bar.'
 */
export async function checkRunnableSetup(db: Db, simulationId: number) {
  const simulation = await db
    .selectFrom('simulations')
    .selectAll()
    .where('id', '=', simulationId)
    .executeTakeFirst()
  if (!simulation) throw new RunSetupError(`Simulation ${simulationId} not found.`)
  return summarizeSetupValidation(checkStoredSetup(await readSetup(db, simulation)))
}
