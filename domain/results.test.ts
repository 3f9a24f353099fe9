import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  ATTRIBUTE_NAMES,
  AttributeNameSchema,
  CameraStateSchema,
  ChartWindowSchema,
  EXPORT_MESSAGES,
  ExportRequestSchema,
  OutputInfoSchema,
  StatisticsConfigSchema,
  ViewportStateSchema,
  allOutputsReady,
  applyColourRange,
  areOperationsValid,
  attributeSubOptions,
  canCloseChartWindow,
  canEditSensors,
  chartExportFileName,
  chartToCsv,
  chartWindowDisplay,
  checkChartYRange,
  checkColourRange,
  checkExportRequest,
  checkOutputRange,
  checkStatisticsConfig,
  checkTimeRange,
  clampPlaybackSpeed,
  clampProgress,
  closeChartWindow,
  computeColourRange,
  computeScaleBar,
  defaultChartLayout,
  defaultChartStatisticsConfig,
  defaultColourMap,
  defaultDatasetColour,
  defaultDatasetLayout,
  defaultExportRequest,
  defaultOutputCount,
  defaultTemporalAggregator,
  defaultViewportState,
  doublePlaybackSpeed,
  effectiveYRange,
  exportBlockedMessage,
  exportConfirmations,
  exportOutputs,
  frameForProgress,
  halvePlaybackSpeed,
  initialColourRange,
  isAttributeName,
  isDownloadTabDisabled,
  listMissingOutputs,
  missingOutputsMessage,
  nextPlaybackFrame,
  outputTime,
  playbackFrameIntervalMs,
  progressForFrame,
  recomputesAutomatically,
  selectPlaybackOutputs,
  sensorMode,
  showsLoadPrevious,
  showsLoadPrompt,
  statisticsOutputs,
  statisticsPanelState,
  statisticsWireOperation,
  type ExportRequest,
  type StatisticsConfig,
} from './results.ts'

const context = { lastOutputNo: 10, outputTimeIntervalS: 0.1 }
const messages = (issues: { message: string }[]) => issues.map((i) => i.message)

describe('outputs', () => {
  it('accepts an output info with its states', () => {
    const info = {
      outputNo: 3,
      states: { visualization: 'ready', sensor: 'pending' },
      wallSensorState: 'unknown',
    }
    expect(v.parse(OutputInfoSchema, info)).toEqual(info)
    expect(v.safeParse(OutputInfoSchema, { ...info, outputNo: -1 }).success).toBe(false)
  })

  it('is all ready only when every visualization is ready', () => {
    const make = (visualization: 'ready' | 'pending') => ({
      outputNo: 0,
      states: { visualization, sensor: 'ready' as const },
      wallSensorState: 'unknown' as const,
    })
    expect(allOutputsReady([make('ready'), make('ready')])).toBe(true)
    expect(allOutputsReady([make('ready'), make('pending')])).toBe(false)
  })

  it('derives output time as output × interval', () => {
    expect(outputTime(12, 0.5)).toBe(6)
  })

  it('falls back to endTime ÷ interval, else 200 outputs', () => {
    expect(defaultOutputCount(2, 0.01)).toBe(200)
    expect(defaultOutputCount(3, 0.1)).toBe(30)
    expect(defaultOutputCount(null, 0.1)).toBe(200)
    expect(defaultOutputCount(1, 0)).toBe(200)
    expect(defaultOutputCount(Number.NaN, 0.1)).toBe(200)
  })
})

describe('attributes', () => {
  it('offers x, y, z and magnitude for vectors and nothing for scalars', () => {
    expect(attributeSubOptions('velocity')).toEqual(['x', 'y', 'z', 'magnitude'])
    expect(attributeSubOptions('combined_stress')).toEqual(['x', 'y', 'z', 'magnitude'])
    expect(attributeSubOptions('pressure')).toEqual([])
  })

  it('offers the materials as sub-options of a material-dependent attribute', () => {
    expect(attributeSubOptions('wetting', [{ id: 1 }, { id: 4 }])).toEqual(['1', '4'])
  })

  it("refuses an unknown name with '{value} is not a known attribute name'", () => {
    const result = v.safeParse(AttributeNameSchema, 'vorticity')
    expect(result.success).toBe(false)
    expect(result.issues?.[0]?.message).toBe('vorticity is not a known attribute name')
    expect(v.parse(AttributeNameSchema, 'pressure')).toBe('pressure')
  })

  it('knows every name of the catalogue and nothing inherited', () => {
    for (const name of ATTRIBUTE_NAMES) expect(isAttributeName(name)).toBe(true)
    expect(isAttributeName('toString')).toBe(false)
    expect(isAttributeName(3)).toBe(false)
  })
})

