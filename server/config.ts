import { resolve } from 'node:path'

/** What main.ts reads from the environment. */
export interface ServerConfig {
  port: number
  /** 'localhost' binds every loopback address localhost resolves to (IPv4 and IPv6). */
  host: string
  dataDir: string
  databaseUrl: string | undefined
  sqlitePath: string
  /**
   * DIVE_JOB_WORKERS: 'server' (default) runs every job in this process; 'remote' queues
   * simulations and discretizations in pg-boss for `npm run worker` processes (PostgreSQL only).
   */
  jobWorkers: 'server' | 'remote'
}

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const port = Number(env.PORT ?? 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be an integer between 0 and 65535, got ${env.PORT}`)
  const dataDir = resolve(env.DIVE_DATA_DIR || './data')
  const jobWorkers = env.DIVE_JOB_WORKERS || 'server'
  if (jobWorkers !== 'server' && jobWorkers !== 'remote')
    throw new Error(`DIVE_JOB_WORKERS must be 'server' or 'remote', got ${jobWorkers}`)
  if (jobWorkers === 'remote' && !/^postgres(ql)?:/.test(env.DATABASE_URL ?? ''))
    throw new Error('DIVE_JOB_WORKERS=remote needs DATABASE_URL set to PostgreSQL (postgres://…)')
  return {
    port,
    host: env.HOST || 'localhost',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    sqlitePath: resolve(dataDir, 'dive.sqlite'),
    jobWorkers,
  }
}
