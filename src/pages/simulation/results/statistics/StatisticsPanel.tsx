import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useEffectEvent, useId, useMemo, useState } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import {
  ATTRIBUTES,
  STATISTICS_MESSAGES,
  checkStatisticsConfig,
  outputTime,
  recomputesAutomatically,
  showsLoadPrevious,
  showsLoadPrompt,
  statisticsOutputs,
  type AttributeName,
  type StatisticsConfig,
  type StatisticsOperation,
} from '../../../../../domain/results.ts'
import { Spinner } from '../../../../components/Spinner.tsx'
import { viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { addChartDatasetAtom } from '../charts/chartStore.ts'
import {
  PANEL_STATE_MESSAGES,
  canComputeOperations,
  configKey,
  configOperations,
  defaultAttributeInfo,
  defaultSelection,
  defaultSubAttribute,
  initialStatisticsConfig,
  knownAttributes,
  masksOfClip,
  objectGroup,
  offeredOperations,
  operationsRecord,
  panelStateOf,
  selectableObjects,
  selectionKey,
  subAttributeLabel,
} from './statisticsModel.ts'
import { chartDatasetOf } from './statisticsCalculation.ts'
import { useStatisticsCalculation } from './useStatisticsCalculation.ts'
import { OperationsFields, OutputsFields } from './StatisticsFields.tsx'
import { useSessionQueries } from './useSessionQueries.ts'
import { StatisticsResults as Results } from './StatisticsResults.tsx'

/**
 * The Statistics table panel of the Results screen (spec/results.md §4 "Statistics results
 * panel"): attribute and sub-option, objects, optional volume clip mask, output mode with its range
 * rules, operations; Load (ranges) or automatic recompute (current output); progress and Cancel;
 * the table, and a Plot action per operation that adds the series to the charts.
 */
export function StatisticsPanel({ simulation }: { simulation: Simulation }) {
  const { session, attributes, outputs, lastOutputNo, info, clips, recomputation } =
    useSessionQueries(simulation)
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const addChartDataset = useSetAtom(addChartDatasetAtom)
  const { result, start, cancel } = useStatisticsCalculation(session, simulation.id)
  const ids = useId()

  const attributeInfos = useMemo(() => knownAttributes(attributes.data ?? []), [attributes.data])
  const outputInfo = info.data?.infos[0]
  const objects = useMemo(() => selectableObjects(outputInfo?.objects ?? []), [outputInfo])
  const objectNames = useMemo(() => new Map(objects.map((o) => [o.id, o.name])), [objects])
  const intervalS =
    simulation.settings.outputTimeInterval ??
    (outputInfo && outputInfo.outputNo > 0 ? outputInfo.timeS / outputInfo.outputNo : 0)
  const context = { lastOutputNo: Math.max(0, lastOutputNo), outputTimeIntervalS: intervalS }

  // The form starts from defaults once the attributes and objects are known; edits replace them.
  const [edited, setConfig] = useState<StatisticsConfig | null>(null)
  const [clipId, setClipId] = useState<number | null>(null)
  const initialConfig = useMemo(
    () =>
      attributes.data && outputInfo && lastOutputNo >= 0
        ? initialStatisticsConfig(
            defaultAttributeInfo(attributeInfos),
            lastOutputNo,
            outputTime(lastOutputNo, intervalS),
            defaultSelection(outputInfo.objects),
          )
        : null,
    [attributes.data, attributeInfos, outputInfo, lastOutputNo, intervalS],
  )
  const config = edited ?? initialConfig

  const shownOutput = snapshot?.shownOutput ?? (lastOutputNo >= 0 ? lastOutputNo : null)
  const playing = snapshot?.playing ?? false
  const effective =
    config && config.outputMode === 'current' ? { ...config, output: shownOutput } : config
  const attributeInfo = attributeInfos.find((a) => a.attribute === config?.attribute)
  const issues = effective ? checkStatisticsConfig(effective, context) : []
  const masks = masksOfClip(outputInfo?.masks ?? [], clipId)
  const running = result?.state === 'running'
  const panelState = panelStateOf({
    selection: config?.selection ?? [],
    objects,
    attributesLoading: attributes.isPending || info.isPending || config === null,
    attributeCount: attributeInfos.length,
    clipId,
    masksLoading: info.isPending,
    clipMasks: masks,
    running,
    sensorsComputing:
      recomputation.data?.state === 'scheduled' || recomputation.data?.state === 'running',
    sensorResultsMissing: !(effective ? statisticsOutputs(effective, context) : []).some(
      (outputNo) => outputs.data?.find((o) => o.outputNo === outputNo)?.states.sensor === 'ready',
    ),
  })
  const operationsValid = effective !== null && canComputeOperations(effective, attributeInfo)
  const canLoad =
    effective !== null &&
    issues.length === 0 &&
    operationsValid &&
    (panelState === 'valid' || panelState === 'operationsLoading')

  const load = () => {
    if (!effective || !canLoad) return
    start(effective, statisticsOutputs(effective, context), masks, clipId)
  }

  // Current output: recompute on every output, config or selection change (not while playing).
  const autoKey = effective
    ? `${configKey(effective)}|${selectionKey(effective.selection)}|${clipId}`
    : ''
  const autoRecompute =
    effective !== null &&
    canLoad &&
    recomputesAutomatically({
      outputMode: effective.outputMode,
      playing,
      attribute: effective.attribute,
      subAttribute: effective.subAttribute,
    })
  // load() reads the state autoKey stands for, so the key is the whole dependency.
  const loadAutomatically = useEffectEvent(() => load())
  useEffect(() => {
    if (autoRecompute) loadAutomatically()
  }, [autoRecompute, autoKey])

  // A current-output calculation is stale once the mode changed.
  const runningMode = running ? result.config.outputMode : null
  useEffect(() => {
    if (runningMode === 'current' && config?.outputMode !== 'current') cancel()
  }, [runningMode, config?.outputMode, cancel])

  if (attributes.isError || outputs.isError || info.isError)
    return (
      <section className="card card--padded stats-panel" aria-label="Statistics">
        <h2 className="card__title">Statistics</h2>
        <p className="alert alert--error" role="alert">
          {(attributes.error ?? outputs.error ?? info.error)?.message || STATISTICS_MESSAGES.failed}
        </p>
      </section>
    )
  if (outputs.data && outputs.data.length === 0)
    return (
      <section className="card card--padded stats-panel" aria-label="Statistics">
        <h2 className="card__title">Statistics</h2>
        <p className="stats-panel__message">No outputs yet.</p>
      </section>
    )
  if (!config || !effective)
    return (
      <section className="card card--padded stats-panel" aria-label="Statistics">
        <h2 className="card__title">Statistics</h2>
        <Spinner label={PANEL_STATE_MESSAGES.statsLoading} />
      </section>
    )

  const update = (patch: Partial<StatisticsConfig>) => setConfig({ ...config, ...patch })
  const changeAttribute = (name: AttributeName) => {
    const next = attributeInfos.find((a) => a.attribute === name)
    const offered = offeredOperations(next)
    const kept = configOperations(config).filter((op) => offered.includes(op))
    update({
      attribute: name,
      subAttribute: defaultSubAttribute(next),
      operations: operationsRecord(kept),
    })
  }
  const toggleOperation = (op: StatisticsOperation, on: boolean) => {
    const ops = configOperations(config).filter((o) => o !== op)
    update({ operations: operationsRecord(on ? [...ops, op] : ops) })
  }
  const toggleObject = (id: number, on: boolean) => {
    const rest = config.selection.filter((s) => s !== id)
    update({ selection: on ? [...rest, id] : rest })
  }

  const shown = result && !running ? result : null
  const configChanged =
    !shown || configKey(shown.config) !== configKey(effective) || shown.clipId !== clipId
  const selectionChanged =
    !shown || selectionKey(shown.config.selection) !== selectionKey(config.selection)
  const hasData = shown !== null && (shown.state === 'completed' || shown.values.size > 0)
  const prompt =
    !running &&
    showsLoadPrompt({ outputMode: config.outputMode, configChanged, selectionChanged, hasData })
  const loadPrevious =
    result !== null &&
    !running &&
    config.outputMode !== 'current' &&
    showsLoadPrevious(selectionChanged && hasData, result.state)
  const issueFor = (field: string) => issues.find((i) => i.field === field)?.message

  return (
    <section className="card card--padded stats-panel" aria-label="Statistics">
      <h2 className="card__title">Statistics</h2>
      <div className="stats-panel__form">
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-attribute`}>
            Attribute
          </label>
          <select
            id={`${ids}-attribute`}
            className="select"
            value={config.attribute}
            onChange={(event) => changeAttribute(event.target.value as AttributeName)}
          >
            {attributeInfos.map((a) => (
              <option key={a.attribute} value={a.attribute}>
                {ATTRIBUTES[a.attribute].label}
              </option>
            ))}
          </select>
        </div>
        {attributeInfo && attributeInfo.subAttributes.length > 0 && (
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-sub`}>
              Component
            </label>
            <select
              id={`${ids}-sub`}
              className="select"
              value={config.subAttribute ?? ''}
              onChange={(event) => update({ subAttribute: event.target.value || null })}
            >
              {attributeInfo.subAttributes.map((sub) => (
                <option key={sub} value={sub}>
                  {subAttributeLabel(config.attribute, sub, outputInfo?.objects ?? [])}
                </option>
              ))}
            </select>
          </div>
        )}
        <fieldset className="stats-panel__group">
          <legend className="field__label">Objects</legend>
          {objects.map((object) => (
            <label key={object.id} className="stats-panel__check">
              <input
                type="checkbox"
                aria-label={object.name}
                checked={config.selection.includes(object.id)}
                onChange={(event) => toggleObject(object.id, event.target.checked)}
              />
              {object.name}
              <span className="stats-panel__kind">{objectGroup(object.kind)}</span>
            </label>
          ))}
        </fieldset>
        {clips.data && clips.data.length > 0 && (
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-clip`}>
              Volume clip
            </label>
            <select
              id={`${ids}-clip`}
              className="select"
              value={clipId ?? ''}
              onChange={(event) =>
                setClipId(event.target.value === '' ? null : Number(event.target.value))
              }
            >
              <option value="">None</option>
              {clips.data.map((clip) => (
                <option key={clip.id} value={clip.id}>
                  {clip.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <OutputsFields
          idPrefix={ids}
          config={config}
          lastOutputNo={context.lastOutputNo}
          intervalS={intervalS}
          issueFor={issueFor}
          onChange={update}
        />
        <OperationsFields
          idPrefix={ids}
          config={config}
          offered={offeredOperations(attributeInfo)}
          onToggle={toggleOperation}
          onChange={update}
        />
        <div className="stats-panel__actions">
          {config.outputMode !== 'current' && (
            <button
              type="button"
              className="button button--primary button--small"
              disabled={!canLoad}
              onClick={load}
            >
              Load
            </button>
          )}
          {loadPrevious && result && (
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => {
                setConfig(result.config)
                setClipId(result.clipId)
              }}
            >
              {STATISTICS_MESSAGES.loadPrevious}
            </button>
          )}
        </div>
      </div>
      <div className="stats-panel__results" aria-live="polite">
        <Results
          panelMessage={
            panelState !== 'valid' && panelState !== 'operationsLoading'
              ? (PANEL_STATE_MESSAGES[panelState] ?? null)
              : null
          }
          running={running ? result : null}
          onCancel={cancel}
          prompt={prompt}
          unchanged={!configChanged && !selectionChanged}
          shown={shown}
          intervalS={intervalS}
          onPlot={(op) => shown && addChartDataset(chartDatasetOf(shown, op, objectNames))}
        />
      </div>
    </section>
  )
}
