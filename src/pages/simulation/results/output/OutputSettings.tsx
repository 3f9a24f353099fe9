import { useAtom, useAtomValue } from 'jotai'
import { useId } from 'react'
import {
  DETAIL_LEVELS,
  DETAIL_LEVEL_NAMES,
  PLAYBACK,
  type DetailLevel,
} from '../../../../../domain/constants.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import { IconChevronDown } from '../../../../components/icons.tsx'
import {
  datasetAtom,
  detailLevelAtom,
  viewportEngineAtom,
  viewportStateAtom,
} from '../../../../state/viewportAtoms.ts'
import { Popover } from '../layout/Popover.tsx'
import { formatTimelineNumber } from '../resultsModel.ts'
import { useResultsTracking } from '../../../../analytics/useResultsTracking.ts'

/** 'Low (10 %)', 'All'. */
export function detailLevelLabel(level: DetailLevel): string {
  const fraction = DETAIL_LEVELS[level]
  return fraction === null ? 'All' : `${level} (${Math.round(fraction * 100)} %)`
}

const DATASET_LABELS = { fast: 'Fast', full: 'Full' } as const

const DATASET_HINTS = {
  fast: 'A reduced set of particles: quicker to load and play.',
  full: 'Every particle of the output.',
} as const

/** Particles of the shown output's fluids and walls in a dataset. */
function particleCount(list: OutputManifestList, dataset: 'fast' | 'full'): number {
  const first = list.outputs[0]
  return first?.objects.reduce((sum, object) => sum + object.particleCount[dataset], 0) ?? 0
}

/** The dataset chip: the detail level drawn and the dataset (fast or full) loaded while paused. */
export function DatasetChip({ list }: { list: OutputManifestList }) {
  const [detail, setDetail] = useAtom(detailLevelAtom)
  const [dataset, setDataset] = useAtom(datasetAtom)
  const tracking = useResultsTracking()
  const name = useId()
  return (
    <Popover
      label="Dataset"
      namedByContent
      trigger={
        <>
          <span className="results-chip__key">Dataset</span>
          <span className="results-chip__value">
            {DATASET_LABELS[dataset]} · {detail}
          </span>
          <IconChevronDown width={14} height={14} aria-hidden="true" />
        </>
      }
    >
      <fieldset className="results-form__fieldset">
        <legend className="results-form__legend">Detail level</legend>
        <div className="results-form__options">
          {DETAIL_LEVEL_NAMES.map((level) => (
            <label key={level} className="results-form__option">
              <input
                type="radio"
                name={`${name}-detail`}
                value={level}
                checked={detail === level}
                onChange={() => {
                  setDetail(level)
                  tracking.reductionChanged(level, dataset)
                }}
              />
              <span>{detailLevelLabel(level)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="results-form__fieldset">
        <legend className="results-form__legend">Dataset</legend>
        <div className="results-form__options results-form__options--stacked">
          {(['fast', 'full'] as const).map((option) => (
            <label key={option} className="results-form__option">
              <input
                type="radio"
                name={`${name}-dataset`}
                value={option}
                checked={dataset === option}
                onChange={() => {
                  setDataset(option)
                  tracking.reductionChanged(detail, option)
                }}
              />
              <span>
                {DATASET_LABELS[option]}{' '}
                <span className="results-form__hint">
                  {particleCount(list, option).toLocaleString('en-US')} particles.{' '}
                  {DATASET_HINTS[option]}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <p className="results-form__note">Playback always uses the fast dataset.</p>
    </Popover>
  )
}

type OutputStatus = 'shown' | 'loaded' | 'loading' | 'idle'

const STATUS_LABELS: Record<OutputStatus, string> = {
  shown: 'shown',
  loaded: 'in memory',
  loading: 'loading',
  idle: '',
}

/** The outputs chip: the run's outputs with which are shown, in memory and loading; pick one. */
export function OutputsChip({ list }: { list: OutputManifestList }) {
  const engine = useAtomValue(viewportEngineAtom)
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const loaded = new Set(snapshot?.loadedOutputs ?? [])
  const loading = new Set(snapshot?.loadingOutputs ?? [])
  const statusOf = (outputNo: number): OutputStatus =>
    snapshot?.shownOutput === outputNo
      ? 'shown'
      : loading.has(outputNo)
        ? 'loading'
        : loaded.has(outputNo)
          ? 'loaded'
          : 'idle'
  const last = list.outputs.at(-1)
  return (
    <Popover
      label="Outputs"
      namedByContent
      trigger={
        <>
          <span className="results-chip__key">Outputs</span>
          <span className="results-chip__value">{list.outputs.length}</span>
          <IconChevronDown width={14} height={14} aria-hidden="true" />
        </>
      }
    >
      {(close) => (
        <>
          <p className="results-form__note">
            {list.outputs.length} outputs
            {last ? ` up to ${formatTimelineNumber(last.timeS)} s` : ''}; playback keeps the next{' '}
            {PLAYBACK.targetOutputs} in memory.
          </p>
          <ul className="output-list" aria-label="Outputs of the run">
            {list.outputs.map((output) => {
              const status = statusOf(output.outputNo)
              return (
                <li key={output.outputNo}>
                  <button
                    type="button"
                    className="output-list__item"
                    aria-current={status === 'shown' ? 'true' : undefined}
                    onClick={() => {
                      engine?.dispatch({ type: 'show_output', outputNo: output.outputNo })
                      close()
                    }}
                  >
                    <span className={`output-list__dot output-list__dot--${status}`} />
                    <span className="output-list__name">Output {output.outputNo}</span>
                    <span className="output-list__time">
                      {formatTimelineNumber(output.timeS)} s
                    </span>
                    <span className="output-list__status">{STATUS_LABELS[status]}</span>
                  </button>
                </li>
              )
            })}
          </ul>
        </>
      )}
    </Popover>
  )
}

/** The output loading chip: what is loading, how many outputs are in memory, load errors. */
export function OutputLoadingChip({ list }: { list: OutputManifestList }) {
  const state = useAtomValue(viewportStateAtom)
  const snapshot = state.snapshot
  const total = list.outputs.length
  const loaded = snapshot?.loadedOutputs.length ?? 0
  const loading = snapshot?.loadingOutputs ?? []
  const error = state.failure ?? snapshot?.error ?? null
  let tone: 'idle' | 'busy' | 'error' = 'idle'
  let text: string
  if (error) {
    tone = 'error'
    text = 'Loading failed'
  } else if (state.status === 'starting') {
    tone = 'busy'
    text = 'Starting…'
  } else if (loading.length > 0) {
    tone = 'busy'
    text =
      loading.length === 1
        ? `Loading output ${loading[0]} · ${loaded} of ${total} loaded`
        : `Loading ${loading.length} outputs · ${loaded} of ${total} loaded`
  } else {
    text = `${loaded} of ${total} outputs loaded`
  }
  return (
    <span
      className={`results-chip results-chip--static results-chip--${tone}`}
      data-testid="output-loading-chip"
      title={error ?? undefined}
      aria-live="polite"
    >
      <span className={`results-chip__dot results-chip__dot--${tone}`} aria-hidden="true" />
      {text}
    </span>
  )
}
