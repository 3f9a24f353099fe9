import { useMutation } from '@tanstack/react-query'
import { useSetAtom } from 'jotai'
import { Link, useNavigate } from 'react-router'
import { TOAST_DURATION_MS } from '../../../domain/constants.ts'
import type { SimulationSummary } from '../../../domain/projects.ts'
import {
  SETUP_NOT_AVAILABLE_TOOLTIP,
  postprocessorAvailability,
  simulationRowTarget,
} from '../../../domain/simulationState.ts'
import { messageOf } from '../../api/ApiError.ts'
import { downloadSimulation } from '../../api/files.ts'
import { callApi } from '../../api/index.ts'
import { IconDots } from '../../components/icons.tsx'
import { Menu, type MenuEntry } from '../../components/Menu.tsx'
import { StatusPill } from '../../components/StatusPill.tsx'
import { usePushToast } from '../../components/Toasts.tsx'
import { Tooltip } from '../../components/Tooltip.tsx'
import { formatCredits, formatDateTime, formatSize } from '../../lib/format.ts'
import { useInvalidateProjects } from '../../queries/invalidate.ts'
import { projectsDialogAtom } from '../../state/projectsDialogAtom.ts'
import { simulationPageLink } from './projectLinks.ts'

/** The simulations of one project with their status, figures, pages and actions. */
export function SimulationTable({
  projectId,
  simulations,
  uploadEnabled,
}: {
  projectId: number
  simulations: readonly SimulationSummary[]
  uploadEnabled: boolean
}) {
  if (simulations.length === 0) return <p className="simulations-empty">No simulations</p>
  return (
    <div className="table-wrap">
      <table className="table table--simulations">
        <colgroup>
          <col className="col--name" />
          <col className="col--status" />
          <col className="col--credits" />
          <col className="col--date" />
          <col className="col--size" />
          <col className="col--owner" />
          <col className="col--open" />
          <col className="col--actions" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Simulation</th>
            <th scope="col">Status</th>
            <th scope="col" className="table__numeric">
              Credits
            </th>
            <th scope="col">Last edit</th>
            <th scope="col" className="table__numeric">
              Size
            </th>
            <th scope="col">Owned by</th>
            <th scope="col">Open in</th>
            <th scope="col" className="table__actions">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {simulations.map((simulation) => (
            <SimulationRow
              key={simulation.id}
              projectId={projectId}
              simulation={simulation}
              uploadEnabled={uploadEnabled}
            />
          ))}
        </tbody>
      </table>
    </div>
  )
}

function SimulationRow({
  projectId,
  simulation,
  uploadEnabled,
}: {
  projectId: number
  simulation: SimulationSummary
  uploadEnabled: boolean
}) {
  const navigate = useNavigate()
  const target = simulationPageLink(simulation.id, simulationRowTarget(simulation))
  return (
    <tr className="table__row--clickable" onClick={() => void navigate(target)}>
      <td className="table__primary">
        <Link to={target} onClick={(event) => event.stopPropagation()}>
          {simulation.name}
        </Link>
        {simulation.description && (
          <span className="table__secondary" title={simulation.description}>
            {simulation.description}
          </span>
        )}
      </td>
      <td>
        <StatusPill state={simulation.state} />
      </td>
      <td className="table__numeric">{formatCredits(simulation.creditsConsumed)}</td>
      <td className="table__nowrap">{formatDateTime(simulation.updatedAt)}</td>
      <td className="table__numeric">{formatSize(simulation.size)}</td>
      <td className="table__nowrap">{simulation.creator.fullName}</td>
      <td onClick={(event) => event.stopPropagation()}>
        <OpenInLinks simulation={simulation} />
      </td>
      <td className="table__actions" onClick={(event) => event.stopPropagation()}>
        <SimulationActions
          projectId={projectId}
          simulation={simulation}
          uploadEnabled={uploadEnabled}
        />
      </td>
    </tr>
  )
}

function OpenInLinks({ simulation }: { simulation: SimulationSummary }) {
  const results = postprocessorAvailability(simulation)
  return (
    <span className="open-in">
      {simulation.uploadedSetup ? (
        <DisabledLink label="Setup" tooltip={SETUP_NOT_AVAILABLE_TOOLTIP} />
      ) : (
        <Link className="open-in__link" to={simulationPageLink(simulation.id, 'preprocessor')}>
          Setup
        </Link>
      )}
      <Link className="open-in__link" to={simulationPageLink(simulation.id, 'dashboard')}>
        Monitor
      </Link>
      {results.available ? (
        <Link className="open-in__link" to={simulationPageLink(simulation.id, 'postprocessor')}>
          Results
        </Link>
      ) : (
        <DisabledLink label="Results" tooltip={results.message} />
      )}
    </span>
  )
}

function DisabledLink({ label, tooltip }: { label: string; tooltip: string }) {
  return (
    <Tooltip content={tooltip}>
      <span className="open-in__link open-in__link--disabled" aria-disabled="true" tabIndex={0}>
        {label}
      </span>
    </Tooltip>
  )
}

function SimulationActions({
  projectId,
  simulation,
  uploadEnabled,
}: {
  projectId: number
  simulation: SimulationSummary
  uploadEnabled: boolean
}) {
  const setDialog = useSetAtom(projectsDialogAtom)
  const pushToast = usePushToast()
  const invalidateProjects = useInvalidateProjects()
  const ids = { projectId, simulationId: simulation.id }

  const clone = useMutation({
    mutationFn: async () => {
      await callApi('cloneSimulation', { params: { id: String(simulation.id) } })
      await invalidateProjects()
    },
    onError: (error) =>
      pushToast({
        kind: 'error',
        title: 'Cloning simulation failed',
        description: messageOf(error),
        durationMs: TOAST_DURATION_MS.simulation,
      }),
  })
  const download = useMutation({
    mutationFn: () => downloadSimulation(simulation),
    onError: (error) =>
      pushToast({
        kind: 'error',
        title: 'Download failed',
        description: messageOf(error),
        durationMs: TOAST_DURATION_MS.simulation,
      }),
  })

  const entries: MenuEntry[] = [
    {
      kind: 'action',
      label: 'Rename',
      onSelect: () => setDialog({ kind: 'rename-simulation', ...ids }),
    },
  ]
  if (simulation.state !== 'not started')
    entries.push({
      kind: 'action',
      label: 'Download',
      disabled: download.isPending,
      onSelect: () => download.mutate(),
    })
  entries.push({
    kind: 'action',
    label: 'Move',
    onSelect: () => setDialog({ kind: 'move-simulation', ...ids }),
  })
  if (uploadEnabled)
    entries.push({
      kind: 'action',
      label: 'Upload',
      onSelect: () => setDialog({ kind: 'upload-simulation', ...ids }),
    })
  entries.push(
    {
      kind: 'action',
      label: 'Clone',
      disabled: clone.isPending,
      onSelect: () => clone.mutate(),
    },
    { kind: 'separator' },
    {
      kind: 'action',
      label: 'Delete',
      danger: true,
      onSelect: () => setDialog({ kind: 'delete-simulation', ...ids }),
    },
  )

  return (
    <Menu
      label={`Actions for ${simulation.name}`}
      trigger={<IconDots width={18} height={18} />}
      entries={entries}
    />
  )
}
