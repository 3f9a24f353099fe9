import { progressBarType, statusTooltip } from '../../../domain/simulationState.ts'
import { StatusPill } from '../../components/StatusPill.tsx'
import { formatCredits, formatDateTime, formatSize } from '../../lib/format.ts'
import { Fact } from '../../components/Fact.tsx'
import { PostImageCard } from './results/canvas/PostImageCard.tsx'
import { RunNumericsCard } from './run/RunNumericsCard.tsx'
import { useSimulationContext } from './SimulationLayout.tsx'

/** Progress (a 0 … 1 fraction in the log) in percent, 0 … 100. */
function progressPercent(progress: number | undefined): number {
  if (progress === undefined || !Number.isFinite(progress)) return 0
  return Math.min(100, Math.max(0, progress * 100))
}

/** Monitor: state and progress now; the tile dashboard comes with a later issue. */
export function DashboardPage() {
  const { simulation } = useSimulationContext()
  const percent = progressPercent(simulation.log?.progress)
  const log = simulation.log
  return (
    <div className="sim-grid">
      <section className="card card--padded" aria-labelledby="progress-heading">
        <h2 id="progress-heading" className="card__title">
          Progress
        </h2>
        <div className="progress-summary">
          <StatusPill state={simulation.state} />
          <span className="progress-summary__text">{statusTooltip(simulation.state)}</span>
        </div>
        <div
          className={`progress progress--${progressBarType(simulation.state)}`}
          role="progressbar"
          aria-label="Simulation progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(percent)}
          title={`${Math.round(percent)} %`}
        >
          <span className="progress__fill" style={{ width: `${percent}%` }} />
        </div>
        <p className="progress__label">{Math.round(percent)} % complete</p>
        <dl className="facts">
          {/* The log counts time and runtime in ms. */}
          <Fact term="Simulated time">{log ? `${(log.time / 1000).toFixed(3)} s` : '–'}</Fact>
          <Fact term="Runtime">{log ? `${Math.round(log.runtime / 1000)} s` : '–'}</Fact>
          <Fact term="Particles">{log ? log.particles.toLocaleString('en-US') : '–'}</Fact>
          <Fact term="Outputs written">{log ? log.output : '–'}</Fact>
        </dl>
      </section>
      <section className="card card--padded" aria-labelledby="details-heading">
        <h2 id="details-heading" className="card__title">
          Details
        </h2>
        <dl className="facts">
          <Fact term="Credits used">{formatCredits(simulation.creditsConsumed)}</Fact>
          <Fact term="Simulation hours">{simulation.simulationHoursConsumed.toFixed(2)}</Fact>
          <Fact term="Solver">
            {simulation.solver
              ? `${simulation.solver.name} (${simulation.gpu ? 'GPU' : 'CPU'})`
              : 'Not chosen yet'}
          </Fact>
          <Fact term="Cores">{simulation.cores ?? '–'}</Fact>
          <Fact term="Started">{formatDateTime(simulation.startedAt)}</Fact>
          <Fact term="Last edit">{formatDateTime(simulation.updatedAt)}</Fact>
          <Fact term="Size">{formatSize(simulation.size)}</Fact>
          <Fact term="Owned by">{simulation.creator.fullName}</Fact>
        </dl>
      </section>
      <RunNumericsCard simulation={simulation} />
      <PostImageCard simulation={simulation} />
      <section
        className="card card--padded placeholder sim-grid__wide"
        aria-labelledby="tiles-heading"
      >
        <h2 id="tiles-heading" className="card__title">
          Dashboard
        </h2>
        <p className="placeholder__text">
          Live graphs (particles, runtime per simulated second, time step), alerts, notes and images
          will be arranged here as tiles once the simulation runs.
        </p>
      </section>
    </div>
  )
}
