import {
  CONDITION_VALUE_TYPE_LABELS,
  LIMIT_UNITS,
  canEditConditions,
  thresholdToLimit,
} from '../../../../domain/conditions.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import type { RunCondition } from '../../../../domain/rest/runRoutes.ts'
import { formatNumber } from '../../../../domain/units.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { LoadingBlock } from '../../../components/Spinner.tsx'
import { AlertsStep } from '../run/StartRunDialog.tsx'
import { useRunConditionsQuery } from './sidebarQueries.ts'

/** Shown instead of the editor while the run goes on (spec/results.md §4). */
export const ALERTS_LOCKED = 'Alerts cannot be edited while the simulation is running.'

/**
 * Alerts of the Run sidebar (and the dashboard): every condition of the active run with its
 * action, value, operator, threshold and whether it triggered; below, the next run's alerts,
 * editable unless the simulation is running.
 */
export function AlertsTab({ simulation }: { simulation: Simulation }) {
  const editable = canEditConditions(simulation.state)
  return (
    <div className="run-sidebar__alerts">
      {simulation.activeRunId !== null && (
        <section aria-labelledby="alerts-run-heading">
          <h3 id="alerts-run-heading" className="run-sidebar__heading">
            This run
          </h3>
          <ConditionsTable simulation={simulation} runId={simulation.activeRunId} />
        </section>
      )}
      <section aria-labelledby="alerts-next-heading">
        <h3 id="alerts-next-heading" className="run-sidebar__heading">
          Next run
        </h3>
        {editable ? (
          <AlertsStep simulation={simulation} />
        ) : (
          <>
            <p className="field__hint">{ALERTS_LOCKED}</p>
            <ConditionsTable simulation={simulation} runId={-1} />
          </>
        )}
      </section>
    </div>
  )
}

/** A threshold in the unit people enter it in ('2 days', '0.5 s'). */
export function conditionLimitText(condition: Pick<RunCondition, 'valueType' | 'threshold'>) {
  const limit = thresholdToLimit(condition.valueType, condition.threshold)
  return `${formatNumber(limit)} ${LIMIT_UNITS[condition.valueType]}`
}

function ConditionsTable({ simulation, runId }: { simulation: Simulation; runId: number }) {
  const conditions = useRunConditionsQuery(simulation, runId)
  if (conditions.isError)
    return (
      <p className="alert alert--error" role="alert">
        {messageOf(conditions.error)}
      </p>
    )
  if (!conditions.data) return <LoadingBlock label="Loading alerts" />
  if (conditions.data.length === 0) return <p className="run-sidebar__empty">No alerts.</p>
  return (
    <table
      className="run-sidebar__table"
      aria-label={runId === -1 ? 'Next run alerts' : 'Run alerts'}
    >
      <thead>
        <tr>
          <th scope="col">Action</th>
          <th scope="col">Value</th>
          <th scope="col">Operator</th>
          <th scope="col">Threshold</th>
          <th scope="col">Triggered</th>
        </tr>
      </thead>
      <tbody>
        {conditions.data.map((condition) => (
          <tr
            key={condition.id}
            className={
              condition.triggered ? `run-sidebar__triggered--${condition.action}` : undefined
            }
          >
            <td>{condition.action === 'stop' ? 'Stop' : 'Warning'}</td>
            <td>{CONDITION_VALUE_TYPE_LABELS[condition.valueType]}</td>
            <td>{condition.operator === '>=' ? '≥' : '>'}</td>
            <td>{conditionLimitText(condition)}</td>
            <td>{condition.triggered ? 'Yes' : 'No'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
