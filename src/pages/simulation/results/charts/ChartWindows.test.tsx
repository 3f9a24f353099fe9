import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { StatisticsDataset } from '../../../../../domain/results.ts'
import { INITIAL_ENGINE_STATE, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import {
  activeChartWindowIdAtom,
  addChartDatasetAtom,
  chartPanelDisplayAtom,
  chartSimulationIdAtom,
  chartWindowsAtom,
  DEFAULT_CHART_PANEL_DISPLAY,
} from './chartStore.ts'
import { ChartWindows } from './ChartWindows.tsx'

const SIMULATION = {
  id: 5,
  name: 'Dam break',
  state: 'completed',
  outputTimeInterval: 0.05,
  settings: { outputTimeInterval: 0.05 },
} as unknown as Simulation

function dataset(
  id: string,
  attribute: StatisticsDataset['attribute'],
  values: (number | null)[],
): StatisticsDataset {
  return {
    id,
    operation: 'mean',
    attribute,
    subAttribute: null,
    objs: [1],
    data: values.map((y, x) => ({ x, y })),
  }
}

let store: ReturnType<typeof createStore>

function renderCharts() {
  return render(
    <JotaiProvider store={store}>
      <ChartWindows simulation={SIMULATION} />
    </JotaiProvider>,
  )
}

function addPressure(id = 'p-mean', name = 'Pressure mean (Water)') {
  act(() =>
    store.set(addChartDatasetAtom, {
      dataset: dataset(id, 'pressure', [1, 2.5, null, 4]),
      name,
      yLabel: 'Pressure (Pa)',
    }),
  )
}

function addDensity() {
  act(() =>
    store.set(addChartDatasetAtom, {
      dataset: dataset('d-max', 'density', [1000, 1001]),
      name: 'Density max (Water)',
      yLabel: 'Density (kg/m³)',
    }),
  )
}

function tabNames(): string[] {
  return screen.getAllByRole('tab').map((tab) => tab.textContent ?? '')
}

beforeEach(() => {
  store = createStore()
  store.set(chartWindowsAtom, [])
  store.set(activeChartWindowIdAtom, null)
  store.set(chartPanelDisplayAtom, DEFAULT_CHART_PANEL_DISPLAY)
  store.set(chartSimulationIdAtom, SIMULATION.id)
  store.set(viewportStateAtom, INITIAL_ENGINE_STATE)
  // Wide enough for the docked layout (the small-screen rule starts below 1700 px).
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1920 })
})

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

