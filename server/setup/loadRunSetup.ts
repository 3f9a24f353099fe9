import type { Kysely } from 'kysely'
import type { TriangleMesh } from '../../solver/geometry/mesh.ts'
import type { ReferencePointCloud, RunDatatable, RunSetup } from '../../solver/setup.ts'
import type { Database } from '../db/schema.ts'
import { listRunSensors } from '../sensors/series.ts'
import { readStoredMesh } from '../storage/files.ts'
import { readReferenceCloud } from './referenceOutputs.ts'
import { readAirDragFrames, readAirDragTable } from './airDragRun.ts'
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
 * own coordinates; plane and stl_cube parts are built from their shape by the discretizer), the
 * sensors the run samples while stepping (those with a sample rate, with their points), the
 * particles of pointcloud parts (from their reference outputs; the particle diameter is then the
 * reference's), the initial distribution tables the fluid parts use and the materials' viscosity
 * tables (shear rate, temperature), and with settings.airDrag the air drag domain with its velocity
 * table or its reference simulation's outputs (airDragRun.ts).
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
  const pointClouds: Record<number, ReferencePointCloud> = {}
  const datatables: Record<number, RunDatatable> = {}
  for (const part of setup.parts) {
    if (part.shape.type === 'pointcloud') {
      const cloud = await readReferenceCloud(
        db,
        dataDir,
        simulation.organization_id,
        part.shape,
      ).catch(() => null)
      if (cloud) pointClouds[part.id] = cloud
    }
    const tableId = part.component.initialDistributionTableId
    if (part.component.initialDistribution && tableId !== null) {
      const row = await db
        .selectFrom('datatables')
        .select(['headers', 'columns'])
        .where('id', '=', tableId)
        .where('simulation_id', '=', simulationId)
        .executeTakeFirst()
      if (row)
        datatables[tableId] = {
          headers: JSON.parse(row.headers) as string[],
          table: JSON.parse(row.columns) as Record<string, (number | null)[]>,
        }
    }
  }
  // the viscosity tables of the materials (shear-rate and temperature viscosity), and the
  // profiles over time of the open boundaries ('field')
  const openTables = setup.parts.map((part) =>
    part.component.type === 'openboundary' && part.component.ioProfileKind === 'field'
      ? part.component.ioTableId
      : null,
  )
  for (const tableId of [...setup.materials.map(viscosityTableIdOf), ...openTables]) {
    if (tableId === null || datatables[tableId]) continue
    const row = await db
      .selectFrom('datatables')
      .select(['headers', 'columns'])
      .where('id', '=', tableId)
      .where('simulation_id', '=', simulationId)
      .executeTakeFirst()
    if (row)
      datatables[tableId] = {
        headers: JSON.parse(row.headers) as string[],
        table: JSON.parse(row.columns) as Record<string, (number | null)[]>,
      }
  }
  // the air drag domain with its velocity table or reference outputs (settings.airDrag)
  const airDragDomain = setup.settings.airDrag ? setup.airDrag : null
  let airDragFrames: RunSetup['airDragFrames'] = []
  if (airDragDomain) {
    const table = await readAirDragTable(db, simulationId, airDragDomain)
    if (table && airDragDomain.tableId !== null) datatables[airDragDomain.tableId] = table
    airDragFrames = await readAirDragFrames(db, dataDir, simulation.organization_id, airDragDomain)
  }
  const referenceDiameter = Object.values(pointClouds)[0]?.particleDiameter
  return {
    simulationId,
    settings:
      referenceDiameter === undefined
        ? setup.settings
        : { ...setup.settings, particleDiameter: referenceDiameter },
    pointClouds,
    datatables,
    materials: setup.materials,
    parts: setup.parts,
    movements: setup.movements,
    meshes,
    sensors: await listRunSensors(db, simulationId),
    refinements: setup.refinements,
    periodics: setup.periodics,
    airDragDomain,
    airDragFrames,
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

/** The id of the table a material's viscosity reads (null: constant). */
function viscosityTableIdOf(material: RunSetup['materials'][number]): number | null {
  if (material.viscosityKind === 'shear_rate') return material.viscosityShearRateTableId
  if (material.viscosityKind === 'temperature') return material.viscosityTemperatureTableId
  return null
}
