/**
 * What must hold after a server was killed and started again on the same data (issue 13's fault
 * suite): nothing half-written is visible, sizes are the bytes on disk and credits add up. Each
 * check returns the problems it found as sentences (empty: it holds).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { Database } from '../../server/db/schema.ts'
import { OUTPUT_MANIFEST_FILE } from '../../domain/output/layout.ts'

type Db = Kysely<Database>

/** Bytes of the files under `path` (0 when absent). */
export function bytesUnder(path: string): number {
  if (!existsSync(path)) return 0
  const stats = statSync(path)
  if (stats.isFile()) return stats.size
  if (!stats.isDirectory()) return 0
  return readdirSync(path).reduce((sum, entry) => sum + bytesUnder(join(path, entry)), 0)
}

/** Files under `root` (relative paths) whose names end with one of `suffixes`. */
export function filesEndingWith(root: string, suffixes: readonly string[]): string[] {
  const found: string[] = []
  const walk = (relative: string) => {
    const path = join(root, relative)
    if (!existsSync(path)) return
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = relative === '' ? entry.name : join(relative, entry.name)
      if (entry.isDirectory()) walk(child)
      else if (suffixes.some((suffix) => entry.name.endsWith(suffix))) found.push(child)
    }
  }
  walk('')
  return found
}

const SIMULATION_ROOTS = ['simulations', 'discretizations', 'assemblies']
const UPLOAD_ROOTS = ['uploads', 'images']

export function simulationBytesOnDisk(dataDir: string, simulationId: number): number {
  return SIMULATION_ROOTS.reduce(
    (sum, root) => sum + bytesUnder(join(dataDir, root, String(simulationId))),
    0,
  )
}

/** Every byte an organization owns on disk: its simulations' directories and its uploads. */
export async function organizationBytesOnDisk(
  db: Db,
  dataDir: string,
  organizationId: number,
): Promise<number> {
  const simulations = await db
    .selectFrom('simulations')
    .select('id')
    .where('organization_id', '=', organizationId)
    .execute()
  return (
    simulations.reduce((sum, s) => sum + simulationBytesOnDisk(dataDir, s.id), 0) +
    UPLOAD_ROOTS.reduce(
      (sum, root) => sum + bytesUnder(join(dataDir, root, String(organizationId))),
      0,
    )
  )
}

/** Temporaries of cut writes that no start may leave behind. */
export const TEMPORARY_SUFFIXES = ['.part', '.partial', '.tmp']

export function checkNoTemporaries(dataDir: string): string[] {
  return filesEndingWith(dataDir, TEMPORARY_SUFFIXES).map(
    (path) => `a temporary is left after the start: ${path}`,
  )
}

/** Every upload row has its stored file, of the size it records. */
export async function checkUploads(db: Db, dataDir: string): Promise<string[]> {
  const problems: string[] = []
  for (const upload of await db
    .selectFrom('uploads')
    .select(['id', 'stored_path', 'size_bytes'])
    .execute()) {
    const path = join(dataDir, upload.stored_path)
    if (upload.stored_path === '' || !existsSync(path))
      problems.push(`upload ${upload.id} has no file (${upload.stored_path || 'no path'})`)
    else if (statSync(path).size !== Number(upload.size_bytes))
      problems.push(
        `upload ${upload.id} records ${upload.size_bytes} bytes, its file has ${statSync(path).size}`,
      )
  }
  return problems
}

/** A completed export lists only files that exist whole; an unfinished one is not left running. */
export async function checkExports(db: Db, dataDir: string): Promise<string[]> {
  const problems: string[] = []
  for (const record of await db
    .selectFrom('user_exports')
    .select(['id', 'state', 'directory'])
    .execute()) {
    const files = await db
      .selectFrom('user_export_files')
      .select(['filename', 'path', 'size_bytes'])
      .where('export_id', '=', record.id)
      .execute()
    if (record.state === 'scheduled' || record.state === 'running')
      problems.push(`export ${record.id} is still ${record.state} after the start`)
    if (record.state === 'completed') {
      if (files.length === 0) problems.push(`export ${record.id} is completed with no files`)
      for (const file of files) {
        // The archive ('' path) is zipped from the other files while it streams: no file of its own.
        if (file.path === '') continue
        const path = join(dataDir, record.directory, file.path)
        if (!existsSync(path)) problems.push(`export ${record.id} lists ${file.filename}, absent`)
        else if (statSync(path).size !== Number(file.size_bytes))
          problems.push(
            `export ${record.id}: ${file.filename} has ${statSync(path).size} bytes, listed ${file.size_bytes}`,
          )
      }
    } else if (files.length > 0)
      problems.push(`export ${record.id} is ${record.state} and still lists ${files.length} files`)
    if (record.state === 'failed' || record.state === 'canceled') {
      const directory = join(dataDir, record.directory)
      if (record.directory !== '' && existsSync(directory) && bytesUnder(directory) > 0)
        problems.push(`export ${record.id} is ${record.state} and left files in ${directory}`)
    }
  }
  return problems
}

interface ManifestLike {
  objects: { objectId: string; sizeBytes: { full: number; fast: number } }[]
}

