/**
 * Writes a synthetic run for one simulation into a data directory, file by file as the solver
 * would (domain/output/layout.ts): N outputs of M fluid particles from domain/output/synthetic.ts
 * through the same writer, each output's manifest.json last. For the e2e tests and the bench; real
 * runs come from the solver.
 *
 *   npx tsx scripts/writeSyntheticRun.ts --data-dir data --simulation 1 --run 1 \
 *     --outputs 10 --particles 200000 [--interval-s 0.05] [--scenario dam_break|sloshing] [--activate]
 *
 * --activate also marks the simulation completed with this run active, in the server's database
 * (DATABASE_URL, else {data-dir}/dive.sqlite), so the Results page opens on it.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import {
  OUTPUT_MANIFEST_FILE,
  objectFile,
  outputDirectory,
  type ManifestObject,
  type OutputManifest,
} from '../domain/output/layout.ts'
import {
  SYNTHETIC_OBJECT_IDS,
  SYNTHETIC_SCENARIOS,
  generateOutput,
  type SyntheticScenario,
} from '../domain/output/synthetic.ts'
import { writeOutput } from '../domain/output/writer.ts'
import {
  FORMAT_MINOR_VERSION,
  FORMAT_VERSION,
  POSITION_COLUMNS,
  WRITTEN_DATASETS,
  formatVersionString,
} from '../domain/outputFormat.ts'

/** Object ids on disk must be file-name safe (layout.ts); the generator's mask id is not. */
export const SYNTHETIC_RUN_OBJECT_IDS = {
  fluid: SYNTHETIC_OBJECT_IDS.fluid,
  wall: SYNTHETIC_OBJECT_IDS.wall,
  openBoundary: SYNTHETIC_OBJECT_IDS.openBoundary,
  volumeClip: 'clip-1',
} as const

const OBJECT_NAMES: Record<string, { name: string; sourceId: number }> = {
  [SYNTHETIC_RUN_OBJECT_IDS.fluid]: { name: 'Fluid 1', sourceId: 0 },
  [SYNTHETIC_RUN_OBJECT_IDS.wall]: { name: 'Tank', sourceId: 1 },
  [SYNTHETIC_RUN_OBJECT_IDS.openBoundary]: { name: 'Outlet', sourceId: 2 },
  [SYNTHETIC_RUN_OBJECT_IDS.volumeClip]: { name: 'Volume Clip 1', sourceId: 0 },
}

/** Options of {@link writeSyntheticRun}. */
export interface SyntheticRunOptions {
  dataDir: string
  simulationId: number
  runId: number
  outputCount: number
  particles: number
  /** Simulated time between outputs. Default 0.05 s. */
  intervalS?: number
  scenario?: SyntheticScenario
  /** First output number. Default 0. */
  firstOutputNo?: number
}

/** Writes one output's object files, then its manifest (renamed into place: complete or absent). */
async function writeSyntheticOutput(
  options: SyntheticRunOptions,
  outputNo: number,
): Promise<OutputManifest> {
  const timeS = outputNo * (options.intervalS ?? 0.05)
  const input = generateOutput({
    particles: options.particles,
    timeS,
    seed: outputNo + 1,
    simulationId: options.simulationId,
    runId: options.runId,
    outputNo,
    scenario: options.scenario ?? 'dam_break',
  })
  const objects = input.objects.map((object) =>
    object.kind === 'volume_clip'
      ? { ...object, objectId: SYNTHETIC_RUN_OBJECT_IDS.volumeClip }
      : object,
  )
  const written = writeOutput({ ...input, objects })
  const manifestObjects: ManifestObject[] = []
  for (const object of objects) {
    const full = written.full.get(object.objectId)
    const fast = written.fast.get(object.objectId)
    if (!full || !fast) throw new Error(`The writer left out ${object.objectId}`)
    for (const dataset of WRITTEN_DATASETS) {
      const bytes = (dataset === 'full' ? full : fast).bytes
      const path = join(
        options.dataDir,
        objectFile(options.simulationId, options.runId, outputNo, object.objectId, dataset),
      )
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, bytes)
    }
    const known = OBJECT_NAMES[object.objectId] ?? { name: object.objectId, sourceId: 0 }
    manifestObjects.push({
      objectId: object.objectId,
      kind: object.kind,
      name: known.name,
      sourceId: known.sourceId,
      columns:
        object.kind === 'volume_clip'
          ? []
          : Object.keys(object.columns).filter(
              (name) => !(POSITION_COLUMNS as readonly string[]).includes(name),
            ),
      particleCount: { full: full.particleCount, fast: fast.particleCount },
      triangleCount: full.triangleCount,
      sizeBytes: { full: full.bytes.length, fast: fast.bytes.length },
    })
  }
  const manifest: OutputManifest = {
    formatVersion: formatVersionString({ major: FORMAT_VERSION, minor: FORMAT_MINOR_VERSION }),
    simulationId: options.simulationId,
    runId: options.runId,
    outputNo,
    timeS,
    objects: manifestObjects,
  }
  const directory = join(
    options.dataDir,
    outputDirectory(options.simulationId, options.runId, outputNo),
  )
  const partial = join(directory, `${OUTPUT_MANIFEST_FILE}.partial`)
  await writeFile(partial, JSON.stringify(manifest, null, 2))
  await rename(partial, join(directory, OUTPUT_MANIFEST_FILE))
  return manifest
}

