import type { Simulation } from '../../../../domain/projects.ts'
import type { RunHistoryEntry } from '../../../../domain/rest/runRoutes.ts'
import { formatDate } from '../../../../domain/units.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { LoadingBlock } from '../../../components/Spinner.tsx'
import { useRunHistoryQuery } from './sidebarQueries.ts'

/** An entry's time of day with seconds, in local time ('14:03:07'), and its date as a title. */
function timeOfDay(at: string): string {
  const date = new Date(at)
  if (Number.isNaN(date.getTime())) return ''
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':')
}

/**
 * History of the Run sidebar: the active run's log, oldest first, each entry with its level
 * (TRACE … SUCCESS). Progress lines come as DEBUG entries, which the server sends to admins only.
 */
export function HistoryTab({ simulation }: { simulation: Simulation }) {
  const history = useRunHistoryQuery(simulation)
  if (history.isError)
    return (
      <p className="alert alert--error" role="alert">
        {messageOf(history.error)}
      </p>
    )
  if (!history.data) return <LoadingBlock label="Loading the history" />
  if (history.data.entries.length === 0)
    return (
      <p className="run-sidebar__empty">
        {history.data.runId === null
          ? 'No history yet: the simulation has not run.'
          : 'The run has not logged anything yet.'}
      </p>
    )
  return (
    <ol className="run-history" aria-label="Run history">
      {history.data.entries.map((entry, index) => (
        <HistoryEntry key={index} entry={entry} />
      ))}
    </ol>
  )
}

function HistoryEntry({ entry }: { entry: RunHistoryEntry }) {
  return (
    <li className={`run-history__entry run-history__entry--${entry.level.toLowerCase()}`}>
      <time className="run-history__time" dateTime={entry.at} title={formatDate(entry.at)}>
        {timeOfDay(entry.at)}
      </time>
      <span className="run-history__level">{entry.level}</span>
      <span className="run-history__message">{entry.message}</span>
    </li>
  )
}