describe('ChartWindows', () => {
  it('says where data comes from while there is no chart', () => {
    renderCharts()
    expect(screen.getByText('Add data from the Statistics table')).toBeTruthy()
    expect(screen.queryAllByRole('tab')).toHaveLength(0)
  })

  it('opens one tab per attribute plotted and shows the newest', () => {
    renderCharts()
    addPressure()
    addDensity()
    expect(tabNames()).toEqual(['Pressure', 'Density'])
    const active = screen
      .getAllByRole('tab')
      .find((tab) => tab.getAttribute('aria-selected') === 'true')
    expect(active?.textContent).toBe('Density')
    expect(screen.getByText('Density max (Water)')).toBeTruthy()
    expect(screen.queryByText('Pressure mean (Water)')).toBeNull()
  })

  it('switches the shown window when a tab is clicked', () => {
    renderCharts()
    addPressure()
    addDensity()
    fireEvent.click(screen.getByRole('tab', { name: 'Pressure' }))
    expect(screen.getByText('Pressure mean (Water)')).toBeTruthy()
    expect(store.get(activeChartWindowIdAtom)).toBe(store.get(chartWindowsAtom)[0]?.id)
  })

  it('renames a window by double clicking its tab name, and keeps the name when left blank', () => {
    renderCharts()
    addPressure()
    fireEvent.doubleClick(screen.getByRole('tab', { name: 'Pressure' }))
    const input = screen.getByLabelText('Chart name')
    fireEvent.change(input, { target: { value: 'Tank pressure' } })
    fireEvent.keyDown(input, { key: 'Enter' })
    expect(tabNames()).toEqual(['Tank pressure'])

    fireEvent.doubleClick(screen.getByRole('tab', { name: 'Tank pressure' }))
    fireEvent.change(screen.getByLabelText('Chart name'), { target: { value: '   ' } })
    fireEvent.blur(screen.getByLabelText('Chart name'))
    expect(tabNames()).toEqual(['Tank pressure'])
  })

  it('cancels a rename with Escape', () => {
    renderCharts()
    addPressure()
    fireEvent.doubleClick(screen.getByRole('tab', { name: 'Pressure' }))
    fireEvent.change(screen.getByLabelText('Chart name'), { target: { value: 'Other' } })
    fireEvent.keyDown(screen.getByLabelText('Chart name'), { key: 'Escape' })
    expect(tabNames()).toEqual(['Pressure'])
  })

  it('shows close buttons only with more than one window; closing activates the last remaining', () => {
    renderCharts()
    addPressure()
    expect(screen.queryByRole('button', { name: 'Close Pressure' })).toBeNull()
    addDensity()
    act(() =>
      store.set(addChartDatasetAtom, {
        dataset: dataset('v-mean', 'velocity', [0.1, 0.2]),
        name: 'Velocity mean (Water)',
        yLabel: 'Velocity (m/s)',
      }),
    )
    fireEvent.click(screen.getByRole('tab', { name: 'Pressure' }))
    fireEvent.click(screen.getByRole('button', { name: 'Close Pressure' }))
    expect(tabNames()).toEqual(['Density', 'Velocity'])
    expect(screen.getByRole('tab', { name: 'Velocity' }).getAttribute('aria-selected')).toBe('true')

    fireEvent.click(screen.getByRole('button', { name: 'Close Velocity' }))
    expect(tabNames()).toEqual(['Density'])
    expect(screen.queryByRole('button', { name: 'Close Density' })).toBeNull()
  })

  it("says 'Min must be smaller than max.' while Y min is not below Y max, and Reset clears both", () => {
    renderCharts()
    addPressure()
    fireEvent.change(screen.getByLabelText('Y min'), { target: { value: '10' } })
    fireEvent.change(screen.getByLabelText('Y max'), { target: { value: '5' } })
    expect(screen.getByRole('alert').textContent).toBe('Min must be smaller than max.')
    expect(store.get(chartWindowsAtom)[0]?.layout).toMatchObject({ minY: 10, maxY: 5 })

    fireEvent.change(screen.getByLabelText('Y max'), { target: { value: '20' } })
    expect(screen.queryByRole('alert')).toBeNull()

    fireEvent.change(screen.getByLabelText('Y max'), { target: { value: '10' } })
    expect(screen.getByRole('alert').textContent).toBe('Min must be smaller than max.')

    fireEvent.click(screen.getByRole('button', { name: 'Reset' }))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByLabelText<HTMLInputElement>('Y min').value).toBe('')
    expect(store.get(chartWindowsAtom)[0]?.layout).toMatchObject({ minY: null, maxY: null })
  })

  it('keeps one window’s Y range when another tab is shown', () => {
    renderCharts()
    addPressure()
    fireEvent.change(screen.getByLabelText('Y min'), { target: { value: '-1' } })
    addDensity()
    expect(screen.getByLabelText<HTMLInputElement>('Y min').value).toBe('')
    fireEvent.click(screen.getByRole('tab', { name: 'Pressure' }))
    expect(screen.getByLabelText<HTMLInputElement>('Y min').value).toBe('-1')
  })

  it('sets interpolation, X axis and the time indicator on the shown window', () => {
    renderCharts()
    addPressure()
    fireEvent.change(screen.getByLabelText('Interpolation'), { target: { value: 'monotoneX' } })
    fireEvent.change(screen.getByLabelText('X axis'), { target: { value: 'outputs' } })
    fireEvent.click(screen.getByLabelText('Time indicator'))
    expect(store.get(chartWindowsAtom)[0]?.layout).toMatchObject({
      interpolation: 'monotoneX',
      xAxis: 'outputs',
      timeIndicator: true,
    })
    expect(
      within(screen.getByLabelText('X axis'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Time (s)', 'Output'])
  })

  it('edits a dataset’s name, line, marker and colour in its dialog', () => {
    renderCharts()
    addPressure()
    fireEvent.click(screen.getByRole('button', { name: 'Edit Pressure mean (Water)' }))
    const dialog = screen.getByRole('dialog', { name: 'Edit dataset' })
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Mean p' } })
    fireEvent.change(within(dialog).getByLabelText('Line style'), { target: { value: 'dashed' } })
    fireEvent.change(within(dialog).getByLabelText('Marker style'), {
      target: { value: 'triangle' },
    })
    fireEvent.change(within(dialog).getByLabelText('Colour'), { target: { value: '#d64265' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))

    expect(screen.queryByRole('dialog')).toBeNull()
    expect(store.get(chartWindowsAtom)[0]?.layout.datasetLayouts['p-mean']).toEqual({
      name: 'Mean p',
      lineStyle: 'dashed',
      markerStyle: 'triangle',
      color: '#D64265',
    })
    expect(screen.getByText('Mean p')).toBeTruthy()
  })

  it('does not save a dataset without a name, and Cancel keeps the old layout', () => {
    renderCharts()
    addPressure()
    fireEvent.click(screen.getByRole('button', { name: 'Edit Pressure mean (Water)' }))
    const dialog = screen.getByRole('dialog', { name: 'Edit dataset' })
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' ' } })
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(
      true,
    )
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(store.get(chartWindowsAtom)[0]?.layout.datasetLayouts['p-mean']?.name).toBe(
      'Pressure mean (Water)',
    )
  })

  it('removes a dataset; the emptied chart says where data comes from', () => {
    renderCharts()
    addPressure()
    addPressure('p-max', 'Pressure max (Water)')
    fireEvent.click(screen.getByRole('button', { name: 'Remove Pressure mean (Water)' }))
    expect(screen.queryByText('Pressure mean (Water)')).toBeNull()
    expect(store.get(chartWindowsAtom)[0]?.layout.datasetLayouts['p-mean']).toBeUndefined()
    fireEvent.click(screen.getByRole('button', { name: 'Remove Pressure max (Water)' }))
    expect(screen.getByText('Add data from the Statistics table')).toBeTruthy()
    expect(tabNames()).toEqual(['Pressure'])
  })

  it('exports the CSV with ; separators, times from the output interval, under the simulation and chart names', async () => {
    const saved: { name: string; blob: Blob }[] = []
    const created = new Map<string, Blob>()
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      const url = `blob:chart-${created.size}`
      created.set(url, blob as Blob)
      return url
    })
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, blob: created.get(this.href) ?? new Blob() })
    })
    renderCharts()
    addPressure()
    addPressure('p-max', 'Pressure max (Water)')
    fireEvent.click(screen.getByRole('button', { name: 'Export' }))
    const dialog = screen.getByRole('dialog', { name: 'Export chart' })
    expect(within(dialog).getByText('Dam break - Pressure.csv')).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }))

    expect(saved.map((file) => file.name)).toEqual(['Dam break - Pressure.csv'])
    expect(await saved[0]!.blob.text()).toBe(
      [
        'Output;Time (s);Pressure mean (Water);Pressure max (Water)',
        '0;0;1;1',
        '1;0.05;2.5;2.5',
        '2;0.1;;',
        '3;0.15;4;4',
        '',
      ].join('\n'),
    )
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('names the PNG after the simulation and the chart', () => {
    renderCharts()
    addPressure()
    fireEvent.click(screen.getByRole('button', { name: 'Export' }))
    const dialog = screen.getByRole('dialog', { name: 'Export chart' })
    fireEvent.click(within(dialog).getByLabelText('PNG'))
    expect(within(dialog).getByText('Dam break - Pressure.png')).toBeTruthy()
  })

  it('minimizes to the tab bar and opens again from a tab', () => {
    renderCharts()
    addPressure()
    fireEvent.click(screen.getByRole('button', { name: 'Minimize charts' }))
    expect(screen.queryByRole('tabpanel')).toBeNull()
    fireEvent.click(screen.getByRole('tab', { name: 'Pressure' }))
    expect(screen.getByRole('tabpanel')).toBeTruthy()
  })

  it('maximize, half-screen and fullscreen are one at a time, and a second press docks again', () => {
    renderCharts()
    addPressure()
    const panel = screen.getByRole('region', { name: 'Charts' })
    fireEvent.click(screen.getByRole('button', { name: 'Maximize charts' }))
    expect(panel.className).toContain('chart-panel--maximized')
    fireEvent.click(screen.getByRole('button', { name: 'Fullscreen charts' }))
    expect(panel.className).toContain('chart-panel--fullscreen')
    expect(panel.className).not.toContain('chart-panel--maximized')
    fireEvent.click(screen.getByRole('button', { name: 'Half-screen charts' }))
    expect(panel.className).toContain('chart-panel--half')
    fireEvent.click(screen.getByRole('button', { name: 'Half-screen charts' }))
    expect(panel.className).toBe('chart-panel')
  })

  it('below 1700 px the panel is forced minimized, opens fullscreen, and the other modes are off', () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1280 })
    renderCharts()
    const panel = screen.getByRole('region', { name: 'Charts' })
    expect(panel.className).toContain('chart-panel--minimized')
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Maximize charts' }).disabled,
    ).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Restore charts' }))
    expect(panel.className).toContain('chart-panel--fullscreen')
    fireEvent.click(screen.getByRole('button', { name: 'Minimize charts' }))
    addPressure()
    expect(panel.className).toContain('chart-panel--fullscreen')
  })

  it('goes minimized when the window is resized below 1700 px', () => {
    renderCharts()
    addPressure()
    const panel = screen.getByRole('region', { name: 'Charts' })
    expect(panel.className).toBe('chart-panel')
    act(() => {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1600 })
      window.dispatchEvent(new Event('resize'))
    })
    expect(panel.className).toContain('chart-panel--minimized')
  })

  it('opens a minimized panel when a series is plotted', () => {
    renderCharts()
    fireEvent.click(screen.getByRole('button', { name: 'Minimize charts' }))
    addPressure()
    expect(screen.getByRole('tabpanel')).toBeTruthy()
    expect(screen.getByText('Pressure mean (Water)')).toBeTruthy()
  })

  it('Escape docks a fullscreen panel, and minimizes it again on a small screen', () => {
    renderCharts()
    addPressure()
    const panel = screen.getByRole('region', { name: 'Charts' })
    fireEvent.click(screen.getByRole('button', { name: 'Fullscreen charts' }))
    fireEvent.keyDown(window, { key: 'Escape' })
    expect(panel.className).toBe('chart-panel')

    act(() => {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1280 })
      window.dispatchEvent(new Event('resize'))
    })
    fireEvent.click(screen.getByRole('button', { name: 'Restore charts' }))
    expect(panel.className).toContain('chart-panel--fullscreen')
    fireEvent.keyDown(window, { key: 'Escape' })
    expect(panel.className).toContain('chart-panel--minimized')
  })

  it("starts without another simulation's charts and keeps its own while it stays open", () => {
    const view = renderCharts()
    addPressure()
    view.rerender(
      <JotaiProvider store={store}>
        <ChartWindows simulation={{ ...SIMULATION, id: 6 }} />
      </JotaiProvider>,
    )
    expect(screen.queryAllByRole('tab')).toHaveLength(0)
    addDensity()
    view.rerender(
      <JotaiProvider store={store}>
        <ChartWindows simulation={{ ...SIMULATION, id: 6 }} />
      </JotaiProvider>,
    )
    expect(tabNames()).toEqual(['Density'])
  })

  it('offers no export of an emptied chart', () => {
    renderCharts()
    addPressure()
    fireEvent.click(screen.getByRole('button', { name: 'Remove Pressure mean (Water)' }))
    fireEvent.click(screen.getByRole('button', { name: 'Export' }))
    const dialog = screen.getByRole('dialog', { name: 'Export chart' })
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Export' }).disabled).toBe(
      true,
    )
    expect(within(dialog).getByText('Add data from the Statistics table')).toBeTruthy()
  })
})
