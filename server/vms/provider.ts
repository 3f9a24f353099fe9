import type { Duplex, Readable } from 'node:stream'
import type { VmStorageFile } from '../../domain/rest/vmRoutes.ts'

/*
 * The machine provider interface: what the VM service asks of whatever runs the desktops. The local
 * provider (localProvider.ts) runs each VM as a bubblewrap sandbox on this machine; a cluster
 * provider (docs/vm-cluster-provider.md) runs a desktop container per VM. The service keeps the
 * records, the accounting and the permissions; a provider only runs machines.
 */

/** What a provider needs to start one VM. */
export interface LaunchSpec {
  vmId: number
  /** The VNC password (and SFTP password) of the VM. */
  password: string
  /**
   * Writes the simulation's outputs for the VM (a .pvd time series of VTU files) into `directory`
   * and answers the .pvd's file name, or null when the simulation has no outputs.
   */
  writeOutputs: (directory: string) => Promise<string | null>
  /** The organization storage's folder: the VM sees it (read-write) at /organization. */
  organizationStorage: string
}

/** The provider's reference to a started machine, stored with the VM (JSON). */
export interface MachineHandle {
  /** The process (local) or pod name (cluster) that is the machine. */
  pid: number
  /** Where its VNC server listens for the server: loopback host and port (local), a pod (cluster). */
  vnc: { path: string } | { host: string; port: number }
  display: number
}

/** What a provider sees of a machine: still starting, serving VNC, or gone. */
export type MachineState = 'starting' | 'ready' | 'gone'

/** Programs a provider needs that are missing: launching then fails. */
export class MissingProgramError extends Error {
  readonly programs: string[]
  constructor(programs: string[]) {
    super(`The program${programs.length > 1 ? 's' : ''} ${programs.join(', ')} missing`)
    this.name = 'MissingProgramError'
    this.programs = programs
  }
}

/** The machine provider interface (launch, state, stop, delete, upload). */
export interface MachineProvider {
  readonly name: string
  /** The programs it needs that are not installed (none: it can launch). */
  missingPrograms(): Promise<string[]>
  /** Starts a machine; throws MissingProgramError when a program it needs is not installed. */
  launch(spec: LaunchSpec): Promise<MachineHandle>
  state(vmId: number, handle: MachineHandle): Promise<MachineState>
  /** Ends the machine's processes; its storage stays. */
  stop(vmId: number, handle: MachineHandle): Promise<void>
  /** Removes the VM's storage (the machine is stopped first). */
  delete(vmId: number): Promise<void>
  /** Writes one file into the VM's storage (its desktop's home); answers its size in bytes. */
  upload(vmId: number, fileName: string, source: Readable): Promise<number>
  listStorage(vmId: number): Promise<VmStorageFile[]>
  /** A byte stream to the machine's VNC server. */
  connectVnc(handle: MachineHandle): Duplex
}
