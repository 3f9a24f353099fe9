/**
 * The Statistics panel's outputs and operations fields (spec/results.md §6): which outputs (the
 * current one, a range of outputs or of time) and which operations, with the aggregator over the
 * outputs for each.
 */
import {
  OUTPUT_MODES,
  SENSOR_STATISTICS_OPERATIONS,
  outputTime,
  type OutputMode,
  type StatisticsConfig,
  type StatisticsOperation,
} from '../../../../../domain/results.ts'
import { RangeInputs } from './RangeInputs.tsx'
import { OPERATION_LABELS, OUTPUT_MODE_LABELS, configOperations } from './statisticsModel.ts'

/** Outputs: the mode, and the range of outputs or of time it asks for. */
export function OutputsFields({
  idPrefix,
  config,
  lastOutputNo,
  intervalS,
  issueFor,
  onChange,
}: {
  idPrefix: string
  config: StatisticsConfig
  lastOutputNo: number
  intervalS: number
  issueFor: (field: string) => string | undefined
  onChange: (patch: Partial<StatisticsConfig>) => void
}) {
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${idPrefix}-mode`}>
          Outputs
        </label>
        <select
          id={`${idPrefix}-mode`}
          className="select"
          value={config.outputMode}
          onChange={(event) => onChange({ outputMode: event.target.value as OutputMode })}
        >
          {OUTPUT_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {OUTPUT_MODE_LABELS[mode]}
            </option>
          ))}
        </select>
      </div>
      {config.outputMode === 'outputRange' && (
        <RangeInputs
          idPrefix={`${idPrefix}-output`}
          unitLabel="output"
          range={config.outputRange}
          step={1}
          max={lastOutputNo}
          errors={[issueFor('outputRange.0'), issueFor('outputRange.1')]}
          onChange={(outputRange) => onChange({ outputRange })}
        />
      )}
      {config.outputMode === 'timeRange' && (
        <RangeInputs
          idPrefix={`${idPrefix}-time`}
          unitLabel="time (s)"
          range={config.timeRange}
          step={intervalS > 0 ? intervalS : 'any'}
          max={outputTime(lastOutputNo, intervalS)}
          errors={[issueFor('timeRange.0'), issueFor('timeRange.1')]}
          onChange={(timeRange) => onChange({ timeRange })}
        />
      )}
      {config.outputMode === 'current' && issueFor('output') && (
        <p className="field__error">{issueFor('output')}</p>
      )}
    </>
  )
}

/** Operations to compute, and for a range of outputs how each is aggregated over them. */
export function OperationsFields({
  idPrefix,
  config,
  offered,
  onToggle,
  onChange,
}: {
  idPrefix: string
  config: StatisticsConfig
  offered: readonly StatisticsOperation[]
  onToggle: (op: StatisticsOperation, on: boolean) => void
  onChange: (patch: Partial<StatisticsConfig>) => void
}) {
  return (
    <>
      <fieldset className="stats-panel__group">
        <legend className="field__label">Operations</legend>
        {offered.map((op) => (
          <label key={op} className="stats-panel__check">
            <input
              type="checkbox"
              checked={op in config.operations}
              onChange={(event) => onToggle(op, event.target.checked)}
            />
            {OPERATION_LABELS[op]}
          </label>
        ))}
      </fieldset>
      {config.outputMode !== 'current' && configOperations(config).length > 0 && (
        <fieldset className="stats-panel__group">
          <legend className="field__label">Over all outputs</legend>
          {configOperations(config).map((op) => (
            <span key={op} className="stats-panel__aggregator">
              <label htmlFor={`${idPrefix}-over-${op}`}>{OPERATION_LABELS[op]}</label>
              <select
                id={`${idPrefix}-over-${op}`}
                className="select"
                aria-label={`${OPERATION_LABELS[op]} over outputs`}
                value={config.operations[op]}
                onChange={(event) =>
                  onChange({
                    operations: {
                      ...config.operations,
                      [op]: event.target.value as StatisticsOperation,
                    },
                  })
                }
              >
                {SENSOR_STATISTICS_OPERATIONS.map((aggregator) => (
                  <option key={aggregator} value={aggregator}>
                    {OPERATION_LABELS[aggregator]}
                  </option>
                ))}
              </select>
            </span>
          ))}
        </fieldset>
      )}
    </>
  )
}
