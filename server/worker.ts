import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { createClock } from './clock.ts'
import { readServerConfig } from './config.ts'
import { openDatabase } from './db/connect.ts'
import { JobWorker } from './jobs/queue/JobWorker.ts'
import { QUEUED_KINDS, isQueuedKind, type QueuedKind } from './jobs/queue/pgBoss.ts'
import { checkStorageRoot } from './jobs/queue/storageRoot.ts'
import { registerWorkerTasks } from './workerTasks.ts'

/*
 * `npm run worker [-- --cores N --kinds simulation,discretization --concurrency N]`: a job worker
 * on any machine that reaches the database (DATABASE_URL, PostgreSQL) and mounts the shared
 * storage root (DIVE_DATA_DIR, the same files as the server's). It takes queued jobs of its kinds
 * from pg-boss; the server must run with DIVE_JOB_WORKERS=remote (README: two machines).
 */

const USAGE = `Usage: npm run worker -- [options]
  --cores N          cores this worker may use (default: all, ${availableParallelism()})
  --kinds LIST       job kinds it takes, comma-separated (default: ${QUEUED_KINDS.join(',')})
  --concurrency N    jobs at once (default 1)
  --heartbeat-ms N   lease renewal period (default 2000; a lease lives 4 of them)
  --poll-ms N        idle poll of the queue (default 2000; queued jobs also wake it)
Environment: DATABASE_URL (postgres://…), DIVE_DATA_DIR (the shared storage root).`

function positiveInteger(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number ≥ 1`)
  return value
}

function readKinds(text: string | undefined): QueuedKind[] {
  if (text === undefined) return [...QUEUED_KINDS]
  const kinds = text.split(',').map((kind) => kind.trim())
  for (const kind of kinds)
    if (!isQueuedKind(kind))
      throw new Error(`--kinds: unknown kind ${kind} (known: ${QUEUED_KINDS.join(', ')})`)
  return kinds as QueuedKind[]
}

let parsed
try {
  parsed = parseArgs({
    options: {
      cores: { type: 'string' },
      kinds: { type: 'string' },
      concurrency: { type: 'string' },
      'heartbeat-ms': { type: 'string' },
      'poll-ms': { type: 'string' },
      help: { type: 'boolean' },
    },
  }).values
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`)
  process.exit(2)
}
if (parsed.help) {
  console.log(USAGE)
  process.exit(0)
}
const config = readServerConfig(process.env)
if (!config.databaseUrl || !/^postgres(ql)?:/.test(config.databaseUrl)) {
  console.error(`A worker needs DATABASE_URL set to the server's PostgreSQL database.\n${USAGE}`)
  process.exit(2)
}
const handle = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: '' })
try {
  await checkStorageRoot(config.dataDir, handle.db)
} catch (error) {
  console.error((error as Error).message)
  await handle.db.destroy()
  process.exit(2)
}
const clock = createClock()
// Every kind's runner: the reaper here recovers any kind, whatever --kinds this worker takes.
const closeTasks = registerWorkerTasks(handle.db, clock, config.dataDir, config.databaseUrl)
const worker = new JobWorker({
  db: handle.db,
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  clock,
  cores: positiveInteger('cores', parsed.cores, availableParallelism()),
  kinds: readKinds(parsed.kinds),
  concurrency: positiveInteger('concurrency', parsed.concurrency, 1),
  heartbeatMs: positiveInteger('heartbeat-ms', parsed['heartbeat-ms'], 2000),
  pollMs: positiveInteger('poll-ms', parsed['poll-ms'], 2000),
})
await worker.start()
console.log(`Dive worker ${worker.workerId} is taking jobs`)

let stopping = false
function stop(signal: string): void {
  if (stopping) process.exit(1)
  stopping = true
  console.error(`${signal}: worker shutting down; its jobs go back to the queue`)
  worker
    .close()
    .then(closeTasks)
    .then(() => handle.db.destroy())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      },
    )
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
