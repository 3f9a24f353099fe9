import { useState } from 'react'
import { Link, useParams } from 'react-router'
import {
  autoShutdownTime,
  autoShutdownToggle,
  VM_MESSAGES,
  type VirtualMachine,
} from '../../../domain/accountVm.ts'
import { formatHoursMinutes } from '../../../domain/units.ts'
import { Dialog } from '../../components/Dialog.tsx'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import { VmStorageUpload } from './VmStorageUpload.tsx'
import { VncScreen, type VncStatus } from './VncScreen.tsx'
import { useRemoteVmsQuery, useSetShutdownTime, useStopVm } from './vmQueries.ts'
import './machines.css'

/** The VM window's states (spec/account.md §2). */
type WindowState = 'loading' | 'connected' | 'stopping' | 'notFound' | 'error'

/** Texts of the VM window's states. */
export const VM_WINDOW_TEXTS = {
  loading: 'Connecting to the virtual machine…',
  launching: VM_MESSAGES.launchingHint,
  stopping: 'The virtual machine is shutting down.',
  notFound: 'This virtual machine does not exist.',
  error: 'Could not connect to the virtual machine.',
  stopped: 'The virtual machine is stopped.',
} as const

function windowState(vm: VirtualMachine | null | undefined, vnc: VncStatus): WindowState {
  if (vm === null) return 'notFound'
  if (vm === undefined) return 'loading'
  if (vm.state === 'stopping') return 'stopping'
  if (vm.state === 'failed' || vm.state === 'stopped' || vnc === 'failed') return 'error'
  if (vm.state === 'running' && vnc === 'connected') return 'connected'
  return 'loading'
}

/** /machines/{id}: the VM's desktop in noVNC, its auto shutdown, storage upload and Stop. */
export function MachinePage() {
  const { id } = useParams()
  const vms = useRemoteVmsQuery()
  const vm = vms.data
    ? (vms.data.find((candidate) => String(candidate.id) === id) ?? null)
    : undefined
  usePageTitle(vm ? vm.name : 'Machine')
  const [vnc, setVnc] = useState<VncStatus>('connecting')
  const state = windowState(vm, vnc)

  return (
    <div className="page">
      <header className="page__header">
        <h1 className="page__title">{vm ? vm.name : 'Machine'}</h1>
        <Link to="/machines" className="button button--secondary">
          All machines
        </Link>
      </header>
      {vm && <VmControls vm={vm} />}
      <section className="vm-window" aria-label="Remote desktop" data-state={state}>
        {vm?.state === 'running' && vm.websocketUrl && vm.password && (
          <VncScreen
            vmId={vm.id}
            websocketUrl={vm.websocketUrl}
            password={vm.password}
            label={`Desktop of ${vm.name}`}
            onStatus={setVnc}
          />
        )}
        {state !== 'connected' && (
          <div className="vm-window__message" role="status">
            <p>{windowMessage(state, vm)}</p>
            {state === 'error' && vm?.state === 'running' && (
              <button
                type="button"
                className="button button--secondary"
                onClick={() => window.location.reload()}
              >
                Try again
              </button>
            )}
          </div>
        )}
      </section>
    </div>
  )
}

function windowMessage(state: WindowState, vm: VirtualMachine | null | undefined): string {
  if (state === 'notFound') return VM_WINDOW_TEXTS.notFound
  if (state === 'stopping') return VM_WINDOW_TEXTS.stopping
  if (state === 'error')
    return vm?.state === 'stopped'
      ? VM_WINDOW_TEXTS.stopped
      : vm?.state === 'failed'
        ? `${VM_MESSAGES.couldNotStart} ${VM_MESSAGES.tryAgain}`
        : VM_WINDOW_TEXTS.error
  if (vm?.state === 'launching')
    return `${VM_MESSAGES.launchingTitle}. ${VM_WINDOW_TEXTS.launching}`
  return VM_WINDOW_TEXTS.loading
}

/** Hours, auto shutdown toggle (turning it off asks first), storage upload and Stop. */
function VmControls({ vm }: { vm: VirtualMachine }) {
  const toggle = autoShutdownToggle(vm)
  const setShutdown = useSetShutdownTime()
  const stop = useStopVm()
  const [confirmOff, setConfirmOff] = useState(false)
  const simulationId = vm.simulation.id
  return (
    <div className="vm-page__bar">
      <dl className="vm-page__facts">
        <div>
          <dt>State</dt>
          <dd className="vm-state">{vm.state}</dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>{formatHoursMinutes(vm.hoursConsumed)}</dd>
        </div>
        <div>
          <dt>Simulation</dt>
          <dd>
            {vm.simulation.projectName} / {vm.simulation.name}
          </dd>
        </div>
      </dl>
      <label className="vm-page__toggle">
        <input
          type="checkbox"
          role="switch"
          checked={toggle.checked}
          disabled={toggle.disabled || setShutdown.isPending}
          onChange={(event) => {
            if (event.target.checked)
              setShutdown.mutate({ simulationId, shutdownTime: autoShutdownTime(Date.now()) })
            else setConfirmOff(true)
          }}
        />
        {toggle.label ?? 'Auto shutdown'}
      </label>
      <VmStorageUpload vm={vm} />
      <button
        type="button"
        className="button button--danger"
        disabled={vm.state !== 'running' && vm.state !== 'launching'}
        onClick={() => stop.mutate(simulationId)}
      >
        Stop VM
      </button>
      {confirmOff && (
        <Dialog title="Turn auto shutdown off?" onClose={() => setConfirmOff(false)} size="small">
          <div className="dialog__body">
            <p className="dialog__text">
              The virtual machine keeps running, and consuming VM hours, until you stop it.
            </p>
          </div>
          <footer className="dialog__footer">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setConfirmOff(false)}
            >
              Cancel
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                setConfirmOff(false)
                setShutdown.mutate({ simulationId, shutdownTime: null })
              }}
            >
              Turn off
            </button>
          </footer>
        </Dialog>
      )}
    </div>
  )
}
