import { resolve } from 'node:path'

/** What main.ts reads from the environment. */
export interface ServerConfig {
  port: number
  /** 'localhost' binds every loopback address localhost resolves to (IPv4 and IPv6). */
  host: string
  dataDir: string
  databaseUrl: string | undefined
  sqlitePath: string
}

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const port = Number(env.PORT ?? 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be an integer between 0 and 65535, got ${env.PORT}`)
  const dataDir = resolve(env.DIVE_DATA_DIR || './data')
  return {
    port,
    host: env.HOST || 'localhost',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    sqlitePath: resolve(dataDir, 'dive.sqlite'),
  }
}