/** Outputs listed (a manifest on disk) have every object file of their manifest, whole. */
export function checkOutputsComplete(
  dataDir: string,
  simulationId: number,
  runId: number,
  listed: readonly number[],
): string[] {
  const problems: string[] = []
  const outputs = join(
    dataDir,
    'simulations',
    String(simulationId),
    'runs',
    String(runId),
    'outputs',
  )
  if (!existsSync(outputs)) return listed.length > 0 ? [`run ${runId} lists outputs, has none`] : []
  const directories = new Map(readdirSync(outputs).map((name) => [Number(name), name]))
  for (const outputNo of listed) {
    const name = directories.get(outputNo)
    if (name === undefined) {
      problems.push(`output ${outputNo} of run ${runId} is listed without its directory`)
      continue
    }
    const manifestPath = join(outputs, name, OUTPUT_MANIFEST_FILE)
    if (!existsSync(manifestPath)) {
      problems.push(`output ${outputNo} of run ${runId} is listed without its manifest`)
      continue
    }
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestLike
    const files = readdirSync(join(outputs, name)).filter((f) => f !== OUTPUT_MANIFEST_FILE)
    const bytes = files.reduce((sum, f) => sum + statSync(join(outputs, name, f)).size, 0)
    const expected = manifest.objects.reduce(
      (sum, o) => sum + o.sizeBytes.full + o.sizeBytes.fast,
      0,
    )
    if (files.length !== manifest.objects.length * 2 || bytes !== expected)
      problems.push(
        `output ${outputNo} of run ${runId}: ${files.length} files of ${bytes} bytes, its manifest says ${manifest.objects.length * 2} of ${expected}`,
      )
  }
  return problems
}

/** Sizes recorded equal the bytes on disk, for each simulation and for the organization. */
export async function checkSizes(
  db: Db,
  dataDir: string,
  organizationId: number,
  consumed: number,
): Promise<string[]> {
  const problems: string[] = []
  for (const simulation of await db
    .selectFrom('simulations')
    .select(['id', 'size_bytes'])
    .where('organization_id', '=', organizationId)
    .execute()) {
    const onDisk = simulationBytesOnDisk(dataDir, simulation.id)
    if (Number(simulation.size_bytes) !== onDisk)
      problems.push(
        `simulation ${simulation.id} records ${simulation.size_bytes} bytes, ${onDisk} are on disk`,
      )
  }
  const onDisk = await organizationBytesOnDisk(db, dataDir, organizationId)
  if (consumed !== onDisk)
    problems.push(`the organization consumes ${consumed} bytes, ${onDisk} are on disk`)
  return problems
}

/**
 * Credits add up: what the organization has plus what its ledger took is what it started with;
 * each run's transaction is what the run consumed; a simulation consumed what its runs did.
 */
export async function checkCredits(
  db: Db,
  organizationId: number,
  startingCredits: number,
): Promise<string[]> {
  const problems: string[] = []
  const organization = await db
    .selectFrom('organizations')
    .select('credits')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow()
  const ledger = await db
    .selectFrom('credit_transactions')
    .select(['id', 'credits'])
    .where('organization_id', '=', organizationId)
    .execute()
  const taken = ledger.reduce((sum, t) => sum + Number(t.credits), 0)
  if (Math.abs(Number(organization.credits) - taken - startingCredits) > 1e-6)
    problems.push(
      `the organization has ${organization.credits} credits, its ledger sums to ${taken}, it started with ${startingCredits}`,
    )
  const byId = new Map(ledger.map((t) => [t.id, Number(t.credits)]))
  const runs = await db
    .selectFrom('runs')
    .select(['id', 'simulation_id', 'credits_consumed', 'credit_transaction_id'])
    .execute()
  const perSimulation = new Map<number, number>()
  for (const run of runs) {
    perSimulation.set(
      run.simulation_id,
      (perSimulation.get(run.simulation_id) ?? 0) + Number(run.credits_consumed),
    )
    const billed =
      run.credit_transaction_id === null ? 0 : -(byId.get(run.credit_transaction_id) ?? 0)
    if (Math.abs(billed - Number(run.credits_consumed)) > 1e-6)
      problems.push(
        `run ${run.id} consumed ${run.credits_consumed} credits, its ledger says ${billed}`,
      )
  }
  for (const simulation of await db
    .selectFrom('simulations')
    .select(['id', 'credits_consumed'])
    .where('organization_id', '=', organizationId)
    .execute()) {
    const ofRuns = perSimulation.get(simulation.id) ?? 0
    if (Math.abs(Number(simulation.credits_consumed) - ofRuns) > 1e-6)
      problems.push(
        `simulation ${simulation.id} consumed ${simulation.credits_consumed} credits, its runs ${ofRuns}`,
      )
  }
  return problems
}

/** Starting credits as the ledger implies them, read before anything is faulted. */
export async function startingCreditsOf(db: Db, organizationId: number): Promise<number> {
  const organization = await db
    .selectFrom('organizations')
    .select('credits')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow()
  const ledger = await db
    .selectFrom('credit_transactions')
    .select('credits')
    .where('organization_id', '=', organizationId)
    .execute()
  return Number(organization.credits) - ledger.reduce((sum, t) => sum + Number(t.credits), 0)
}
