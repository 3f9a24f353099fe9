import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useLocation, useMatch, useNavigate } from 'react-router'
import { VM_MESSAGES, vmButton } from '../../../domain/accountVm.ts'
import { callApi } from '../../api/index.ts'
import { routeKey } from '../../queries/queries.ts'
import { simulationModeOf } from '../simulation/simulationMode.ts'
import { LaunchVmDialog } from './LaunchVmDialog.tsx'
import {
  useLaunchVm,
  useRelaunchVm,
  useRemoteVmsQuery,
  useVmHours,
  useVmStateToasts,
} from './vmQueries.ts'

/**
 * The menu bar's VM button (spec/account.md §2, §4). On a simulation's pages it follows that
 * simulation's VM: Launch VM, Launching VM..., Open VM, Stopping VM...; a failed VM is deleted and
 * launched again; disabled without VM hours, before the simulation has run, and while launching
 * or stopping. Elsewhere it opens the launch dialog. It also raises the VM state toasts.
 */
export function VmMenuButton() {
  const match = useMatch('/simulation/:id/*')
  // only a simulation's own pages, not the not-found page under its path
  const onSimulationPage = simulationModeOf(useLocation().pathname) !== null
  const simulationId =
    !onSimulationPage || match?.params.id === undefined ? null : Number(match.params.id)
  const navigate = useNavigate()
  const vms = useRemoteVmsQuery()
  useVmStateToasts(vms.data)
  const vmHours = useVmHours()
  const launch = useLaunchVm()
  const relaunch = useRelaunchVm()
  const [dialogOpen, setDialogOpen] = useState(false)
  const simulation = useQuery({
    queryKey: routeKey('getSimulation', { params: { id: String(simulationId ?? 0) } }),
    queryFn: ({ signal }) =>
      callApi('getSimulation', { params: { id: String(simulationId) } }, { signal }),
    enabled: simulationId !== null && Number.isInteger(simulationId),
  })
  if (vmHours === null) return null

  if (simulationId === null || !simulation.data) {
    return (
      <>
        <button
          type="button"
          className="button button--secondary button--small menubar-vm-button"
          disabled={!(vmHours > 0)}
          onClick={() => setDialogOpen(true)}
        >
          {VM_MESSAGES.launch}
        </button>
        {dialogOpen && <LaunchVmDialog vmHours={vmHours} onClose={() => setDialogOpen(false)} />}
      </>
    )
  }
  const vm = vms.data?.find((candidate) => candidate.simulation.id === simulationId) ?? null
  const button = vmButton({
    vmState: vm?.state ?? null,
    vmHours,
    simulationState: simulation.data.state,
  })
  const busy = launch.isPending || relaunch.isPending
  return (
    <button
      type="button"
      className="button button--secondary button--small menubar-vm-button"
      disabled={button.disabled || busy}
      onClick={() => {
        if (button.action === 'open' && vm) void navigate(`/machines/${vm.id}`)
        else if (button.action === 'launch') launch.mutate(simulationId)
        else if (button.action === 'relaunch') relaunch.mutate(simulationId)
      }}
    >
      {busy ? VM_MESSAGES.launching : button.text}
    </button>
  )
}
