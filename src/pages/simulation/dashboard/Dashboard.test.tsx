import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  CHOOSE_GRAPH_MESSAGE,
  LAUNCH_DELAYED_MESSAGE,
  LAUNCH_FAILED_MESSAGE,
  RUN_FAILED_MESSAGE,
  VIEW_NAME_TAKEN_MESSAGE,
  type DashboardView,
} from '../../../../domain/dashboards.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { CREDITS_RAN_OUT_TOOLTIP } from '../../../../domain/simulationState.ts'
import { AddGraphDialog } from './AddGraphDialog.tsx'
import { DetailsTileBody, ProgressTileBody, progressMessage } from './tiles/StatusTiles.tsx'
import { TileFrame } from './tiles/TileFrame.tsx'
import { ViewBar } from './ViewBar.tsx'

afterEach(cleanup)

describe('Add Graph', () => {
  it('keeps Add disabled until a graph is chosen, then adds that graph', () => {
    const onAdd = vi.fn()
    render(
      <AddGraphDialog
        sensors={[{ id: 7, name: 'Box front' }]}
        graphs={[]}
        onAdd={onAdd}
        onUpload={() => Promise.resolve()}
        onClose={() => undefined}
      />,
    )
    const add = screen.getByRole('button', { name: 'Add' })
    expect(add).toHaveProperty('disabled', true)
    expect(add.getAttribute('title')).toBe(CHOOSE_GRAPH_MESSAGE)
    fireEvent.click(screen.getByRole('radio', { name: 'Pressure at Box front' }))
    expect(add).toHaveProperty('disabled', false)
    fireEvent.click(add)
    expect(onAdd).toHaveBeenCalledWith({ kind: 'sensor', sensorId: 7, quantity: 'pressure' })
  })
})

const SIMULATION = {
  id: 1,
  name: 'Dam break',
  state: 'launching',
  startedAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  log: null,
} as unknown as Simulation

describe('progress tile', () => {
  const start = Date.parse('2026-11-27T10:00:00.000Z')
  it('says a launch is delayed only after 15 minutes', () => {
    expect(progressMessage(SIMULATION, start + 15 * 60_000)).toBeNull()
    expect(progressMessage(SIMULATION, start + 15 * 60_000 + 1)).toBe(LAUNCH_DELAYED_MESSAGE)
  })
  it('explains a failed run and a failed launch', () => {
    render(<ProgressTileBody simulation={{ ...SIMULATION, state: 'failed' }} nowMs={start} />)
    expect(screen.getByRole('alert').textContent).toBe(RUN_FAILED_MESSAGE)
    expect(progressMessage({ ...SIMULATION, state: 'launch failed' }, start)).toBe(
      LAUNCH_FAILED_MESSAGE,
    )
  })
  it("names what stopped a run, as the sidebar does: a credit stop is not the user's", () => {
    render(
      <ProgressTileBody
        simulation={{
          ...SIMULATION,
          state: 'stopped',
          lastStopCondition: { valueType: 'credits', threshold: 0 },
        }}
        nowMs={start}
      />,
    )
    expect(screen.getByText(CREDITS_RAN_OUT_TOOLTIP)).toBeTruthy()
    expect(screen.queryByText('Simulation stopped by user.')).toBeNull()
  })
})

describe('details tile', () => {
  it('reads counts as people write them', () => {
    const log = {
      progress: 0.3,
      time: 74.761,
      runtime: 26_460,
      runtimeLeft: null,
      particles: 17_002,
      output: 2,
    }
    render(<DetailsTileBody simulation={{ ...SIMULATION, log }} />)
    expect(screen.getByText('17,002')).toBeTruthy()
    expect(screen.getByText('0.441 min')).toBeTruthy()
  })
})

describe('views', () => {
  const view: DashboardView = { id: 1, simulationId: 1, name: 'Default', default: true, tiles: [] }
  it("refuses a new view's name that is taken, with the spec's tooltip", () => {
    const onCreateView = vi.fn(() => Promise.resolve())
    render(
      <ViewBar
        views={[view]}
        current={view}
        templates={[]}
        onSelect={() => undefined}
        onCreateView={onCreateView}
        onCreateTemplate={() => Promise.resolve()}
        onDeleteTemplate={() => Promise.resolve()}
        onMakeDefault={() => undefined}
        onDeleteView={() => undefined}
        percentage={false}
        onPercentageChange={() => undefined}
      />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'New view' }))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' default' } })
    const add = screen.getByRole('button', { name: 'Add view' })
    expect(add).toHaveProperty('disabled', true)
    expect(add.getAttribute('title')).toBe(VIEW_NAME_TAKEN_MESSAGE)
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Pressures' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add view' }))
    expect(onCreateView).toHaveBeenCalledWith({ name: 'Pressures', templateId: null })
  })
})

describe('templates', () => {
  it('deletes the template chosen in New view', async () => {
    const view: DashboardView = {
      id: 1,
      simulationId: 1,
      name: 'Default',
      default: true,
      tiles: [],
    }
    const template = { id: 5, name: 'Four graphs', creatorId: 1, createdAt: '', tiles: [] }
    const onDeleteTemplate = vi.fn(() => Promise.resolve())
    render(
      <ViewBar
        views={[view]}
        current={view}
        templates={[template]}
        onSelect={() => undefined}
        onCreateView={() => Promise.resolve()}
        onCreateTemplate={() => Promise.resolve()}
        onDeleteTemplate={onDeleteTemplate}
        onMakeDefault={() => undefined}
        onDeleteView={() => undefined}
        percentage={false}
        onPercentageChange={() => undefined}
      />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'New view' }))
    expect(screen.queryByRole('button', { name: /Delete template/ })).toBeNull()
    fireEvent.change(screen.getByLabelText('Template'), { target: { value: '5' } })
    fireEvent.click(screen.getByRole('button', { name: 'Delete template Four graphs' }))
    expect(onDeleteTemplate).toHaveBeenCalledWith(5)
    await vi.waitFor(() =>
      expect(screen.queryByRole('button', { name: /Delete template/ })).toBeNull(),
    )
  })
})

describe('tile frame', () => {
  it('moves with the arrow keys and resizes with Shift on its focused header', () => {
    const onArrange = vi.fn()
    render(
      <TileFrame title="Particles" onArrange={onArrange}>
        <p>chart</p>
      </TileFrame>,
    )
    const header = screen.getByRole('region', { name: 'Particles' }).querySelector('header')
    if (!header) throw new Error('no header')
    fireEvent.keyDown(header, { key: 'ArrowRight' })
    fireEvent.keyDown(header, { key: 'ArrowDown', shiftKey: true })
    expect(onArrange.mock.calls).toEqual([
      [{ dx: 1, dy: 0, dw: 0, dh: 0 }],
      [{ dx: 0, dy: 0, dw: 0, dh: 1 }],
    ])
    expect(header.getAttribute('tabindex')).toBe('0')
  })
})
