/** Remote VMs and organization storage (spec/account.md §3, §4, §5). */
import * as v from 'valibot'
import { AUTO_SHUTDOWN_AFTER_MS, STORAGE_WARNING_FRACTION } from './constants.ts'
import { ACCOUNT_MESSAGES } from './account.ts'
import type { SimulationState } from './simulationState.ts'
import { issue, type Issue } from './validation.ts'

/** Organization storage: bytes consumed of the bytes available, and when it was measured. */
export const OrganizationStorageSchema = v.object({
  consumed: v.number(),
  available: v.number(),
  lastUpdated: v.string(),
})
/** Organization storage. */
export type OrganizationStorage = v.InferOutput<typeof OrganizationStorageSchema>

/** Level of the storage bar: error from 100 %, warning from STORAGE_WARNING_FRACTION. */
export function storageLevel(consumed: number, available: number): 'ok' | 'warning' | 'error' {
  if (!(available > 0)) return consumed > 0 ? 'error' : 'ok'
  const fraction = consumed / available
  if (fraction >= 1) return 'error'
  if (fraction >= STORAGE_WARNING_FRACTION) return 'warning'
  return 'ok'
}

/** States of a remote VM. */
export const VM_STATES = ['launching', 'running', 'failed', 'stopping', 'stopped'] as const
/** One VM state. */
export type VmState = (typeof VM_STATES)[number]

/** A remote VM for post-processing one simulation. */
export const VirtualMachineSchema = v.object({
  id: v.number(),
  name: v.string(),
  state: v.picklist(VM_STATES),
  hoursConsumed: v.number(),
  runningSince: v.nullable(v.string()),
  /** Auto shutdown time; null when auto shutdown is off. */
  shutdownTime: v.nullable(v.string()),
  createdAt: v.string(),
  sftpUrl: v.nullable(v.string()),
  websocketUrl: v.nullable(v.string()),
  password: v.nullable(v.string()),
  simulation: v.object({ id: v.number(), name: v.string(), projectName: v.string() }),
})
/** A remote VM. */
export type VirtualMachine = v.InferOutput<typeof VirtualMachineSchema>

/** Texts of the VM button, toasts and dialogs (spec/account.md §4, §8). */
export const VM_MESSAGES = {
  launch: 'Launch VM',
  launching: 'Launching VM...',
  open: 'Open VM',
  stopping: 'Stopping VM...',
  started: 'The Virtual Machine is started!',
  couldNotStart: 'Could not start the VM.',
  tryAgain: 'Please try to start it again',
  autoShutdownEnabled: 'Auto shutdown is enabled',
  toggleFailed: 'Could not toggle auto shutdown!',
  shuttingDown: 'Virtual machine is being shut down.',
  shutdownFailed: 'Could not shut down Virtual Machine!',
  launchingTitle: 'Virtual Machine is launching',
  launchingHint: 'It usually takes a few minutes. You will be notified once it is ready.',
  errorLaunching: 'Error launching VM',
  launchFailure: 'Sorry! Something went wrong. Please submit a ticket.',
  uploadFailed: 'Failed to upload the file. Please try again later.',
} as const

/** What the VM button does: launch, open the VM page, delete the failed VM and relaunch, nothing. */
export type VmButtonAction = 'launch' | 'open' | 'relaunch' | 'none'

/**
 * The VM button: text by VM state (none or stopped: Launch VM; failed: Launch VM, relaunching),
 * disabled when vmHours <= 0, the simulation has not started, or while launching or stopping.
 */
export function vmButton(input: {
  vmState: VmState | null
  vmHours: number
  simulationState: SimulationState
}): { text: string; disabled: boolean; action: VmButtonAction } {
  const { vmState } = input
  const blocked = !(input.vmHours > 0) || input.simulationState === 'not started'
  switch (vmState) {
    case 'launching':
      return { text: VM_MESSAGES.launching, disabled: true, action: 'none' }
    case 'stopping':
      return { text: VM_MESSAGES.stopping, disabled: true, action: 'none' }
    case 'running':
      return { text: VM_MESSAGES.open, disabled: blocked, action: 'open' }
    case 'failed':
      return { text: VM_MESSAGES.launch, disabled: blocked, action: 'relaunch' }
    default:
      return { text: VM_MESSAGES.launch, disabled: blocked, action: 'launch' }
  }
}

/**
 * The toast for a VM state change: started on running; 'Could not start the VM.' on failed or
 * stopped, except after 'stopping' (a shutdown the person asked for). Null when nothing changed.
 */
export function vmStateChangeToast(
  previous: VmState | null,
  next: VmState,
): { kind: 'success' | 'error'; title: string; message?: string } | null {
  if (previous === next) return null
  if (next === 'running') return { kind: 'success', title: VM_MESSAGES.started }
  if (next === 'failed' || (next === 'stopped' && previous !== 'stopping'))
    return { kind: 'error', title: VM_MESSAGES.couldNotStart, message: VM_MESSAGES.tryAgain }
  return null
}

/** The auto shutdown toggle: usable only while running; reads enabled while launching. */
export function autoShutdownToggle(vm: { state: VmState; shutdownTime: string | null }): {
  disabled: boolean
  checked: boolean
  label: string | null
} {
  return {
    disabled: vm.state !== 'running',
    checked: vm.shutdownTime !== null || vm.state === 'launching',
    label: vm.state === 'launching' ? VM_MESSAGES.autoShutdownEnabled : null,
  }
}

/** Turning auto shutdown on sets the shutdown time 24 h from now (ISO). */
export function autoShutdownTime(nowMs: number): string {
  return new Date(nowMs + AUTO_SHUTDOWN_AFTER_MS).toISOString()
}

/** States of the VM window. */
export const VM_WINDOW_STATES = ['loading', 'connected', 'stopping', 'notFound', 'error'] as const
/** States of a VM storage upload. */
export const VM_UPLOAD_STATES = ['waiting', 'uploading', 'success', 'failed'] as const

/** Simulations offered in the Launch modal: none with a VM already, none launching or not started. */
export function launchableSimulations<T extends { id: number; state: SimulationState }>(
  simulations: readonly T[],
  simulationIdsWithVm: readonly number[],
): T[] {
  return simulations.filter(
    (sim) =>
      !simulationIdsWithVm.includes(sim.id) &&
      sim.state !== 'launching' &&
      sim.state !== 'not started',
  )
}

/** Launch VM rules: a project and a simulation are chosen and VM hours remain. */
export function checkVmLaunch(
  choice: { projectId: number | null; simulationId: number | null },
  vmHours: number,
): Issue[] {
  const issues: Issue[] = []
  if (choice.projectId === null)
    issues.push(issue('info', 'projectId', ACCOUNT_MESSAGES.projectRequired))
  if (choice.simulationId === null)
    issues.push(issue('info', 'simulationId', ACCOUNT_MESSAGES.simulationRequired))
  if (!(vmHours > 0)) issues.push(issue('error', 'vmHours', ACCOUNT_MESSAGES.noVmHours))
  return issues
}