describe('colour range', () => {
  it("requires max greater than min: 'Max must be greater than Min.'", () => {
    expect(checkColourRange(0, 1)).toEqual([])
    expect(checkColourRange(1, 1)).toEqual([
      { level: 'error', field: 'max', message: 'Max must be greater than Min.' },
    ])
    expect(messages(checkColourRange(2, 1))).toEqual(['Max must be greater than Min.'])
  })

  it('reports empty or NaN bounds as preliminary info', () => {
    expect(checkColourRange(null, 1)).toEqual([
      { level: 'info', field: 'min', message: 'Min is required' },
    ])
    expect(checkColourRange(0, Number.NaN)[0]?.level).toBe('info')
  })

  it('applies a range as (smaller, larger)', () => {
    expect(applyColourRange(5, -2)).toEqual({ min: -2, max: 5 })
    expect(applyColourRange(-2, 5)).toEqual({ min: -2, max: 5 })
  })

  it('ignores NaN and ±Infinity when computing a range', () => {
    const values = new Float32Array([Number.NaN, 3, Infinity, -1, -Infinity, 2])
    expect(computeColourRange(values)).toEqual({ min: -1, max: 3 })
    expect(computeColourRange([Number.NaN, Infinity])).toBeNull()
    expect(computeColourRange([])).toBeNull()
    expect(computeColourRange([7])).toEqual({ min: 7, max: 7 })
  })

  it('starts from the default range of the attribute over the data', () => {
    expect(initialColourRange('shepard_summation', { min: 0.5, max: 2 })).toEqual({
      min: 0.9,
      max: 1.1,
    })
    expect(initialColourRange('power_density', null)).toEqual({ min: -100, max: 100 })
    expect(initialColourRange('pressure', { min: -50, max: 900 })).toEqual({ min: 0, max: 900 })
    expect(initialColourRange('shear_rate', { min: 2, max: 8 })).toEqual({ min: 0, max: 8 })
    expect(initialColourRange('wetting', null)).toEqual({ min: 0, max: 1 })
    expect(initialColourRange('velocity', { min: 1, max: 4 })).toEqual({ min: 1, max: 4 })
  })

  it('orders a default end that passes the data (all-negative pressure)', () => {
    expect(initialColourRange('pressure', { min: -10, max: -2 })).toEqual({ min: -2, max: 0 })
    expect(initialColourRange('pressure', null)).toBeNull()
  })

  it('starts a colour map on rainbow with the range from the data', () => {
    expect(defaultColourMap('pressure')).toEqual({
      scheme: 'rainbow',
      attribute: 'pressure',
      subAttribute: null,
      min: null,
      max: null,
    })
  })
})

describe('viewport state', () => {
  it('accepts the default viewport state', () => {
    expect(v.safeParse(ViewportStateSchema, defaultViewportState()).success).toBe(true)
  })

  it("refuses an up vector that is not normalized: 'Camera up vector must be normalized'", () => {
    const camera = { position: [1, 1, 1], target: [0, 0, 0], up: [0, 0, 2], mode: 'perspective' }
    const result = v.safeParse(CameraStateSchema, camera)
    expect(result.success).toBe(false)
    expect(result.issues?.[0]?.message).toBe('Camera up vector must be normalized')
    const tilted = { ...camera, up: [0, Math.SQRT1_2, Math.SQRT1_2] }
    expect(v.safeParse(CameraStateSchema, tilted).success).toBe(true)
  })

  it('requires vectors of exactly three finite components', () => {
    const base = { target: [0, 0, 0], up: [0, 0, 1], mode: 'orthographic' }
    for (const position of [
      [1, 2],
      [1, 2, 3, 4],
      [1, Number.NaN, 3],
      [1, Infinity, 3],
    ]) {
      const result = v.safeParse(CameraStateSchema, { ...base, position })
      expect(result.success).toBe(false)
      expect(result.issues?.[0]?.message).toBe('Vectors need three components')
    }
  })
})

