import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

/**
 * Bytes the organization's VM storage folders (VMs not deleted) and its organization storage
 * hold, as last measured (storageUsage.ts measures them; server/storage/usage.ts adds them up).
 */
export async function vmStorageConsumedBytes(
  db: Kysely<Database>,
  organizationId: number,
): Promise<number> {
  const [vms, shared] = await Promise.all([
    db
      .selectFrom('remote_vms')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('storage_bytes'), eb.lit(0)).as('bytes'))
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('organization_storage')
      .select('size_bytes')
      .where('organization_id', '=', organizationId)
      .executeTakeFirst(),
  ])
  return Number(vms.bytes) + Number(shared?.size_bytes ?? 0)
}
