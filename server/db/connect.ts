import SqliteDatabase from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { Database } from './schema.ts'

export const DIALECTS = ['sqlite', 'postgres'] as const
export type DialectName = (typeof DIALECTS)[number]

/** An open database and the dialect behind it (migrations branch on it for id columns). */
export interface DatabaseHandle {
  db: Kysely<Database>
  dialect: DialectName
}

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL; otherwise the SQLite file at sqlitePath is used. */
  databaseUrl?: string | undefined
  sqlitePath: string
}

const PG_INT8 = 20
const PG_NUMERIC = 1700

/**
 * Counts and sums come back from PostgreSQL as bigint or numeric, which pg hands over as strings;
 * sizes and credits stay far below 2^53, so numbers are exact.
 */
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((id: number, format?: 'text' | 'binary') => {
    if (id === PG_INT8 || id === PG_NUMERIC) return (value: string) => Number(value)
    return pg.types.getTypeParser(id, format) as (value: string) => unknown
  }) as pg.CustomTypesConfig['getTypeParser'],
}

/** Opens PostgreSQL (a pg Pool) when a URL is given, else the SQLite file in WAL mode. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, types: pgTypes, max: 10 })
    // An idle client cut off by the server (restart, admin termination) must not crash the process:
    // the pool drops it and opens a new one for the next query.
    pool.on('error', (error) => {
      console.warn(`PostgreSQL closed an idle connection: ${error.message}`)
    })
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
    }
  }
  const sqlite = new SqliteDatabase(options.sqlitePath)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('synchronous = NORMAL')
  // Another process (a second server, a test) may hold the write lock for a moment.
  sqlite.pragma('busy_timeout = 5000')
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
    dialect: 'sqlite',
  }
}

/**
 * True for PostgreSQL's refusal of a number its column cannot hold (22003 out of range, 22P02 not
 * an integer): an id past 2³¹ − 1 or a fraction that slipped past the schemas. SQLite stores any
 * number and never raises these.
 */
export function isNumberOutOfRange(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false
  return error.code === '22003' || error.code === '22P02'
}

/** True for a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false
  return error.code === '23505' || error.code === 'SQLITE_CONSTRAINT_UNIQUE'
}

/**
 * Runs `attempt` (a whole transaction) again when it ends in a unique violation, up to `times`
 * tries: two requests that pick the same free name at once (two clones of one simulation on
 * PostgreSQL) then each get their own name, the second choosing again after the first committed.
 */
export async function retryOnUniqueViolation<T>(attempt: () => Promise<T>, times = 8): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await attempt()
    } catch (error) {
      if (!isUniqueViolation(error) || tried >= times) throw error
    }
  }
}