describe('sensors', () => {
  it('is in post mode only when the current output is among its outputs', () => {
    expect(sensorMode([1, 2, 3], 2)).toBe('post')
    expect(sensorMode([1, 2, 3], 4)).toBe('pre')
    expect(sensorMode([1, 2, 3], null)).toBe('pre')
  })

  it('cannot be edited while running or scheduled', () => {
    expect(canEditSensors('running')).toBe(false)
    expect(canEditSensors('scheduled')).toBe(false)
    expect(canEditSensors('stopped')).toBe(true)
  })
})

describe('statistics ranges', () => {
  it('accepts start <= end within the outputs', () => {
    expect(checkOutputRange([0, 10], context)).toEqual([])
    expect(checkOutputRange([4, 4], context)).toEqual([])
  })

  it("rejects an end before the start: 'The end output must be bigger than the start.'", () => {
    expect(checkOutputRange([5, 4], context)).toEqual([
      {
        level: 'error',
        field: 'outputRange.1',
        message: 'The end output must be bigger than the start.',
      },
    ])
  })

  it("rejects an end past the last output: 'The simulation only has N outputs.'", () => {
    expect(messages(checkOutputRange([0, 11], context))).toEqual([
      'The simulation only has 10 outputs.',
    ])
  })

  it('requires integer outputs of at least 0', () => {
    expect(checkOutputRange([-1, 3], context)[0]).toMatchObject({
      level: 'error',
      field: 'outputRange.0',
    })
    expect(checkOutputRange([0, 2.5], context)[0]?.message).toBe('End must be an integer.')
    expect(checkOutputRange([null, 3], context)[0]?.level).toBe('info')
  })

  it("rejects an end time before the start: 'The end time must be bigger than the start.'", () => {
    expect(messages(checkTimeRange([0.5, 0.2], context))).toEqual([
      'The end time must be bigger than the start.',
    ])
  })

  it("rejects an end time past the last output: 'The simulation only lasts N seconds.'", () => {
    expect(checkTimeRange([0, 1], context)).toEqual([])
    // 10 × 0.1 is 1.0000000000000002 in floating point: the bound must still hold.
    expect(checkTimeRange([0, 10 * 0.1], context)).toEqual([])
    expect(messages(checkTimeRange([0, 1.01], context))).toEqual([
      'The simulation only lasts 1 seconds.',
    ])
    expect(messages(checkTimeRange([0, 1], { lastOutputNo: 3, outputTimeIntervalS: 0.1 }))).toEqual(
      ['The simulation only lasts 0.3 seconds.'],
    )
  })

  it('checks the rule of the chosen output mode only', () => {
    const config = defaultChartStatisticsConfig('pressure', 10, 0.1)
    expect(config.outputMode).toBe('timeRange')
    expect(config.timeRange).toEqual([0, 1])
    expect(checkStatisticsConfig(config, context)).toEqual([])
    const broken: StatisticsConfig = { ...config, outputRange: [9, 2] }
    expect(checkStatisticsConfig(broken, context)).toEqual([])
    expect(checkStatisticsConfig({ ...broken, outputMode: 'outputRange' }, context)).toHaveLength(1)
    expect(
      checkStatisticsConfig({ ...config, outputMode: 'current', output: 11 }, context)[0]?.message,
    ).toBe('Output must be at most 10.')
  })

  it('lists the outputs a config covers', () => {
    const config = defaultChartStatisticsConfig('velocity', 10, 0.1)
    expect(config.subAttribute).toBe('magnitude')
    expect(statisticsOutputs({ ...config, timeRange: [0.25, 0.5] }, context)).toEqual([3, 4, 5])
    expect(
      statisticsOutputs({ ...config, outputMode: 'outputRange', outputRange: [8, 20] }, context),
    ).toEqual([8, 9, 10])
    expect(statisticsOutputs({ ...config, outputMode: 'current', output: 4 }, context)).toEqual([4])
  })

  it('parses a config with its operation map', () => {
    const config = defaultChartStatisticsConfig('pressure', 10, 0.1)
    expect(v.parse(StatisticsConfigSchema, config)).toEqual(config)
  })
})

