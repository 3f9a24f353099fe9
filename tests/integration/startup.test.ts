import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { expect, it } from 'vitest'
import { createClock } from '../../server/clock.ts'
import { openDatabase } from '../../server/db/connect.ts'
import type { Database } from '../../server/db/schema.ts'
import { DEMO_LOGIN } from '../../server/db/demoAccounts.ts'
import { listMigrations, migrateToLatest } from '../../server/db/migrations.ts'
import { seedDatabase } from '../../server/db/seed.ts'
import { createTestDatabase, describeEachDialect } from './harness.ts'

const REPO_ROOT = join(import.meta.dirname, '..', '..')

async function countRows(db: Kysely<Database>) {
  const count = async (table: 'organizations' | 'users' | 'projects' | 'simulations') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  return {
    organizations: await count('organizations'),
    users: await count('users'),
    projects: await count('projects'),
    simulations: await count('simulations'),
  }
}

const SEEDED = { organizations: 2, users: 4, projects: 2, simulations: 2 }

interface Started {
  lines: string[]
  port: number
  stop(): Promise<{ code: number | null; stdout: string }>
}

/** Runs server/main.ts as `npm start` would (without the UI build) until it prints its two lines. */
function startMain(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${stdout} ${stderr}`)), 25_000)
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const lines = stdout.split('\n').filter((line) => line !== '')
      const port = /http:\/\/localhost:(\d+)$/.exec(lines[0] ?? '')?.[1]
      if (lines.length < 2 || !port) return
      clearTimeout(timer)
      resolve({
        lines,
        port: Number(port),
        stop: async () => {
          child.kill('SIGTERM')
          return { code: await exited, stdout }
        },
      })
    })
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)))
  })
}

async function loginAndListProjects(port: number): Promise<string[]> {
  const base = `http://localhost:${port}`
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_LOGIN),
  })
  expect(login.status).toBe(200)
  const { accessToken } = (await login.json()) as { accessToken: string }
  const list = await fetch(`${base}/api/projects`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  const body = (await list.json()) as { results: { name: string }[] }
  return body.results.map((p) => p.name)
}

describeEachDialect('startup', (dialect) => {
  it('migrates and seeds once: a second start changes nothing', async () => {
    const database = await createTestDatabase(dialect)
    const clock = createClock()
    try {
      expect(await migrateToLatest(database.handle)).toEqual(
        Object.keys(listMigrations(database.handle.dialect)),
      )
      expect(await seedDatabase(database.handle.db, clock)).toBe(true)
      expect(await countRows(database.handle.db)).toEqual(SEEDED)
      expect(await migrateToLatest(database.handle)).toEqual([])
      expect(await seedDatabase(database.handle.db, clock)).toBe(false)
      expect(await countRows(database.handle.db)).toEqual(SEEDED)
    } finally {
      await database.drop()
    }
  })

  it('main.ts prints its two lines, serves the demo login and stops cleanly, twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dive-main-'))
    const database = dialect === 'postgres' ? await createTestDatabase('postgres') : undefined
    const env: Record<string, string> = { DIVE_DATA_DIR: dataDir }
    if (database) env.DATABASE_URL = database.location
    try {
      for (let start = 0; start < 2; start++) {
        const started = await startMain(env)
        expect(started.lines).toEqual([
          `Dive is running at http://localhost:${started.port}`,
          `Demo login: ${DEMO_LOGIN.email} ${DEMO_LOGIN.password}`,
        ])
        expect(await loginAndListProjects(started.port)).toEqual(
          expect.arrayContaining(['Demo project', 'Contributor sandbox']),
        )
        const { code, stdout } = await started.stop()
        expect(code).toBe(0)
        expect(stdout.trim().split('\n')).toHaveLength(2)
      }
      const handle = database?.handle ?? openDatabase({ sqlitePath: join(dataDir, 'dive.sqlite') })
      expect(await countRows(handle.db)).toEqual(SEEDED)
      if (!database) await handle.db.destroy()
    } finally {
      if (database) await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
