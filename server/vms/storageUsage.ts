import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { measureBytes } from '../storage/usage.ts'
import { vmDirectory } from './localProvider.ts'

/*
 * The VMs' share of an organization's storage: each VM's storage folder (its desktop's home, what
 * SFTP and the VM storage upload write) and the organization storage (one folder per organization
 * that each of its VMs sees at /organization, filled by the 'Access storage' upload). Both are
 * measured on disk after every write that can change them and stored (0023_vm_storage), so the
 * storage bar and the limit read them without walking folders.
 */

type Db = Kysely<Database>

/** The storage folder of one VM: its desktop's home. */
export function vmStorageDirectory(dataDir: string, vmId: number): string {
  return join(vmDirectory(dataDir, vmId), 'home')
}

/** The organization storage's folder. */
export function organizationStorageDirectory(dataDir: string, organizationId: number): string {
  return join(dataDir, 'organization-storage', String(organizationId))
}

/** Measures a VM's storage folder and stores its size; answers the bytes. */
export async function refreshVmStorageBytes(db: Db, dataDir: string, vmId: number) {
  const bytes = await measureBytes(vmStorageDirectory(dataDir, vmId))
  await db.updateTable('remote_vms').set({ storage_bytes: bytes }).where('id', '=', vmId).execute()
  return bytes
}

/** Measures the organization storage and stores its size; answers the bytes. */
export async function refreshOrganizationStorageBytes(
  db: Db,
  dataDir: string,
  organizationId: number,
  nowIso: string,
): Promise<number> {
  const bytes = await measureBytes(organizationStorageDirectory(dataDir, organizationId))
  await db
    .insertInto('organization_storage')
    .values({ organization_id: organizationId, size_bytes: bytes, updated_at: nowIso })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({ size_bytes: bytes, updated_at: nowIso }),
    )
    .execute()
  return bytes
}