describe('statistics operations', () => {
  it('maps the integral to the mean as its temporal aggregator', () => {
    expect(defaultTemporalAggregator('integral')).toBe('mean')
    expect(defaultTemporalAggregator('95th_percentile')).toBe('95th_percentile')
  })

  it('computes the combined stress magnitude integral as combined_stress integral_magnitude', () => {
    expect(statisticsWireOperation('combined_stress', 'magnitude', 'integral')).toEqual({
      attribute: 'combined_stress',
      subAttribute: null,
      operation: 'integral_magnitude',
    })
    expect(statisticsWireOperation('combined_stress', 'x', 'integral').operation).toBe('integral')
  })

  it('accepts the integral for sensors only', () => {
    expect(areOperationsValid('pressure', null, ['mean', 'median'], 'objects')).toBe(true)
    expect(areOperationsValid('pressure', null, ['integral'], 'objects')).toBe(false)
    expect(areOperationsValid('pressure', null, ['integral'], 'sensors')).toBe(true)
  })

  it('needs a sub-option for vectors and material-dependent attributes, and some operation', () => {
    expect(areOperationsValid('velocity', null, ['mean'], 'objects')).toBe(false)
    expect(areOperationsValid('velocity', 'x', ['mean'], 'objects')).toBe(true)
    expect(areOperationsValid('wetting', null, ['mean'], 'objects')).toBe(false)
    expect(areOperationsValid('pressure', null, [], 'objects')).toBe(false)
  })
})

describe('statistics panel', () => {
  it('picks the first state in priority order', () => {
    expect(statisticsPanelState({})).toBe('valid')
    expect(statisticsPanelState({ statsLoading: true, emptySelection: true })).toBe(
      'emptySelection',
    )
    expect(statisticsPanelState({ operationsLoading: true, masksMissing: true })).toBe(
      'masksMissing',
    )
    expect(statisticsPanelState({ differentObjects: true, statsLoading: true })).toBe(
      'differentObjects',
    )
    expect(statisticsPanelState({ sensorsLoading: false, operationsLoading: true })).toBe(
      'operationsLoading',
    )
  })

  it('lists fewer than 6 missing outputs and counts 6 or more', () => {
    expect(missingOutputsMessage([7, 1, 4, 4])).toBe('Missing data in outputs: 1, 4, 7')
    expect(missingOutputsMessage([1, 2, 3, 4, 5])).toBe('Missing data in outputs: 1, 2, 3, 4, 5')
    expect(missingOutputsMessage([1, 2, 3, 4, 5, 6])).toBe('Missing data in outputs: 6 outputs')
  })

  it('prompts to load outside current mode when something changed or nothing loaded', () => {
    const base = { outputMode: 'timeRange' as const, configChanged: false, selectionChanged: false }
    expect(showsLoadPrompt({ ...base, hasData: true })).toBe(false)
    expect(showsLoadPrompt({ ...base, hasData: false })).toBe(true)
    expect(showsLoadPrompt({ ...base, configChanged: true, hasData: true })).toBe(true)
    expect(showsLoadPrompt({ ...base, selectionChanged: true, hasData: true })).toBe(true)
    expect(
      showsLoadPrompt({ ...base, outputMode: 'current', configChanged: true, hasData: false }),
    ).toBe(false)
  })

  it('offers previous data when the selection differs unless canceled', () => {
    expect(showsLoadPrevious(true, 'completed')).toBe(true)
    expect(showsLoadPrevious(true, 'canceled')).toBe(false)
    expect(showsLoadPrevious(false, 'completed')).toBe(false)
  })

  it('recomputes in current mode unless playing or a material sub-option is missing', () => {
    const base = { outputMode: 'current' as const, playing: false, subAttribute: null }
    expect(recomputesAutomatically({ ...base, attribute: 'pressure' })).toBe(true)
    expect(recomputesAutomatically({ ...base, attribute: 'pressure', playing: true })).toBe(false)
    expect(recomputesAutomatically({ ...base, attribute: 'wetting' })).toBe(false)
    expect(recomputesAutomatically({ ...base, attribute: 'wetting', subAttribute: '1' })).toBe(true)
    expect(
      recomputesAutomatically({ ...base, attribute: 'pressure', outputMode: 'outputRange' }),
    ).toBe(false)
  })
})

