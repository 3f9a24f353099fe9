import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { Link, Outlet, useLocation, useNavigate, useOutletContext, useParams } from 'react-router'
import { TOAST_DURATION_MS } from '../../../domain/constants.ts'
import type { Project, Simulation } from '../../../domain/projects.ts'
import {
  SETUP_NOT_AVAILABLE_TOOLTIP,
  postprocessorAvailability,
  preprocessorAvailability,
  stateChangeToast,
  type PageAvailability,
} from '../../../domain/simulationState.ts'
import { isApiError, messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { IconChevronRight, IconExternal } from '../../components/icons.tsx'
import { LoadingBlock } from '../../components/Spinner.tsx'
import { StatusPill } from '../../components/StatusPill.tsx'
import { Dialog } from '../../components/Dialog.tsx'
import { usePushToast } from '../../components/Toasts.tsx'
import { Tooltip } from '../../components/Tooltip.tsx'
import { useCurrentUser } from '../../lib/currentUser.ts'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import { routeKey, useSimulationQuery } from '../../queries/queries.ts'
import { NotFoundPage } from '../NotFoundPage.tsx'
import { projectPageLink, simulationPageLink } from '../projects/projectLinks.ts'
import { RunControls } from './run/RunControls.tsx'
import { SimulationTitle } from './SimulationTitle.tsx'
import { WarningAlertToasts } from './sidebar/WarningAlertToasts.tsx'
import type { SimulationMode } from './simulationMode.ts'
import { SIMULATION_MODES, simulationModeOf } from './simulationMode.ts'

export { SIMULATION_MODES, simulationModeOf } from './simulationMode.ts'
export type { SimulationMode } from './simulationMode.ts'

export interface SimulationOutletContext {
  simulation: Simulation
  project: Project | undefined
}

export function useSimulationContext(): SimulationOutletContext {
  return useOutletContext<SimulationOutletContext>()
}

/** The confirmation of leaving Results for Setup while a run is loaded (spec/setup.md §2). */
export const LOAD_SETUP_TEXTS = {
  title: 'Load Setup?',
  text: 'The results of this run are unloaded. They load again when you come back to Results.',
  stay: 'No, stay',
  load: 'Yes, load',
} as const

export function availabilityOf(simulation: Simulation, mode: SimulationMode): PageAvailability {
  if (mode === 'preprocessor') return preprocessorAvailability(simulation)
  if (mode === 'postprocessor') return postprocessorAvailability(simulation)
  return { available: true }
}

/**
 * /simulation/:id/{preprocessor|dashboard|postprocessor}: breadcrumb, header and page navigation
 * around the page; the last path segment selects the mode, anything else is not found.
 */
export function SimulationLayout() {
  const { id = '' } = useParams()
  const { pathname } = useLocation()
  const mode = simulationModeOf(pathname)
  // Unknown sub-routes get the router's not-found page, outside the simulation's frame.
  if (mode === null) return <Outlet />
  return <SimulationFrame id={id} mode={mode} />
}

function SimulationFrame({ id, mode }: { id: string; mode: SimulationMode }) {
  const user = useCurrentUser()
  const simulationQuery = useSimulationQuery(id)
  const simulation = simulationQuery.data
  const projectParams = { id: String(simulation?.projectId ?? '') }
  const projectQuery = useQuery({
    queryKey: routeKey('getProject', { params: projectParams }),
    queryFn: ({ signal }) => callApi('getProject', { params: projectParams }, { signal }),
    enabled: simulation !== undefined,
  })
  const hidden =
    isApiError(simulationQuery.error) &&
    (simulationQuery.error.status === 404 || simulationQuery.error.status === 403)
  usePageTitle(
    simulation
      ? `${SIMULATION_MODES[mode]} – ${simulation.name}`
      : hidden
        ? null
        : SIMULATION_MODES[mode],
  )
  useStateChangeToasts(simulation, mode)

  if (hidden) return <NotFoundPage />
  // A failed refresh keeps the page on the simulation it has (issue 13: an outage replaced it).
  if (simulationQuery.isError && !simulation)
    return (
      <div className="page">
        <div className="alert alert--error" role="alert">
          Could not load the simulation: {messageOf(simulationQuery.error)}
        </div>
      </div>
    )
  if (!simulation) return <LoadingBlock label="Loading simulation" />

  const project = projectQuery.data
  const context: SimulationOutletContext = { simulation, project }
  return (
    <div className="page page--simulation">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/projects">Projects</Link>
          </li>
          <li>
            <IconChevronRight className="breadcrumb__separator" />
            <Link
              to={
                project
                  ? projectPageLink(project, user.id)
                  : `/projects?projectIds=${simulation.project.id}`
              }
            >
              {simulation.project.name}
            </Link>
          </li>
          <li>
            <IconChevronRight className="breadcrumb__separator" />
            <span>{simulation.name}</span>
          </li>
          <li>
            <IconChevronRight className="breadcrumb__separator" />
            <span aria-current="page">{SIMULATION_MODES[mode]}</span>
          </li>
        </ol>
      </nav>
      <header className="sim-header">
        <div className="sim-header__title-row">
          <SimulationTitle simulation={simulation} />
          <StatusPill state={simulation.state} lastStopCondition={simulation.lastStopCondition} />
          {simulation.uploadedSetup && <span className="tag">Uploaded setup</span>}
          <RunControls simulation={simulation} />
        </div>
        {simulation.description && (
          <p className="sim-header__description">{simulation.description}</p>
        )}
      </header>
      <div className="sim-nav">
        <nav className="tabs" aria-label="Simulation pages">
          {(Object.keys(SIMULATION_MODES) as SimulationMode[]).map((tab) => (
            <SimulationTab key={tab} simulation={simulation} tab={tab} mode={mode} />
          ))}
        </nav>
        <a
          className="button button--ghost button--small"
          href={simulationPageLink(simulation.id, mode)}
          target="_blank"
          rel="noopener noreferrer"
        >
          <IconExternal />
          Open in new tab
        </a>
      </div>
      <WarningAlertToasts simulation={simulation} />
      <Outlet context={context} />
    </div>
  )
}

function SimulationTab({
  simulation,
  tab,
  mode,
}: {
  simulation: Simulation
  tab: SimulationMode
  /** The page shown now. */
  mode: SimulationMode
}) {
  const [confirming, setConfirming] = useState(false)
  const active = tab === mode
  const availability = availabilityOf(simulation, tab)
  const className = `tabs__tab${active ? ' tabs__tab--active' : ''}`
  if (!availability.available)
    return (
      <Tooltip
        content={tab === 'preprocessor' ? SETUP_NOT_AVAILABLE_TOOLTIP : availability.message}
      >
        <span
          className={`${className} tabs__tab--disabled`}
          aria-disabled="true"
          aria-current={active ? 'page' : undefined}
          tabIndex={0}
        >
          {SIMULATION_MODES[tab]}
        </span>
      </Tooltip>
    )
  const asksToLoadSetup =
    mode === 'postprocessor' && tab === 'preprocessor' && simulation.activeRunId !== null
  return (
    <>
      <Link
        to={simulationPageLink(simulation.id, tab)}
        className={className}
        aria-current={active ? 'page' : undefined}
        onClick={(event) => {
          if (!asksToLoadSetup) return
          event.preventDefault()
          setConfirming(true)
        }}
      >
        {SIMULATION_MODES[tab]}
      </Link>
      {confirming && (
        <LoadSetupDialog simulationId={simulation.id} onClose={() => setConfirming(false)} />
      )}
    </>
  )
}

/**
 * 'Load Setup?': leaving Results for Setup unloads the run's results; they are fetched again
 * when the person comes back (the Results page starts a new engine and refetches its outputs).
 */
function LoadSetupDialog({ simulationId, onClose }: { simulationId: number; onClose: () => void }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  return (
    <Dialog title={LOAD_SETUP_TEXTS.title} onClose={onClose} size="small">
      <div className="dialog__body">
        <p>{LOAD_SETUP_TEXTS.text}</p>
      </div>
      <footer className="dialog__footer">
        <button type="button" className="button button--secondary" onClick={onClose}>
          {LOAD_SETUP_TEXTS.stay}
        </button>
        <button
          type="button"
          className="button button--primary"
          data-autofocus
          onClick={() => {
            onClose()
            // Stale now, refetched when Results mounts again (not while it is still on screen).
            void queryClient.invalidateQueries({
              queryKey: ['listOutputManifests'],
              refetchType: 'none',
            })
            void navigate(simulationPageLink(simulationId, 'preprocessor'))
          }}
        >
          {LOAD_SETUP_TEXTS.load}
        </button>
      </footer>
    </Dialog>
  )
}

/** A toast when the polled state changes (not on the dashboard, which shows the state itself). */
function useStateChangeToasts(simulation: Simulation | undefined, mode: SimulationMode) {
  const pushToast = usePushToast()
  const previousRef = useRef<{ id: number; state: string } | null>(null)
  const state = simulation?.state
  const simulationId = simulation?.id

  useEffect(() => {
    if (state === undefined || simulationId === undefined) return
    const previous = previousRef.current
    previousRef.current = { id: simulationId, state }
    if (!previous || previous.id !== simulationId || previous.state === state) return
    if (mode === 'dashboard') return
    const toast = stateChangeToast(state)
    if (!toast) return
    pushToast({
      id: `simulation-state-${simulationId}`,
      kind: toast.kind,
      title: toast.message,
      durationMs: TOAST_DURATION_MS.simulation,
      links: [
        { label: 'Monitor', to: simulationPageLink(simulationId, 'dashboard') },
        { label: 'Setup', to: simulationPageLink(simulationId, 'preprocessor') },
      ],
    })
  }, [state, simulationId, mode, pushToast])
}
