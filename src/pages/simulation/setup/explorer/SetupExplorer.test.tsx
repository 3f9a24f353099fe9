import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SENSORS_LOCKED_MESSAGE } from '../../../../../domain/rest/sensorRoutes.ts'
import { SETUP_MESSAGES } from '../../../../../domain/setupMessages.ts'
import { EMPTY_SETUP_MESSAGE } from '../../../../../domain/setupValidation.ts'
import { setupObjectDialogAtom, setupSelectionAtom, sideFormAtom } from '../state/setupAtoms.ts'
import {
  FakeEngine,
  SIMULATION_ID,
  createSetupServer,
  makeMaterial,
  makePart,
  makePointSensor,
  makeSimulation,
  renderSetup,
} from '../viewport/setupTestKit.tsx'
import { SetupExplorer } from './SetupExplorer.tsx'

let server: ReturnType<typeof createSetupServer>

beforeEach(() => {
  server = createSetupServer({
    parts: [
      makePart(1, 'Tank', 'rigid'),
      makePart(2, 'Water column', 'filling'),
      makePart(3, 'Outlet', 'openboundary'),
    ],
    materials: [makeMaterial(0, 'Water'), makeMaterial(1, 'Air'), makeMaterial(2, 'Oil')],
    sensors: [makePointSensor(8, 'Probe')],
    calcDomain: { active: true, min: [-1, -1, -1], max: [2, 2, 2], issues: [] },
  })
  server.install()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function renderExplorer(
  options: Parameters<typeof renderSetup>[1] = {},
  simulation = makeSimulation(),
) {
  const engine = new FakeEngine()
  const view = renderSetup(<SetupExplorer simulation={simulation} />, { engine, ...options })
  return { ...view, engine }
}

const entry = (name: string) => screen.getByRole('button', { name })

describe('object explorer', () => {
  it('lists parts by role, materials, sensors and the single items', async () => {
    renderExplorer()
    await screen.findByRole('button', { name: 'Tank' })
    expect(within(screen.getByRole('list', { name: 'Solids' })).getByText('Tank')).toBeTruthy()
    expect(
      within(screen.getByRole('list', { name: 'Fluids' })).getByText('Water column'),
    ).toBeTruthy()
    expect(
      within(screen.getByRole('list', { name: 'Inlets/Outlets' })).getByText('Outlet'),
    ).toBeTruthy()
    expect(entry('Coordinate System')).toBeTruthy()
    expect(entry('Oil')).toBeTruthy()
    expect(entry('Probe')).toBeTruthy()
    expect(entry('Deletion Boundary')).toBeTruthy()
    // The periodic boundary and the air drag domain are shown, not selectable while not defined.
    expect(screen.getByText('Periodic Boundary').closest('button')).toBeNull()
    expect(screen.getByText('Air Drag Domain').closest('button')).toBeNull()
    expect(screen.queryByText(EMPTY_SETUP_MESSAGE)).toBeNull()
  })

  it("shows 'Add your first object' on an empty scene", async () => {
    server.state.parts = []
    renderExplorer()
    expect(await screen.findByText(EMPTY_SETUP_MESSAGE)).toBeTruthy()
  })

  it('selects by click, toggles with ctrl or meta, selects a range with shift', async () => {
    const { store } = renderExplorer()
    fireEvent.click(await screen.findByRole('button', { name: 'Tank' }))
    expect(store.get(setupSelectionAtom)).toEqual(['part:1'])
    expect(entry('Tank').getAttribute('aria-pressed')).toBe('true')

    fireEvent.click(entry('Outlet'), { ctrlKey: true })
    expect(store.get(setupSelectionAtom)).toEqual(['part:1', 'part:3'])
    fireEvent.click(entry('Tank'), { metaKey: true })
    expect(store.get(setupSelectionAtom)).toEqual(['part:3'])
    expect(entry('Tank').getAttribute('aria-pressed')).toBe('false')

    fireEvent.click(entry('Tank'))
    fireEvent.click(entry('Water'), { shiftKey: true })
    expect(store.get(setupSelectionAtom)).toEqual(['part:1', 'part:2', 'part:3', 'material:0'])

    fireEvent.click(entry('Probe'))
    expect(store.get(setupSelectionAtom)).toEqual(['sensor:8'])
  })

  it('brings an object selected elsewhere (the 3D view) into sight', async () => {
    const scrolled: string[] = []
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.getAttribute('data-object-id') ?? '')
    })
    const { store } = renderExplorer()
    await screen.findByRole('button', { name: 'Probe' })
    act(() => store.set(setupSelectionAtom, ['sensor:8']))
    expect(scrolled).toEqual(['sensor:8'])
  })

  it('opens the form of what is double-clicked, and frames it in the view', async () => {
    const { store, engine } = renderExplorer()
    fireEvent.doubleClick(await screen.findByRole('button', { name: 'Tank' }))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'geometry' })
    expect(engine.last('setup_focus')).toEqual({ type: 'setup_focus', id: 'part:1' })
    fireEvent.doubleClick(entry('Oil'))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'material', materialId: 2 })
    fireEvent.doubleClick(entry('Coordinate System'))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'coordinateSystem' })
    fireEvent.doubleClick(entry('Deletion Boundary'))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'calcDomain' })
    fireEvent.doubleClick(entry('Probe'))
    expect(store.get(setupObjectDialogAtom)).toEqual({ kind: 'sensor', sensorId: 8 })
    expect(await screen.findByRole('dialog', { name: 'Edit sensor' })).toBeTruthy()
  })

  it('moves with the arrow keys, opens with Enter, and arms the delete with Delete', async () => {
    const { store } = renderExplorer()
    const tank = await screen.findByRole('button', { name: 'Tank' })
    fireEvent.click(tank)
    fireEvent.keyDown(tank, { key: 'ArrowDown' })
    expect(store.get(setupSelectionAtom)).toEqual(['part:2'])
    expect(document.activeElement).toBe(entry('Water column'))
    fireEvent.keyDown(entry('Water column'), { key: 'ArrowUp', shiftKey: true })
    expect(store.get(setupSelectionAtom)).toEqual(['part:2', 'part:1'])
    fireEvent.keyDown(entry('Tank'), { key: 'ArrowUp' })
    expect(store.get(setupSelectionAtom)).toEqual(['coordinate_system'])
    fireEvent.keyDown(entry('Coordinate System'), { key: 'End' })
    expect(store.get(setupSelectionAtom)).toEqual(['calc_domain'])

    fireEvent.keyDown(entry('Outlet'), { key: 'Enter' })
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'geometry' })

    fireEvent.keyDown(entry('Outlet'), { key: 'Delete' })
    const armed = screen.getByRole('button', { name: 'Confirm: Delete Outlet' })
    expect(document.activeElement).toBe(armed)
    expect(server.seen('DELETE', '/api/parts/3')).toHaveLength(0)
    fireEvent.click(armed)
    await waitFor(() => expect(server.seen('DELETE', '/api/parts/3')).toHaveLength(1))
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Outlet' })).toBeNull())
  })

  it('deletes only on the second click; leaving the armed button disarms it', async () => {
    renderExplorer()
    const remove = await screen.findByRole('button', { name: 'Delete Tank' })
    fireEvent.click(remove)
    fireEvent.blur(screen.getByRole('button', { name: 'Confirm: Delete Tank' }))
    fireEvent.click(screen.getByRole('button', { name: 'Delete Tank' }))
    expect(server.seen('DELETE', '/api/parts/1')).toHaveLength(0)
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: Delete Tank' }))
    await waitFor(() => expect(server.seen('DELETE', '/api/parts/1')).toHaveLength(1))
  })

  it('offers delete for materials from id 2 on and for an active deletion boundary', async () => {
    renderExplorer()
    await screen.findByRole('button', { name: 'Tank' })
    expect(screen.queryByRole('button', { name: 'Delete Water' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete Air' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Delete Oil' }))
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: Delete Oil' }))
    fireEvent.click(screen.getByRole('button', { name: 'Delete Deletion Boundary' }))
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: Delete Deletion Boundary' }))
    await waitFor(() => {
      expect(server.seen('DELETE', `/api/simulations/${SIMULATION_ID}/materials/2`)).toHaveLength(1)
      expect(server.seen('DELETE', `/api/simulations/${SIMULATION_ID}/calc_domain`)).toHaveLength(1)
    })
  })

  it("shows or hides a part through its appearance's visibility", async () => {
    renderExplorer()
    const show = await screen.findByRole('checkbox', { name: 'Show Tank' })
    expect((show as HTMLInputElement).checked).toBe(true)
    fireEvent.click(show)
    await waitFor(() =>
      expect(server.seen('PUT', '/api/parts/1').map((r) => r.body)).toEqual([
        { appearance: { visibility: false } },
      ]),
    )
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Show Tank' }).checked).toBe(
        false,
      ),
    )
  })

  it('marks a part with warnings; the mark names them and opens its Information folder', async () => {
    server.state.parts[0] = makePart(1, 'Tank', 'rigid', {
      hasWarnings: true,
      warnings: [{ errorCode: 'open_mesh', message: 'The mesh is not closed.' }],
    })
    const { store } = renderExplorer()
    const mark = await screen.findByRole('button', { name: /^Tank has warnings/ })
    expect(mark.getAttribute('aria-label')).toContain('The mesh is not closed.')
    expect(screen.queryByRole('button', { name: /^Water column has warnings/ })).toBeNull()
    fireEvent.click(mark)
    expect(store.get(setupSelectionAtom)).toEqual(['part:1'])
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'information' })
  })

  it('disables every edit of a locked setup, with the hint, but still selects and opens', async () => {
    const { store } = renderExplorer({
      editable: { editable: false, reason: SETUP_MESSAGES.lockedHint },
    })
    await screen.findByRole('button', { name: 'Tank' })
    expect(screen.getByText(SETUP_MESSAGES.lockedHint)).toBeTruthy()
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Show Tank' }).disabled).toBe(
      true,
    )
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Delete Tank' }).disabled).toBe(
      true,
    )
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add sensor' }).disabled).toBe(
      true,
    )
    fireEvent.keyDown(entry('Tank'), { key: 'Delete' })
    expect(screen.queryByRole('button', { name: 'Confirm: Delete Tank' })).toBeNull()
    fireEvent.doubleClick(entry('Tank'))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'geometry' })
  })

  it('does not add or edit sensors while the simulation is running', async () => {
    const { store } = renderExplorer({}, makeSimulation({ state: 'running' }))
    const add = await screen.findByRole('button', { name: 'Add sensor' })
    expect((add as HTMLButtonElement).disabled).toBe(true)
    fireEvent.mouseEnter(add.parentElement as HTMLElement)
    expect(screen.getByRole('tooltip').textContent).toBe(SENSORS_LOCKED_MESSAGE)
    fireEvent.doubleClick(await screen.findByRole('button', { name: 'Probe' }))
    expect(store.get(setupObjectDialogAtom)).toBeNull()
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Delete Probe' }).disabled).toBe(
      true,
    )
  })

  it('adds a sensor through the results dialog, named uniquely', async () => {
    renderExplorer()
    fireEvent.click(await screen.findByRole('button', { name: 'Add sensor' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add sensor' })
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').value).toBe('Sensor 1')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
      await Promise.resolve()
    })
    await waitFor(() =>
      expect(server.seen('POST', `/api/simulations/${SIMULATION_ID}/custom_sensors`)).toHaveLength(
        1,
      ),
    )
    expect(await screen.findByRole('button', { name: 'Sensor 1' })).toBeTruthy()
  })
})
