/** The Statistics panel's results: progress, the load prompt, the values and the per-output table. */
import {
  STATISTICS_MESSAGES,
  outputTime,
  type StatisticsOperation,
} from '../../../../../domain/results.ts'
import { formatNumber } from '../../../../../domain/units.ts'
import { Spinner } from '../../../../components/Spinner.tsx'
import {
  OPERATION_LABELS,
  attributeAxisLabel,
  configOperations,
  displayValue,
} from './statisticsModel.ts'
import { calculationMessage, type StatisticsResult } from './statisticsCalculation.ts'

export function StatisticsResults(props: {
  panelMessage: string | null
  running: StatisticsResult | null
  onCancel: () => void
  prompt: boolean
  /** The form asks for what `shown` was computed for. */
  unchanged: boolean
  shown: StatisticsResult | null
  intervalS: number
  onPlot: (op: StatisticsOperation) => void
}) {
  if (props.panelMessage) return <p className="stats-panel__message">{props.panelMessage}</p>
  if (props.running) {
    const percent = Math.round(props.running.progress * 100)
    return (
      <div className="stats-panel__progress">
        <Spinner label="Computing statistics" />
        <progress max={100} value={percent} aria-label="Statistics progress" />
        <span>{percent} %</span>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={props.onCancel}
        >
          Cancel
        </button>
      </div>
    )
  }
  const promptLine = <p className="stats-panel__message">{STATISTICS_MESSAGES.loadPrompt}</p>
  if (props.prompt) {
    // A calculation of this very config that ended without data still says why.
    const ended = props.unchanged && props.shown ? calculationMessage(props.shown) : null
    return (
      <>
        {ended && (
          <p className="alert alert--warning" role="status">
            {ended}
          </p>
        )}
        {promptLine}
      </>
    )
  }
  const shown = props.shown
  if (!shown) return null
  const message = calculationMessage(shown)
  const ops = configOperations(shown.config)
  const label = attributeAxisLabel(shown.config.attribute, shown.config.subAttribute)
  const cell = (value: number | null | undefined) =>
    value === null || value === undefined
      ? '–'
      : formatNumber(displayValue(shown.config.attribute, value))
  const isRange = shown.config.outputMode !== 'current'
  const hasTable = shown.state === 'completed' || shown.values.size > 0
  return (
    <>
      {message && (
        <p
          className={`alert ${shown.state === 'completed' ? 'alert--warning' : 'alert--error'}`}
          role={shown.state === 'completed' ? 'status' : 'alert'}
        >
          {message}
        </p>
      )}
      {hasTable && !isRange && (
        <div className="table-wrap">
          <table className="table stats-panel__table" aria-label="Statistics results">
            <thead>
              <tr>
                <th scope="col">Operation</th>
                <th scope="col">{label}</th>
              </tr>
            </thead>
            <tbody>
              {ops.map((op) => (
                <tr key={op}>
                  <th scope="row">{OPERATION_LABELS[op]}</th>
                  <td>{cell(shown.values.get(shown.outputs[0] ?? -1)?.[op])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hasTable && isRange && (
        <>
          <div className="table-wrap">
            <table className="table stats-panel__table" aria-label="Statistics summary">
              <caption className="stats-panel__caption">{label}</caption>
              <thead>
                <tr>
                  <th scope="col">Operation</th>
                  <th scope="col">Over outputs</th>
                  <th scope="col">All outputs</th>
                  <th scope="col">
                    <span className="visually-hidden">Chart</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {ops.map((op) => (
                  <tr key={op}>
                    <th scope="row">{OPERATION_LABELS[op]}</th>
                    <td className="stats-panel__over">
                      {OPERATION_LABELS[shown.config.operations[op] ?? op]}
                    </td>
                    <td>{cell(shown.aggregates[op])}</td>
                    <td>
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        aria-label={`Plot ${OPERATION_LABELS[op]}`}
                        onClick={() => props.onPlot(op)}
                      >
                        Plot
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {/* focusable, so that the keyboard scrolls a long table (axe scrollable-region-focusable) */}
          <div
            className="table-wrap stats-panel__outputs"
            tabIndex={0}
            role="region"
            aria-label="Statistics per output, scrollable"
          >
            <table className="table stats-panel__table" aria-label="Statistics per output">
              <thead>
                <tr>
                  <th scope="col">Output</th>
                  <th scope="col">Time (s)</th>
                  {ops.map((op) => (
                    <th key={op} scope="col">
                      {OPERATION_LABELS[op]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.outputs.map((outputNo) => (
                  <tr key={outputNo}>
                    <th scope="row">{outputNo}</th>
                    <td>{formatNumber(outputTime(outputNo, props.intervalS))}</td>
                    {ops.map((op) => (
                      <td key={op}>{cell(shown.values.get(outputNo)?.[op])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  )
}
