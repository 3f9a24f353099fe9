/**
 * Vitest global setup: a throwaway PostgreSQL cluster so the server tests run against both
 * dialects. TEST_DATABASE_URL wins when set; otherwise initdb/pg_ctl from Debian's postgresql are
 * used (as the postgres user when we are root, since initdb refuses root). Without them the
 * PostgreSQL tests are skipped locally and fail under CI=true.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type {} from 'vitest'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection string of a PostgreSQL server for tests, or '' when none could start. */
    pgAdminUrl: string
  }
}

function findBin(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':'))
    if (existsSync(join(dir, name))) return join(dir, name)
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  for (const version of versions)
    if (existsSync(join(root, version, 'bin', name))) return join(root, version, 'bin', name)
  return undefined
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      srv.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgAdminUrl', process.env.TEST_DATABASE_URL)
    return () => {}
  }
  const initdb = findBin('initdb')
  const pgCtl = findBin('pg_ctl')
  if (!initdb || !pgCtl) {
    if (process.env.CI)
      throw new Error(
        'PostgreSQL (initdb, pg_ctl) is required under CI: apt-get install -y postgresql',
      )
    console.warn('PostgreSQL not found: the PostgreSQL dialect tests are skipped')
    project.provide('pgAdminUrl', '')
    return () => {}
  }
  const asRoot = process.getuid?.() === 0
  const run = (bin: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' })
      : execFileSync(bin, args, { stdio: 'pipe' })
  const dir = mkdtempSync(join(tmpdir(), 'dive-pg-'))
  chmodSync(dir, 0o777)
  if (asRoot) execFileSync('chown', ['postgres', dir])
  const data = join(dir, 'data')
  const port = await freePort()
  run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'])
  run(pgCtl, [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    '-w',
    'start',
  ])
  project.provide('pgAdminUrl', `postgres://postgres@127.0.0.1:${port}/postgres`)
  return () => {
    try {
      run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
