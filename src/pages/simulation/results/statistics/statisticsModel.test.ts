import { describe, expect, it } from 'vitest'
import type { OutputObject, StatisticsConfig } from '../../../../../domain/results.ts'
import {
  canComputeOperations,
  defaultAttributeInfo,
  defaultSelection,
  masksOfClip,
  offeredOperations,
  operationsRecord,
  panelStateOf,
  selectableObjects,
  subAttributeLabel,
} from './statisticsModel.ts'
import {
  applyStatisticsFrame,
  calculationMessage,
  chartDatasetOf,
  combineEnds,
  planStatisticsRequests,
  startedResult,
} from './statisticsCalculation.ts'

const OBJECTS: OutputObject[] = [
  { id: 10, kind: 'wall_boundary', name: 'Tank' },
  { id: 1, kind: 'fluid', name: 'Water' },
  { id: 20, kind: 'open_boundary', name: 'Inlet' },
  { id: 2, kind: 'fluid', name: 'Oil' },
]

function config(patch: Partial<StatisticsConfig> = {}): StatisticsConfig {
  return {
    attribute: 'pressure',
    subAttribute: null,
    outputMode: 'outputRange',
    output: null,
    outputRange: [0, 2],
    timeRange: [0, 0.2],
    selection: [1, 2],
    operations: operationsRecord(['mean', 'max']),
    ...patch,
  }
}

