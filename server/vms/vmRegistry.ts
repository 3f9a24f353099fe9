import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { VmService } from './VmService.ts'

/* The VM service of an app, found by its database handle (handlers only get the database). */

const services = new WeakMap<object, VmService>()

export function registerVmService(db: Kysely<Database>, service: VmService): void {
  services.set(db, service)
}

export function unregisterVmService(db: Kysely<Database>): void {
  services.delete(db)
}

/** The VM service of the app that owns this database. */
export function vmServiceFor(db: Kysely<Database>): VmService {
  const service = services.get(db)
  if (!service) throw new Error('No VM service is registered for this database')
  return service
}
