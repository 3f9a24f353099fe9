import { useId, useState } from 'react'
import { checkVmLaunch, launchableSimulations, VM_MESSAGES } from '../../../domain/accountVm.ts'
import { Dialog } from '../../components/Dialog.tsx'
import { useSlimProjectsQuery } from '../../queries/queries.ts'
import { useLaunchVm, useRemoteVmsQuery } from './vmQueries.ts'

/**
 * The Launch VM dialog (spec/account.md §2, §5): a project, then one of its simulations that has
 * run and has no VM yet (a stopped VM's simulation may launch again); launching needs VM hours.
 */
export function LaunchVmDialog({ vmHours, onClose }: { vmHours: number; onClose: () => void }) {
  const projectId = useId()
  const simulationId = useId()
  const projects = useSlimProjectsQuery()
  const vms = useRemoteVmsQuery()
  const launch = useLaunchVm()
  const [project, setProject] = useState<number | null>(null)
  const [simulation, setSimulation] = useState<number | null>(null)
  const withVm = (vms.data ?? [])
    .filter((vm) => vm.state !== 'stopped')
    .map((vm) => vm.simulation.id)
  const chosenProject = projects.data?.results.find((p) => p.id === project)
  const simulations = chosenProject ? launchableSimulations(chosenProject.simulations, withVm) : []
  const issues = checkVmLaunch({ projectId: project, simulationId: simulation }, vmHours)
  const noHours = issues.find((issue) => issue.field === 'vmHours')

  return (
    <Dialog title={VM_MESSAGES.launch} onClose={onClose} size="small">
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (issues.length > 0 || simulation === null) return
          launch.mutate(simulation, { onSuccess: onClose })
        }}
      >
        <div className="dialog__body">
          <div className="field">
            <label htmlFor={projectId} className="field__label">
              Project
            </label>
            <select
              id={projectId}
              className="select"
              value={project ?? ''}
              onChange={(event) => {
                setProject(event.target.value === '' ? null : Number(event.target.value))
                setSimulation(null)
              }}
            >
              <option value="">Select a project</option>
              {(projects.data?.results ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={simulationId} className="field__label">
              Simulation
            </label>
            <select
              id={simulationId}
              className="select"
              value={simulation ?? ''}
              disabled={project === null}
              onChange={(event) =>
                setSimulation(event.target.value === '' ? null : Number(event.target.value))
              }
            >
              <option value="">
                {project !== null && simulations.length === 0
                  ? 'No simulation to post-process'
                  : 'Select a simulation'}
              </option>
              {simulations.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          {noHours && (
            <p className="field__error" role="alert">
              {noHours.message}
            </p>
          )}
        </div>
        <footer className="dialog__footer">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={issues.length > 0 || launch.isPending}
          >
            {launch.isPending ? VM_MESSAGES.launching : 'Launch'}
          </button>
        </footer>
      </form>
    </Dialog>
  )
}
