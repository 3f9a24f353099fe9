import { useQuery } from '@tanstack/react-query'
import {
  LAUNCH_DELAYED_MESSAGE,
  LAUNCH_DELAY_MS,
  LAUNCH_FAILED_MESSAGE,
  RUN_FAILED_MESSAGE,
  estimatedBudgetHours,
} from '../../../../../domain/dashboards.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { progressBarType, statusTooltipOf } from '../../../../../domain/simulationState.ts'
import { formatCount, formatNumber } from '../../../../../domain/units.ts'
import { callApi } from '../../../../api/index.ts'
import { Fact } from '../../../../components/Fact.tsx'
import { StatusPill } from '../../../../components/StatusPill.tsx'
import { formatCredits, formatDateTime, formatSize } from '../../../../lib/format.ts'
import { useCurrentUser } from '../../../../lib/currentUser.ts'
import { routeKey, useOrganizationQuery } from '../../../../queries/queries.ts'
import { useTessellationRunsQuery } from '../../setup/assemblies/assemblyQueries.ts'
import { useCompressionQuery } from '../../sidebar/compressionQueries.ts'

/** Progress (a 0 … 1 fraction in the log) in percent, 0 … 100. */
export function progressPercent(progress: number | undefined): number {
  if (progress === undefined || !Number.isFinite(progress)) return 0
  return Math.min(100, Math.max(0, progress * 100))
}

/** Progress tile kinds of spec §2: creating, launching, running in progress; completed success; failed states error. */
export function progressKind(
  state: Simulation['state'],
): 'progress' | 'success' | 'error' | 'idle' {
  if (state === 'creating' || state === 'launching' || state === 'running') return 'progress'
  if (state === 'completed') return 'success'
  if (state === 'failed' || state === 'launch failed' || state === 'creation failed') return 'error'
  return 'idle'
}

/** The message under the progress bar (spec §2), or null. */
export function progressMessage(simulation: Simulation, nowMs: number): string | null {
  if (simulation.state === 'failed') return RUN_FAILED_MESSAGE
  if (simulation.state === 'launch failed') return LAUNCH_FAILED_MESSAGE
  if (simulation.state === 'launching') {
    const since = Date.parse(simulation.startedAt ?? simulation.updatedAt)
    if (Number.isFinite(since) && nowMs - since > LAUNCH_DELAY_MS) return LAUNCH_DELAYED_MESSAGE
  }
  return null
}

export function ProgressTileBody({ simulation, nowMs }: { simulation: Simulation; nowMs: number }) {
  const percent = progressPercent(simulation.log?.progress)
  const message = progressMessage(simulation, nowMs)
  const kind = progressKind(simulation.state)
  const label = `${formatNumber(Math.round(percent * 10) / 10)} %`
  return (
    <div className={`dashboard-progress dashboard-progress--${kind}`}>
      <div className="progress-summary">
        <StatusPill state={simulation.state} lastStopCondition={simulation.lastStopCondition} />
        <span className="progress-summary__text">
          {statusTooltipOf(simulation.state, simulation.lastStopCondition)}
        </span>
      </div>
      <div
        className={`progress progress--${progressBarType(simulation.state)}`}
        role="progressbar"
        aria-label="Simulation progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        aria-valuetext={label}
        title={label}
      >
        <span className="progress__fill" style={{ width: `${percent}%` }} />
      </div>
      {message && (
        <p className="dashboard-progress__message" role={kind === 'error' ? 'alert' : 'status'}>
          {message}
        </p>
      )}
    </div>
  )
}

export function DetailsTileBody({ simulation }: { simulation: Simulation }) {
  const log = simulation.log
  return (
    <dl className="facts facts--compact">
      <Fact term="Simulated time">{log ? `${formatNumber(log.time / 1000, 6)} s` : '–'}</Fact>
      <Fact term="Runtime">{log ? `${formatNumber(log.runtime / 60_000, 4)} min` : '–'}</Fact>
      <Fact term="Particles">{log ? formatCount(log.particles) : '–'}</Fact>
      <Fact term="Outputs written">{log ? formatCount(Math.max(0, log.output)) : '–'}</Fact>
      <Fact term="Solver">{simulation.solver ? simulation.solver.name : 'Not chosen yet'}</Fact>
      <Fact term="Cores">{simulation.cores ?? '–'}</Fact>
      <Fact term="Started">{formatDateTime(simulation.startedAt)}</Fact>
      <Fact term="Size">{formatSize(simulation.size)}</Fact>
    </dl>
  )
}

export function BudgetTileBody({ simulation }: { simulation: Simulation }) {
  const user = useCurrentUser()
  const organization = useOrganizationQuery(user.organization.id)
  const credits = organization.data?.credits
  return (
    <dl className="facts facts--compact">
      <Fact term="Credits used">{formatCredits(simulation.creditsConsumed)}</Fact>
      <Fact term="Credits left">{credits === undefined ? '–' : formatCredits(credits)}</Fact>
      <Fact term="Estimated budget">
        {credits === undefined ? '–' : `${formatNumber(estimatedBudgetHours(credits), 4)} h`}
      </Fact>
      <Fact term="Simulation hours">
        {`${formatNumber(simulation.simulationHoursConsumed, 4)} h`}
      </Fact>
    </dl>
  )
}

const JOB_POLL_MS = 5_000

function jobLine(state: string | undefined, progress: number | undefined): string {
  if (state === undefined) return 'Not started'
  const percent = progress === undefined ? '' : ` (${formatNumber(Math.round(progress * 100))} %)`
  return `${state.charAt(0).toUpperCase()}${state.slice(1)}${state === 'running' ? percent : ''}`
}

/**
 * The simulation's jobs besides the run: discretization, sensors, tessellation, export and
 * compression, with their states (the Run sidebar's Jobs Progress has their widgets).
 */
export function JobTileBody({ simulation }: { simulation: Simulation }) {
  const input = { params: { id: String(simulation.id) } }
  const discretization = useQuery({
    queryKey: routeKey('getDiscretization', input),
    queryFn: ({ signal }) => callApi('getDiscretization', input, { signal }),
    refetchInterval: JOB_POLL_MS,
  })
  const sensors = useQuery({
    queryKey: routeKey('getSensorRecomputation', input),
    queryFn: ({ signal }) => callApi('getSensorRecomputation', input, { signal }),
    refetchInterval: JOB_POLL_MS,
  })
  const exported = useQuery({
    queryKey: routeKey('getUserExport', input),
    queryFn: ({ signal }) => callApi('getUserExport', input, { signal }),
    refetchInterval: JOB_POLL_MS,
  })
  const compressed = useCompressionQuery(simulation.id).data?.compression ?? undefined
  const tessellation = useTessellationRunsQuery(simulation.id).data?.[0]
  const sensorJob = sensors.data?.id === null ? undefined : sensors.data
  return (
    <dl className="facts facts--compact">
      <Fact term="Discretization">
        {jobLine(discretization.data?.state, discretization.data?.progress)}
      </Fact>
      <Fact term="Sensors">{jobLine(sensorJob?.state, sensorJob?.progress)}</Fact>
      <Fact term="Tessellation">{jobLine(tessellation?.state, tessellation?.progress)}</Fact>
      <Fact term="Export">
        {jobLine(exported.data?.export?.state, exported.data?.export?.progress)}
      </Fact>
      <Fact term="Compression">{jobLine(compressed?.state, compressed?.progress)}</Fact>
    </dl>
  )
}
