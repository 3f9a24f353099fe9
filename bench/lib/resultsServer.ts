/**
 * The real app (buildApp on a fresh SQLite database, seeded) serving synthetic outputs written once
 * with scripts/writeSyntheticRun.ts into a cached directory under the system temp dir, for the
 * serving benches (bench/node/bundleServe.bench.ts, bench/browser/coldFrame.bench.ts). Client and
 * server run in the bench's process unless a bench starts its own client elsewhere (chromium).
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import { buildApp } from '../../server/app.ts'
import { createClock } from '../../server/clock.ts'
import { openDatabase, type DatabaseHandle } from '../../server/db/connect.ts'
import { DEMO_PASSWORD, DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { migrateToLatest } from '../../server/db/migrations.ts'
import { seedDatabase } from '../../server/db/seed.ts'
import { formatCount } from './synthetic.ts'

/** The run every synthetic output is written under. */
export const BENCH_RUN_ID = 1

/** A started bench server over `outputs` synthetic outputs of `particles` fluid particles. */
export interface ResultsBenchServer {
  app: FastifyInstance
  baseUrl: string
  token: string
  simulationId: number
  dataDir: string
  outputs: number
  particles: number
  close(): Promise<void>
}

/**
 * Starts the app over cached synthetic outputs (written on first use, `log` says so) under the
 * system temp dir's folder `cacheName`.
 */
export async function startResultsBenchServer(
  outputs: number,
  particles: number,
  log: (message: string) => void,
  options: { distDir?: string; cacheName?: string } = {},
): Promise<ResultsBenchServer> {
  const dbDir = await mkdtemp(join(tmpdir(), 'dive-bench-serve-db-'))
  let handle: DatabaseHandle | null = null
  try {
    handle = openDatabase({ sqlitePath: join(dbDir, 'dive.sqlite') })
    await migrateToLatest(handle)
    const clock = createClock()
    await seedDatabase(handle.db, clock)
    const simulation = await handle.db
      .selectFrom('simulations')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow()
    const cache = options.cacheName ?? 'dive-bench-serve'
    const dataDir = join(tmpdir(), cache, `${formatCount(particles)}x${outputs}`)
    const marker = join(dataDir, `complete-${simulation.id}`)
    if (!existsSync(marker)) {
      log(`writing ${outputs} synthetic outputs of ${formatCount(particles)} into ${dataDir}`)
      await rm(dataDir, { recursive: true, force: true })
      await mkdir(dataDir, { recursive: true })
      await writeSyntheticRun({
        dataDir,
        simulationId: simulation.id,
        runId: BENCH_RUN_ID,
        outputCount: outputs,
        particles,
      })
      await writeFile(marker, '')
    }
    const app = await buildApp({
      db: handle.db,
      dataDir,
      clock,
      distDir: options.distDir ?? join(dbDir, 'no-dist'),
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_USERS.manager.email, password: DEMO_PASSWORD }),
    })
    const { accessToken } = (await login.json()) as { accessToken: string }
    const opened = handle
    return {
      app,
      baseUrl,
      token: accessToken,
      simulationId: simulation.id,
      dataDir,
      outputs,
      particles,
      close: async () => {
        await app.close()
        await opened.db.destroy()
        await rm(dbDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await handle?.db.destroy()
    await rm(dbDir, { recursive: true, force: true })
    throw error
  }
}

/** The 1-minute load average, for the note printed beside each figure (the cores are shared). */
export function loadAverageNote(): string {
  return `load average ${loadavg()[0]!.toFixed(2)}`
}

/** A loopback TCP transfer to time beside a bundle's (see {@link openSocketProbe}). */
export interface SocketProbe {
  /** Its server's port (a client in another process may connect and read to the end). */
  port: number
  /** One transfer of the probe's size; ms. */
  transferMs(): Promise<number>
  close(): Promise<void>
}

/**
 * This machine's loopback TCP, the socket's share of a transfer: a plain `net` server writes
 * `sizeBytes` from one buffer in memory and a client copies what arrives into one buffer of that
 * size (what an HTTP client of a bundle does, without HTTP or files). Time it in the same loop as
 * the bundle fetches, so both see the same load.
 */
export async function openSocketProbe(sizeBytes: number): Promise<SocketProbe> {
  const payload = Buffer.alloc(sizeBytes, 7)
  const target = Buffer.alloc(sizeBytes)
  const server = createNetServer((socket) => socket.end(payload))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const transferMs = () =>
    new Promise<number>((resolve, reject) => {
      const startedMs = performance.now()
      let offset = 0
      const client = connect(port, '127.0.0.1')
      client.on('data', (chunk: Buffer) => {
        offset += chunk.copy(target, offset)
      })
      client.on('end', () =>
        offset === sizeBytes
          ? resolve(performance.now() - startedMs)
          : reject(new Error(`socket: ${offset} of ${sizeBytes} bytes`)),
      )
      client.on('error', reject)
    })
  await transferMs()
  return {
    port,
    transferMs,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