describe('statisticsModel', () => {
  it('offers fluids first, then walls, and selects every fluid by default', () => {
    expect(selectableObjects(OBJECTS).map((o) => o.name)).toEqual(['Water', 'Oil', 'Tank'])
    expect(defaultSelection(OBJECTS)).toEqual([1, 2])
  })

  it('starts with pressure when offered, else the first attribute', () => {
    const infos = [
      { attribute: 'velocity', subAttributes: [], operations: [] },
      { attribute: 'pressure', subAttributes: [], operations: [] },
    ]
    expect(defaultAttributeInfo(infos)?.attribute).toBe('pressure')
    expect(defaultAttributeInfo(infos.slice(0, 1))?.attribute).toBe('velocity')
  })

  it('offers the operations stats.info lists, in table order', () => {
    const info = { attribute: 'pressure', subAttributes: [], operations: ['max', 'mean', 'x'] }
    expect(offeredOperations(info)).toEqual(['mean', 'max'])
    expect(offeredOperations(undefined)).toHaveLength(7)
  })

  it('needs a sub-option for an attribute that has them, and at least one operation', () => {
    const velocity = { attribute: 'velocity', subAttributes: ['x', 'magnitude'], operations: [] }
    expect(canComputeOperations(config({ attribute: 'velocity' }), velocity)).toBe(false)
    expect(
      canComputeOperations(config({ attribute: 'velocity', subAttribute: 'x' }), velocity),
    ).toBe(true)
    expect(canComputeOperations(config({ operations: {} }), undefined)).toBe(false)
  })

  it('plans one request per wire attribute: the combined stress magnitude integral goes apart', () => {
    const plans = planStatisticsRequests(
      4,
      config({
        attribute: 'combined_stress',
        subAttribute: 'magnitude',
        operations: operationsRecord(['mean', 'integral']),
      }),
      [0, 1, 2],
      [70],
    )
    expect(plans).toHaveLength(2)
    expect(plans[0]?.request).toMatchObject({
      simId: 4,
      attribute: 'combined_stress',
      subAttribute: 'magnitude',
      operations: { mean: ['mean'] },
      outputs: [0, 1, 2],
      masks: [70],
      mode: 'both',
      dataset: 'raw',
    })
    // The integral's temporal aggregator is the mean.
    expect(plans[1]?.request).toMatchObject({
      subAttribute: null,
      operations: { integral_magnitude: ['mean'] },
    })
    expect(plans[1]?.operationOf).toEqual({ integral_magnitude: 'integral' })
  })

  it('asks per output only in current mode', () => {
    const [plan] = planStatisticsRequests(4, config({ outputMode: 'current' }), [3], [])
    expect(plan?.request.mode).toBe('output_only')
  })

  it('folds frames into values, aggregates, missing outputs and progress', () => {
    const ops = { mean: 'mean' as const }
    let result = startedResult(config(), [0, 1, 2, 3])
    result = applyStatisticsFrame(
      result,
      { type: 'stats.calc.output_statistic', outputNo: 0, statistic: 'mean', value: 5 },
      ops,
    )
    result = applyStatisticsFrame(
      result,
      { type: 'stats.calc.error', outputNo: 2, message: 'missing' },
      ops,
    )
    result = applyStatisticsFrame(
      result,
      { type: 'stats.calc.all_output_statistic', statistic: 'mean', value: 6 },
      ops,
    )
    expect(result.values.get(0)).toEqual({ mean: 5 })
    expect(result.aggregates).toEqual({ mean: 6 })
    expect(result.missingOutputs).toEqual([2])
    expect(result.progress).toBe(0.5)
    const unknown = applyStatisticsFrame(
      result,
      { type: 'stats.calc.output_statistic', outputNo: 1, statistic: 'nope', value: 1 },
      ops,
    )
    expect(unknown).toBe(result)
  })

  it('says why a calculation ended the way it did', () => {
    const base = startedResult(config(), [0, 1])
    expect(calculationMessage({ ...base, state: 'canceled' })).toBe('Computation cancelled.')
    expect(calculationMessage({ ...base, state: 'failed' })).toBe(
      'Computation failed for unknown reason.',
    )
    expect(calculationMessage({ ...base, state: 'failed', missingOutputs: [1] })).toBe(
      'Missing data in selected outputs.',
    )
    expect(calculationMessage({ ...base, state: 'completed', missingOutputs: [4, 1] })).toBe(
      'Missing data in outputs: 1, 4',
    )
    expect(
      calculationMessage({ ...base, state: 'completed', missingOutputs: [1, 2, 3, 4, 5, 6] }),
    ).toBe('Missing data in outputs: 6 outputs')
    expect(calculationMessage({ ...base, state: 'completed' })).toBeNull()
    expect(combineEnds(['completed', 'canceled'])).toBe('canceled')
    expect(combineEnds(['canceled', 'failed'])).toBe('failed')
  })

  it('derives the panel state in the domain priority order', () => {
    const inputs = {
      selection: [1, 10],
      objects: OBJECTS,
      attributesLoading: false,
      attributeCount: 2,
      clipId: null,
      masksLoading: false,
      clipMasks: [],
      running: true,
      sensorsComputing: true,
      sensorResultsMissing: true,
    }
    expect(panelStateOf(inputs)).toBe('differentObjects')
    // Sensor flags count only for a sensor selection, and come before the rest.
    const withSensor = {
      ...inputs,
      objects: [...OBJECTS, { id: 40, kind: 'sensor' as const, name: 'Probe' }],
    }
    expect(panelStateOf({ ...withSensor, selection: [40, 1] })).toBe('sensorsLoading')
    expect(panelStateOf({ ...withSensor, selection: [40], sensorsComputing: false })).toBe(
      'sensorResultsMissing',
    )
    expect(
      panelStateOf({
        ...withSensor,
        selection: [40, 1],
        sensorsComputing: false,
        sensorResultsMissing: false,
      }),
    ).toBe('differentObjects')
    expect(panelStateOf({ ...inputs, selection: [] })).toBe('emptySelection')
    expect(panelStateOf({ ...inputs, selection: [1], clipId: 7 })).toBe('masksMissing')
    expect(panelStateOf({ ...inputs, selection: [1], clipId: 7, masksLoading: true })).toBe(
      'masksLoading',
    )
    expect(panelStateOf({ ...inputs, selection: [1] })).toBe('operationsLoading')
    expect(panelStateOf({ ...inputs, selection: [1], running: false })).toBe('valid')
  })

  it('names the sub-options of a material-dependent attribute by material', () => {
    const objects: OutputObject[] = [
      { id: 1, kind: 'fluid', name: 'Water', material: { id: 5, name: 'Water' } },
    ]
    expect(subAttributeLabel('wetting', '5', objects)).toBe('Water')
    expect(subAttributeLabel('wetting', '9', objects)).toBe('9')
    expect(subAttributeLabel('velocity', 'x', objects)).toBe('x')
  })

  it('finds the masks of a clip by their volume clip id', () => {
    const masks = [
      { id: 701, materialId: 1, appearance: { visibility: true }, volumeClipId: 7 },
      { id: 702, materialId: 2, appearance: { visibility: true }, volumeClipId: 7 },
      { id: 801, materialId: 1, appearance: { visibility: true }, volumeClipId: 8 },
    ]
    expect(masksOfClip(masks, 7)).toEqual([701, 702])
    expect(masksOfClip(masks, null)).toEqual([])
  })

  it('turns a loaded range into a chart series; volume shows in liters', () => {
    const result = startedResult(
      config({ attribute: 'volume', operations: operationsRecord(['max']) }),
      [0, 1],
    )
    const loaded = applyStatisticsFrame(
      result,
      { type: 'stats.calc.output_statistic', outputNo: 1, statistic: 'max', value: 0.002 },
      { max: 'max' },
    )
    const series = chartDatasetOf(loaded, 'max', new Map([[1, 'Water']]))
    expect(series.dataset.data).toEqual([
      { x: 0, y: null },
      { x: 1, y: 2 },
    ])
    expect(series.yLabel).toBe('Volume (liters)')
    expect(series.name).toBe('Volume max (Water, #2)')
  })
})
