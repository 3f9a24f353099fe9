import { mkdirSync } from 'node:fs'
import { buildApp } from './app.ts'
import { createClock } from './clock.ts'
import { readServerConfig } from './config.ts'
import { openDatabase } from './db/connect.ts'
import { DEMO_LOGIN } from './db/demoAccounts.ts'
import { migrateToLatest } from './db/migrations.ts'
import { seedDatabase } from './db/seed.ts'
import { startGpuProbe } from './jobs/solvers.ts'

/*
 * `npm start` / `npm run serve`: migrate, seed on first start, serve. Prints exactly two lines on
 * stdout; logs (warnings and errors) go to stderr.
 */

const config = readServerConfig(process.env)
mkdirSync(config.dataDir, { recursive: true })
const handle = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath })
await migrateToLatest(handle)
const clock = createClock()
await seedDatabase(handle.db, clock)

// The GPU adapter probe (a child process) runs while the server starts: GET /solvers then waits
// for nothing.
void startGpuProbe()
const app = await buildApp({
  db: handle.db,
  dataDir: config.dataDir,
  clock,
  logger: { level: process.env.LOG_LEVEL ?? 'warn', stream: process.stderr },
  ...(config.jobWorkers === 'remote' && config.databaseUrl
    ? { jobs: { queue: { databaseUrl: config.databaseUrl } } }
    : {}),
})
app.addHook('onClose', async () => {
  await handle.db.destroy()
})
// One socket's late failure must not take every other session down with the process: log it.
process.on('unhandledRejection', (reason) => {
  app.log.error({ err: reason }, 'unhandled rejection')
})
await app.listen({ port: config.port, host: config.host })
const address = app.server.address()
const port = typeof address === 'object' && address ? address.port : config.port

console.log(`Dive is running at http://localhost:${port}`)
console.log(`Demo login: ${DEMO_LOGIN.email} ${DEMO_LOGIN.password}`)

let stopping = false
function stop(signal: string): void {
  if (stopping) {
    // A second signal: do not wait any longer.
    process.exit(1)
  }
  stopping = true
  app.log.info(`${signal}: shutting down`)
  app.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
