import type { Generated } from 'kysely'

/** One remote VM of a simulation (migration 0020_remote_vms). */
export interface RemoteVmsTable {
  id: Generated<number>
  organization_id: number
  simulation_id: number
  /** Who launched it; null once the user is deleted. */
  creator_id: number | null
  name: string
  /** A VM_STATES value. */
  state: string
  /** Hours the VM has run, taken from the organization's vmHours. */
  hours_consumed: number
  running_since: string | null
  /** Auto shutdown time; null: auto shutdown off. */
  shutdown_time: string | null
  /** Up to when hours_consumed is counted (ISO); null while not running. */
  accounted_at: string | null
  /** The VNC (and SFTP) password of the VM. */
  password: string
  /** The provider's handle of the running machine (JSON), null when none. */
  handle: string | null
  /** Why the VM failed, for the log and the person. */
  failure: string | null
  created_at: string
  updated_at: string
  /** Deleted by the person: hidden, kept so its hours still count in its month. */
  deleted_at: string | null
  /** Bytes in its storage folder (home) as last measured (0023); they count toward storage. */
  storage_bytes: Generated<number>
}

/** The organization storage's size as last measured (0023_vm_storage). */
export interface OrganizationStorageTable {
  organization_id: number
  size_bytes: number
  updated_at: string
}