describe('chart windows', () => {
  it('cycles through the five default colours', () => {
    expect(defaultDatasetColour(0)).toBe('#2D69B2')
    expect(defaultDatasetColour(4)).toBe('#444444')
    expect(defaultDatasetColour(5)).toBe('#2D69B2')
    expect(defaultDatasetLayout('Mean', 1)).toEqual({
      name: 'Mean',
      lineStyle: 'solid',
      markerStyle: 'dot',
      color: '#FFB10F',
    })
  })

  it('starts a chart on the time axis with linear interpolation', () => {
    const layout = defaultChartLayout('Pressure', 'Pa')
    expect(layout.xAxis).toBe('time')
    expect(layout.interpolation).toBe('linear')
    const window = { id: 'w1', attribute: 'pressure', datasets: [], layout }
    expect(v.safeParse(ChartWindowSchema, window).success).toBe(true)
  })

  it("requires Y min below max: 'Min must be smaller than max.'", () => {
    expect(checkChartYRange(0, 1)).toEqual([])
    expect(checkChartYRange(null, 1)).toEqual([])
    expect(checkChartYRange(1, 1)).toEqual([
      { level: 'error', field: 'maxY', message: 'Min must be smaller than max.' },
    ])
    expect(messages(checkChartYRange(3, 1))).toEqual(['Min must be smaller than max.'])
  })

  it('uses the min as upper bound on a violation and treats NaN as automatic', () => {
    expect(effectiveYRange(3, 1)).toEqual({ min: 3, max: 3 })
    expect(effectiveYRange(0, 5)).toEqual({ min: 0, max: 5 })
    expect(effectiveYRange(Number.NaN, 5)).toEqual({ min: null, max: 5 })
  })

  it('activates the last remaining window when the active one closes', () => {
    const windows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }]
    expect(closeChartWindow(windows, 'b', 'b')).toEqual({
      windows: [{ id: 'a' }, { id: 'c' }],
      activeId: 'c',
    })
    expect(closeChartWindow(windows, 'c', 'a').activeId).toBe('a')
    expect(closeChartWindow([{ id: 'a' }], 'a', 'a')).toEqual({ windows: [], activeId: null })
  })

  it('shows a close button only with more than one window', () => {
    expect(canCloseChartWindow(1)).toBe(false)
    expect(canCloseChartWindow(2)).toBe(true)
  })

  it('forces minimized fullscreen below 1700 px', () => {
    const requested = { minimized: false, fullscreen: false }
    expect(chartWindowDisplay(1699, requested)).toEqual({
      minimized: true,
      fullscreen: true,
      forced: true,
    })
    expect(chartWindowDisplay(1700, requested)).toEqual({ ...requested, forced: false })
  })

  it("exports CSV with ';' where time = output × interval", () => {
    const csv = chartToCsv(
      [
        {
          name: 'Mean',
          data: [
            { x: 0, y: 1.5 },
            { x: 3, y: null },
          ],
        },
        { name: 'Max; all', data: [{ x: 3, y: 2 }] },
      ],
      0.1,
    )
    expect(csv).toBe('Output;Time (s);Mean;"Max; all"\n0;0;1.5;\n3;0.3;;2\n')
  })

  it('names exports after the simulation and the chart', () => {
    expect(chartExportFileName('Dam break', 'Pressure', 'png')).toBe('Dam break - Pressure.png')
    expect(chartExportFileName('a/b', 'c:d', 'csv')).toBe('a_b - c_d.csv')
  })
})

