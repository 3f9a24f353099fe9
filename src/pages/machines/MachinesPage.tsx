import { useState } from 'react'
import { Link } from 'react-router'
import { VM_MESSAGES, type VirtualMachine } from '../../../domain/accountVm.ts'
import { formatHoursMinutes } from '../../../domain/units.ts'
import { formatDateTime } from '../../lib/format.ts'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import { LaunchVmDialog } from './LaunchVmDialog.tsx'
import { StorageDialog } from './StorageDialog.tsx'
import { useRemoteVmsQuery, useVmHours } from './vmQueries.ts'
import './machines.css'

/** The auto shutdown column: the time it stops, or Off. */
export function autoShutdownText(vm: VirtualMachine): string {
  return vm.shutdownTime === null ? 'Off' : formatDateTime(vm.shutdownTime)
}

/**
 * /machines: the organization's VMs (Name, State, Time, Auto shutdown), polled every 10 s; the
 * header's Access storage (the organization storage) and Launch.
 */
export function MachinesPage() {
  usePageTitle('Machines')
  const vms = useRemoteVmsQuery()
  const vmHours = useVmHours()
  const [launching, setLaunching] = useState(false)
  const [accessingStorage, setAccessingStorage] = useState(false)
  return (
    <div className="page">
      <header className="page__header">
        <h1 className="page__title">Machines</h1>
        <div className="machines-actions">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setAccessingStorage(true)}
          >
            Access storage
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={vmHours === null || !(vmHours > 0)}
            onClick={() => setLaunching(true)}
          >
            {VM_MESSAGES.launch}
          </button>
        </div>
      </header>
      {accessingStorage && <StorageDialog onClose={() => setAccessingStorage(false)} />}
      {launching && vmHours !== null && (
        <LaunchVmDialog vmHours={vmHours} onClose={() => setLaunching(false)} />
      )}
      <div className="card">
        {vms.data && vms.data.length === 0 ? (
          <p className="card--padded">
            No virtual machines yet. Launch one to post-process a simulation&apos;s outputs.
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table machines-table">
              <caption className="visually-hidden">Virtual machines</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">State</th>
                  <th scope="col">Time</th>
                  <th scope="col">Auto shutdown</th>
                </tr>
              </thead>
              <tbody>
                {(vms.data ?? []).map((vm) => (
                  <tr key={vm.id}>
                    <td>
                      <Link to={`/machines/${vm.id}`}>{vm.name}</Link>
                      <div className="machines-table__sim">
                        {vm.simulation.projectName} / {vm.simulation.name}
                      </div>
                    </td>
                    <td className="vm-state">{vm.state}</td>
                    <td>{formatHoursMinutes(vm.hoursConsumed)}</td>
                    <td>{autoShutdownText(vm)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  )
}
