import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { POLL_INTERVALS_MS } from '../../../domain/constants.ts'
import {
  VM_MESSAGES,
  vmStateChangeToast,
  type VirtualMachine,
  type VmState,
} from '../../../domain/accountVm.ts'
import { routePath } from '../../../domain/rest.ts'
import { VM_STORAGE_PATH } from '../../../domain/rest/vmRoutes.ts'
import { messageOf } from '../../api/ApiError.ts'
import { api, callApi } from '../../api/index.ts'
import { usePushToast } from '../../components/Toasts.tsx'
import { routeKey } from '../../queries/queries.ts'

/** The organization's VMs, polled every 10 s (spec/account.md §7, §9). */
export function useRemoteVmsQuery() {
  return useQuery({
    queryKey: routeKey('listRemoteVms'),
    queryFn: ({ signal }) => callApi('listRemoteVms', {}, { signal }),
    refetchInterval: POLL_INTERVALS_MS.virtualMachines,
  })
}

/** The organization's VM hours left. */
export function useVmHours(): number | null {
  const budget = useQuery({
    queryKey: routeKey('budget'),
    queryFn: ({ signal }) => callApi('budget', {}, { signal }),
    staleTime: 60_000,
  })
  return budget.data?.vmHours ?? null
}

/**
 * Toasts for VM state changes seen by the polling (the menu bar keeps it mounted on every page):
 * running → 'The Virtual Machine is started!' with a link to the VM; failed, or stopped without a
 * shutdown asked for → 'Could not start the VM.'.
 */
export function useVmStateToasts(vms: readonly VirtualMachine[] | undefined) {
  const pushToast = usePushToast()
  const queryClient = useQueryClient()
  const previous = useRef<Map<number, VmState> | null>(null)
  useEffect(() => {
    if (!vms) return
    const seen = previous.current
    const next = new Map(vms.map((vm) => [vm.id, vm.state]))
    previous.current = next
    if (seen === null) return
    let hoursChanged = false
    for (const vm of vms) {
      const before = seen.get(vm.id)
      if (before === undefined || before === vm.state) continue
      hoursChanged = true
      const toast = vmStateChangeToast(before, vm.state)
      if (!toast) continue
      pushToast({
        id: `vm-${vm.id}-${vm.state}`,
        kind: toast.kind,
        title: toast.title,
        ...(toast.message !== undefined && { description: toast.message }),
        ...(vm.state === 'running' && { links: [{ label: 'Open VM', to: `/machines/${vm.id}` }] }),
      })
    }
    if (hoursChanged) void queryClient.invalidateQueries({ queryKey: routeKey('budget') })
  }, [vms, pushToast, queryClient])
}

/** Launches a VM on a simulation, with the spec's toasts. */
export function useLaunchVm() {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  return useMutation({
    mutationFn: (simulationId: number) =>
      callApi('launchRemoteVm', { params: { id: String(simulationId) } }),
    onSuccess: () => {
      pushToast({
        kind: 'info',
        title: VM_MESSAGES.launchingTitle,
        description: VM_MESSAGES.launchingHint,
      })
      return queryClient.invalidateQueries({ queryKey: routeKey('listRemoteVms') })
    },
    onError: (error) =>
      pushToast({
        kind: 'error',
        title: VM_MESSAGES.errorLaunching,
        description: messageOf(error),
      }),
  })
}

/** Deletes a failed VM, then launches a new one (the button of a failed VM). */
export function useRelaunchVm() {
  const launch = useLaunchVm()
  const pushToast = usePushToast()
  return useMutation({
    mutationFn: async (simulationId: number) => {
      await callApi('deleteRemoteVm', { params: { id: String(simulationId) } })
      return launch.mutateAsync(simulationId)
    },
    onError: (error) =>
      pushToast({
        kind: 'error',
        title: VM_MESSAGES.errorLaunching,
        description: messageOf(error),
      }),
  })
}

/** Shuts a VM down ('Virtual machine is being shut down.'). */
export function useStopVm() {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  return useMutation({
    mutationFn: (simulationId: number) =>
      callApi('deleteRemoteVm', { params: { id: String(simulationId) } }),
    onSuccess: () => {
      pushToast({ kind: 'info', title: VM_MESSAGES.shuttingDown })
      return queryClient.invalidateQueries({ queryKey: routeKey('listRemoteVms') })
    },
    onError: () => pushToast({ kind: 'error', title: VM_MESSAGES.shutdownFailed }),
  })
}

/** Auto shutdown on (24 h from now) or off (null). */
export function useSetShutdownTime() {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  return useMutation({
    mutationFn: (input: { simulationId: number; shutdownTime: string | null }) =>
      callApi('updateRemoteVm', {
        params: { id: String(input.simulationId) },
        body: { shutdownTime: input.shutdownTime },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: routeKey('listRemoteVms') }),
    onError: () =>
      pushToast({
        kind: 'error',
        title: VM_MESSAGES.toggleFailed,
        description: 'Please try again.',
      }),
  })
}

/** One file into the VM's storage (its desktop's home). */
export async function uploadToVm(vmId: number, file: File): Promise<void> {
  const form = new FormData()
  form.append('file', file)
  await api.requestRaw({
    method: 'POST',
    path: routePath(VM_STORAGE_PATH, { id: vmId }),
    body: form,
    expectedStatus: 201,
  })
}