describe('export', () => {
  const exportContext = {
    availableOutputs: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    fluidMaterialIds: [1],
  }
  const request = (patch: Partial<ExportRequest>): ExportRequest => ({
    ...defaultExportRequest(5, 10),
    materials: [1],
    ...patch,
  })

  it('defaults to a single output, step 1 and vtu boundaries', () => {
    const defaults = defaultExportRequest(5, 10)
    expect(defaults).toMatchObject({ outputMode: 'single', stepSize: 1, boundariesType: 'vtu' })
    expect(v.safeParse(ExportRequestSchema, defaults).success).toBe(true)
  })

  it("requires at least one item: 'Select at least 1 item to start export'", () => {
    expect(messages(checkExportRequest(defaultExportRequest(5, 10), exportContext))).toEqual([
      'Select at least 1 item to start export',
    ])
    expect(
      checkExportRequest({ ...defaultExportRequest(5, 10), logs: true }, exportContext),
    ).toEqual([])
    expect(
      checkExportRequest({ ...defaultExportRequest(5, null), setup: true }, exportContext),
    ).toEqual([])
  })

  it("requires the single output to exist: 'Missing data for the selected output'", () => {
    expect(checkExportRequest(request({ outputsSingle: 3 }), exportContext)).toEqual([])
    expect(
      messages(
        checkExportRequest(request({ outputsSingle: 3 }), {
          ...exportContext,
          availableOutputs: [0],
        }),
      ),
    ).toEqual(['Missing data for the selected output'])
  })

  it('requires outputs to be integers of at least 0', () => {
    expect(checkExportRequest(request({ outputsSingle: -1 }), exportContext)[0]).toMatchObject({
      level: 'error',
      field: 'outputsSingle',
    })
    expect(checkExportRequest(request({ outputsSingle: 1.5 }), exportContext)[0]?.message).toBe(
      'Output must be an integer.',
    )
  })

  it('requires an integer step between 1 and 100', () => {
    const range = (stepSize: number | null) =>
      checkExportRequest(
        request({ outputMode: 'range', outputsRange: [0, 10], stepSize }),
        exportContext,
      )
    expect(range(1)).toEqual([])
    expect(range(100)).toEqual([])
    expect(messages(range(0))).toEqual(['Step size must be at least 1.'])
    expect(messages(range(101))).toEqual(['Step size must be at most 100.'])
    expect(messages(range(2.5))).toEqual(['Step size must be an integer.'])
    expect(range(null)[0]?.level).toBe('info')
  })

  it('applies the output range rules to the range', () => {
    const issues = checkExportRequest(
      request({ outputMode: 'range', outputsRange: [6, 2] }),
      exportContext,
    )
    expect(messages(issues)).toEqual(['The end output must be bigger than the start.'])
  })

  it('warns about missing range outputs, the first 3 and last 2 from 6 on', () => {
    const sparse = { ...exportContext, availableOutputs: [0, 10] }
    const issues = checkExportRequest(
      request({ outputMode: 'range', outputsRange: [0, 10], stepSize: 1 }),
      sparse,
    )
    expect(issues).toEqual([
      {
        level: 'warning',
        field: 'outputsRange',
        message: 'Missing data for outputs: 1, 2, 3, ..., 8, 9',
      },
    ])
    expect(exportBlockedMessage(issues)).toBeNull()
    expect(listMissingOutputs([4, 2])).toBe('2, 4')
    expect(listMissingOutputs([1, 2, 3, 4, 5])).toBe('1, 2, 3, 4, 5')
  })

  it('steps through the range', () => {
    expect(
      exportOutputs(request({ outputMode: 'range', outputsRange: [1, 10], stepSize: 3 })),
    ).toEqual([1, 4, 7, 10])
    expect(exportOutputs(request({ outputsSingle: 4 }))).toEqual([4])
    expect(exportOutputs(request({ outputMode: 'range', stepSize: 0 }))).toEqual([])
  })

  it('needs a fluid to export surface reconstructions', () => {
    const withoutFluid = request({ materials: [], boundaries: [3], surfaceReconstructions: [1] })
    expect(messages(checkExportRequest(withoutFluid, exportContext))).toEqual([
      EXPORT_MESSAGES.surfaceNeedsFluid,
    ])
    expect(checkExportRequest(request({ surfaceReconstructions: [1] }), exportContext)).toEqual([])
    const all = request({ materials: [], allObjects: true, surfaceReconstructions: [1] })
    expect(checkExportRequest(all, exportContext)).toEqual([])
  })

  it("blocks the export on errors with 'Error in export configuration'", () => {
    const issues = checkExportRequest(request({ outputsSingle: 42 }), exportContext)
    expect(exportBlockedMessage(issues)).toBe('Error in export configuration')
    expect(exportBlockedMessage([])).toBeNull()
  })

  it('asks to confirm replacing files and exporting without attributes', () => {
    expect(exportConfirmations(request({}), true)).toEqual([
      'Previously exported files will be deleted. Are you sure?',
      'No attributes are selected. Are you sure?',
    ])
    expect(exportConfirmations(request({ allAttributes: true }), false)).toEqual([])
    expect(exportConfirmations(request({ attributes: ['pressure'] }), false)).toEqual([])
    expect(exportConfirmations({ ...defaultExportRequest(5, 10), logs: true }, false)).toEqual([])
  })

  it('disables the download tab after the previous export expired', () => {
    expect(isDownloadTabDisabled('expired')).toBe(true)
    expect(isDownloadTabDisabled('completed')).toBe(false)
    expect(isDownloadTabDisabled(null)).toBe(false)
  })
})

