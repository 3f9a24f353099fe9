import type { CreateTableBuilder, Kysely } from 'kysely'
import type { DialectName } from './connect.ts'

/* Building blocks every migration shares; the id column is the only place the dialects differ. */

export type AnyDb = Kysely<unknown>

export function createTableWithId(db: AnyDb, dialect: DialectName, table: string) {
  const builder = db.schema.createTable(table)
  if (dialect === 'sqlite')
    return builder.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
  return builder.addColumn('id', 'serial', (column) => column.primaryKey())
}

export function addTimestamps<T extends string, C extends string>(
  builder: CreateTableBuilder<T, C>,
): CreateTableBuilder<T, C | 'created_at' | 'updated_at'> {
  return builder
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
}