/** Writes `outputCount` outputs of a synthetic run and returns their manifests in order. */
export async function writeSyntheticRun(options: SyntheticRunOptions): Promise<OutputManifest[]> {
  const first = options.firstOutputNo ?? 0
  const manifests: OutputManifest[] = []
  for (let outputNo = first; outputNo < first + options.outputCount; outputNo++)
    manifests.push(await writeSyntheticOutput(options, outputNo))
  return manifests
}

/** Marks the simulation completed with `runId` active, so the Results page opens on it. */
export async function activateSyntheticRun(
  dataDir: string,
  simulationId: number,
  runId: number,
): Promise<void> {
  const { openDatabase } = await import('../server/db/connect.ts')
  const handle = openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    sqlitePath: join(dataDir, 'dive.sqlite'),
  })
  try {
    const result = await handle.db
      .updateTable('simulations')
      .set({ state: 'completed', active_run_id: runId, updated_at: new Date().toISOString() })
      .where('id', '=', simulationId)
      .executeTakeFirst()
    if (result.numUpdatedRows === 0n) throw new Error(`Simulation ${simulationId} does not exist`)
  } finally {
    await handle.db.destroy()
  }
}

function positiveInteger(text: string | undefined, name: string, fallback?: number): number {
  if (text === undefined && fallback !== undefined) return fallback
  const value = Number(text)
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} must be an integer`)
  return value
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string', default: process.env.DIVE_DATA_DIR ?? 'data' },
      simulation: { type: 'string' },
      run: { type: 'string', default: '1' },
      outputs: { type: 'string', default: '10' },
      particles: { type: 'string', default: '100000' },
      'interval-s': { type: 'string', default: '0.05' },
      scenario: { type: 'string', default: 'dam_break' },
      activate: { type: 'boolean', default: false },
    },
  })
  const scenario = values.scenario as SyntheticScenario
  if (!SYNTHETIC_SCENARIOS.includes(scenario))
    throw new Error(`--scenario must be one of ${SYNTHETIC_SCENARIOS.join(', ')}`)
  const options: SyntheticRunOptions = {
    dataDir: resolve(values['data-dir']),
    simulationId: positiveInteger(values.simulation, 'simulation'),
    runId: positiveInteger(values.run, 'run'),
    outputCount: positiveInteger(values.outputs, 'outputs'),
    particles: positiveInteger(values.particles, 'particles'),
    intervalS: Number(values['interval-s']),
    scenario,
  }
  const startedMs = performance.now()
  const manifests = await writeSyntheticRun(options)
  if (values.activate)
    await activateSyntheticRun(options.dataDir, options.simulationId, options.runId)
  const elapsedS = ((performance.now() - startedMs) / 1000).toFixed(1)
  console.log(
    `Wrote ${manifests.length} outputs of ${options.particles} particles for simulation ${options.simulationId}, run ${options.runId} in ${elapsedS} s`,
  )
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