describe('playback', () => {
  it('waits 1/3 s ÷ speed between frames', () => {
    expect(playbackFrameIntervalMs(1)).toBeCloseTo(333.333, 3)
    expect(playbackFrameIntervalMs(2)).toBeCloseTo(166.667, 3)
    expect(playbackFrameIntervalMs(0.5)).toBeCloseTo(666.667, 3)
  })

  it('halves and doubles the speed within 2^-10 … 2048', () => {
    expect(halvePlaybackSpeed(1)).toBe(0.5)
    expect(doublePlaybackSpeed(1)).toBe(2)
    expect(doublePlaybackSpeed(2048)).toBe(2048)
    expect(halvePlaybackSpeed(2 ** -10)).toBe(2 ** -10)
    expect(clampPlaybackSpeed(Number.NaN)).toBe(1)
    expect(clampPlaybackSpeed(Infinity)).toBe(2048)
  })

  it('clamps progress to 0 … 1 and NaN to 0', () => {
    expect(clampProgress(-0.5)).toBe(0)
    expect(clampProgress(1.5)).toBe(1)
    expect(clampProgress(0.25)).toBe(0.25)
    expect(clampProgress(Number.NaN)).toBe(0)
  })

  it('wraps to the first frame when looping and stops otherwise', () => {
    expect(nextPlaybackFrame(3, 10, false)).toBe(4)
    expect(nextPlaybackFrame(9, 10, true)).toBe(0)
    expect(nextPlaybackFrame(9, 10, false)).toBeNull()
    expect(nextPlaybackFrame(0, 0, true)).toBeNull()
  })

  it('maps frames to progress and back', () => {
    expect(progressForFrame(0, 5)).toBe(0)
    expect(progressForFrame(4, 5)).toBe(1)
    expect(progressForFrame(0, 1)).toBe(0)
    expect(frameForProgress(0.5, 5)).toBe(2)
    expect(frameForProgress(2, 5)).toBe(4)
  })

  it('plays up to 10 outputs spread evenly, first and last included', () => {
    const outputs = Array.from({ length: 100 }, (_, i) => i)
    const picked = selectPlaybackOutputs(outputs)
    expect(picked).toHaveLength(10)
    expect(picked[0]).toBe(0)
    expect(picked.at(-1)).toBe(99)
    expect(selectPlaybackOutputs([3, 1, 2])).toEqual([1, 2, 3])
  })
})

describe('scale bar', () => {
  it('picks the largest 1, 2, 5 × 10^k that fits in 300 px', () => {
    // 2000 px wide: 30 % is 600 px, so 300 px bounds; 300 px × 0.01 m = 3 m → 2 m.
    expect(computeScaleBar(0.01, 2000)).toEqual({ lengthM: 2, widthPx: 200 })
    // 300 px × 0.02 m = 6 m → 5 m.
    expect(computeScaleBar(0.02, 2000)).toEqual({ lengthM: 5, widthPx: 250 })
  })

  it('fits in 30 % of a narrow viewport', () => {
    // 500 px wide: 150 px × 0.01 m = 1.5 m → 1 m.
    expect(computeScaleBar(0.01, 500)).toEqual({ lengthM: 1, widthPx: 100 })
  })

  it('takes an exact fit and small scales', () => {
    expect(computeScaleBar(1 / 300, 2000)?.lengthM).toBe(1)
    const small = computeScaleBar(1e-5, 2000)
    expect(small?.lengthM).toBeCloseTo(0.002, 12)
  })

  it('gives nothing for a degenerate view', () => {
    expect(computeScaleBar(0, 1000)).toBeNull()
    expect(computeScaleBar(Number.NaN, 1000)).toBeNull()
    expect(computeScaleBar(0.01, 0)).toBeNull()
    expect(computeScaleBar(Infinity, 1000)).toBeNull()
  })
})
