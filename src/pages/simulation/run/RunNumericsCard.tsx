import { useQuery } from '@tanstack/react-query'
import { runNumericsLines } from '../../../../domain/runNumerics.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { callApi } from '../../../api/index.ts'
import { Fact } from '../../../components/Fact.tsx'
import { routeKey } from '../../../queries/queries.ts'

/** States in which a run may still write its numerical parameters: poll until it has. */
const STARTING_STATES: readonly Simulation['state'][] = ['creating', 'launching', 'running']
/** How often a starting run is asked for its parameters. */
const POLL_INTERVAL_MS = 5000

/** The numerical parameters of one run (GET …/jobs/{runId}/numerics); fixed once written. */
export function useRunNumericsQuery(simulation: Pick<Simulation, 'id' | 'activeRunId' | 'state'>) {
  const runId = simulation.activeRunId
  const input = { params: { id: String(simulation.id), runId: String(runId ?? 0) } }
  return useQuery({
    queryKey: routeKey('getRunNumerics', input),
    queryFn: ({ signal }) => callApi('getRunNumerics', input, { signal }),
    enabled: runId !== null,
    staleTime: Infinity,
    refetchInterval: (query) =>
      query.state.data?.numerics == null && STARTING_STATES.includes(simulation.state)
        ? POLL_INTERVAL_MS
        : false,
  })
}

/**
 * The run's details beside the Monitor's progress: the numerical parameters the active run used
 * (kernel, h, c0 and how it was chosen, viscosity, density diffusion, time step, integrator,
 * shifting, walls, particles), as the run logged them at its start.
 */
export function RunNumericsCard({
  simulation,
}: {
  simulation: Pick<Simulation, 'id' | 'activeRunId' | 'state'>
}) {
  const { data, isError } = useRunNumericsQuery(simulation)
  const numerics = data?.numerics ?? null
  return (
    <section className="card card--padded" aria-labelledby="numerics-heading">
      <h2 id="numerics-heading" className="card__title">
        Numerical parameters
      </h2>
      {numerics ? (
        <dl className="facts">
          {runNumericsLines(numerics).map(([term, value]) => (
            <Fact key={term} term={term}>
              {value}
            </Fact>
          ))}
        </dl>
      ) : (
        <p className="placeholder__text">
          {simulation.activeRunId === null
            ? 'The solver lists the parameters it uses here once the simulation runs.'
            : isError
              ? 'The parameters of this run could not be loaded.'
              : STARTING_STATES.includes(simulation.state)
                ? 'The solver lists the parameters it uses here as the run starts.'
                : 'This run did not record its parameters.'}
        </p>
      )}
    </section>
  )
}
