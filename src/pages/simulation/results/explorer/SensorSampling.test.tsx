import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { createStore } from 'jotai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Sensor } from '../../../../../domain/meshes.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { SensorRecomputation } from '../../../../../domain/rest/sensorRoutes.ts'
import type { SensorSeries } from '../../../../../domain/sensorSampling.ts'
import { renderSetup, stubApi } from '../../setup/movements/testHarness.tsx'
import { chartWindowsAtom } from '../charts/chartStore.ts'
import { SensorDialog } from './SensorDialog.tsx'
import { SensorsSection } from './SensorsSection.tsx'
import { checkSensorDraft, newSensorDraft, sampleRateOf, sensorDraftOf } from './sensorDraft.ts'
import { NO_SERIES_MESSAGE, sensorSeriesDataset } from './sensorSeriesPlot.ts'

/*
 * Sensors sampled while the simulation runs, in the sensor form (the Sampling choice and its rate)
 * and in the Results sensor list (the rate, and Plot samples putting the run's pressure samples
 * into the charts at their own times).
 */

const SIMULATION = {
  id: 5,
  state: 'completed',
  activeRunId: 3,
  settings: { airDrag: false, outputTimeInterval: 0.02 },
} as unknown as Simulation

const WALL: Sensor = {
  id: 7,
  name: 'Wall',
  kind: 'point',
  appearance: { visibility: true },
  outputs: [],
  sampleRate: 'every_step',
  position: [0.8, 0.05, 0.02],
}

const IDLE: SensorRecomputation = {
  id: null,
  simulationId: 5,
  runId: null,
  state: 'unknown',
  progress: 0,
  sensorIds: [],
  outputsDone: 0,
  outputsTotal: 0,
  failedOutputs: [],
  errors: [],
  warnings: [],
  createdAt: null,
  updatedAt: null,
}

/** An impact of 0.3 ms at t = 0.5 s among samples every 0.1 ms, dry at the end. */
const SERIES: SensorSeries = {
  sensorId: 7,
  runId: 3,
  sampleRate: 'every_step',
  sampleCount: 6,
  count: 6,
  timeS: [0, 0.4999, 0.5, 0.5001, 0.5002, 0.6],
  pressure: [2000, 2000, 30_000, 50_000, 2100, null],
  vx: [0, 0, 1, 1, 0, null],
  vy: [0, 0, 0, 0, 0, null],
  vz: [0, 0, 0, 0, 0, null],
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('sensor form: sampling', () => {
  it('reads a sensor’s rate into the form and checks a typed rate', () => {
    expect(sensorDraftOf({ ...WALL, sampleRate: 250 })).toMatchObject({
      sampling: 'rate',
      sampleRate: '250',
    })
    expect(sensorDraftOf({ ...WALL, sampleRate: undefined }).sampling).toBe('outputs')
    const draft = { ...newSensorDraft('Probe'), sampling: 'rate' as const, sampleRate: '0' }
    expect(checkSensorDraft(draft, []).map((i) => i.message)).toEqual([
      'Sample rate must be greater than 0.',
    ])
    expect(sampleRateOf({ ...draft, sampleRate: ' 500 ' })).toBe(500)
    expect(sampleRateOf({ ...draft, sampling: 'every_step' })).toBe('every_step')
    expect(sampleRateOf({ ...draft, sampling: 'outputs' })).toBeNull()
  })

  it('offers from outputs, every step or a fixed rate, and saves the rate typed', () => {
    const onSave = vi.fn()
    renderSetup(
      <SensorDialog
        mode="add"
        initial={newSensorDraft('Probe')}
        takenNames={[]}
        saving={false}
        onSave={onSave}
        onClose={() => undefined}
      />,
    )
    const sampling = screen.getByRole('group', { name: 'Sampling' })
    expect(
      within(sampling)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual([
      'From outputs only (Compute Sensors)',
      'Every solver step while running',
      'A fixed rate while running',
    ])
    fireEvent.click(within(sampling).getByRole('radio', { name: 'A fixed rate while running' }))
    const rate = screen.getByRole('textbox', { name: 'Samples per second (1/s)' })
    fireEvent.change(rate, { target: { value: '-3' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    expect(screen.getByText('Sample rate must be greater than 0.')).toBeTruthy()
    expect(onSave).not.toHaveBeenCalled()
    fireEvent.change(rate, { target: { value: '2000' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ sampling: 'rate', sampleRate: '2000' }),
    )
  })
})

describe('Results sensors: samples taken while running', () => {
  it('places each sample at its own time on the charts, the impact peak included', () => {
    const { dataset, name, yLabel } = sensorSeriesDataset(WALL, SERIES, 0.02)
    expect(name).toBe('Pressure (Wall, every solver step)')
    expect(yLabel).toBe('Pressure (Pa)')
    // x in outputs of 0.02 s: t = 0.5001 s is output 25.005
    expect(dataset.data[3]).toEqual({ x: 25.005, y: 50_000 })
    expect(dataset.data.at(-1)).toEqual({ x: 30, y: null })
    expect(dataset.id).toBe('sensor-series:7:3:pressure')
  })

  it('shows a sensor’s rate and plots its samples of the run into the charts', async () => {
    let series: SensorSeries = { ...SERIES, sampleCount: 0, count: 0, timeS: [], pressure: [] }
    const calls = stubApi({
      'GET /api/simulations/5/custom_sensors': [200, [WALL]],
      'GET /api/simulations/5/sensor_outputs/recomputation': [200, IDLE],
      'GET /api/custom_sensors/7/series': () => [200, series],
    })
    const store = createStore()
    renderSetup(<SensorsSection simulation={SIMULATION} shownOutput={0} otherNames={[]} />, store)
    expect(await screen.findByText('Every solver step while running')).toBeTruthy()
    const plot = screen.getByRole('button', { name: 'Plot samples of Wall' })
    // nothing sampled yet: said so, nothing plotted
    fireEvent.click(plot)
    expect(await screen.findByText(NO_SERIES_MESSAGE)).toBeTruthy()
    expect(store.get(chartWindowsAtom)).toEqual([])
    series = SERIES
    fireEvent.click(plot)
    await waitFor(() => expect(store.get(chartWindowsAtom)).toHaveLength(1))
    const [window] = store.get(chartWindowsAtom)
    expect(window!.attribute).toBe('pressure')
    expect(window!.datasets[0]!.data.map((p) => p.y)).toContain(50_000)
    expect(calls.filter((c) => c.path === '/api/custom_sensors/7/series')).toHaveLength(2)
  })
})
