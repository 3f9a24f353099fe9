import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SETUP_MESSAGES } from '../../../../../domain/setupMessages.ts'
import { SINGLE_PART_ONLY } from '../forms/part/partSelection.ts'
import {
  setupObjectDialogAtom,
  setupSelectionAtom,
  setupToolAtom,
  sideFormAtom,
} from '../state/setupAtoms.ts'
import {
  SIMULATION_ID,
  createSetupServer,
  makePart,
  makeSimulation,
  renderSetup,
} from '../viewport/setupTestKit.tsx'
import { SetupToolbar } from './SetupToolbar.tsx'
import { MATERIAL_FLUIDS_ONLY } from './toolbarModel.ts'

let server: ReturnType<typeof createSetupServer>

beforeEach(() => {
  server = createSetupServer({
    parts: [
      makePart(1, 'Tank', 'rigid', {}, [0.5, 0.5, 0.5]),
      makePart(2, 'Water', 'filling', {}, [1.5, 0.5, 0.5]),
    ],
  })
  server.install()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderToolbar(options: NonNullable<Parameters<typeof renderSetup>[1]> = {}) {
  return renderSetup(<SetupToolbar simulation={makeSimulation()} />, options)
}

const openMenu = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Add' }))
  return screen.findByRole('menu', { name: 'Add' })
}
const item = (menu: HTMLElement, name: string) => within(menu).getByRole('menuitem', { name })

describe('Add menu', () => {
  it('opens on the first usable entry; arrows move over every entry, a disabled one says why', async () => {
    renderToolbar()
    await waitFor(() =>
      expect(server.seen('GET', `/api/simulations/${SIMULATION_ID}/calc_domain`)).toHaveLength(1),
    )
    const menu = await openMenu()
    expect(document.activeElement).toBe(item(menu, 'Solid'))
    fireEvent.keyDown(menu, { key: 'ArrowDown' })
    fireEvent.keyDown(menu, { key: 'ArrowDown' })
    fireEvent.keyDown(menu, { key: 'ArrowDown' })
    const refinement = item(menu, 'Refinement Zone')
    expect(document.activeElement).toBe(refinement)
    expect(refinement.getAttribute('aria-disabled')).toBeNull()
    fireEvent.keyDown(menu, { key: 'End' })
    expect(document.activeElement).toBe(item(menu, 'Settings'))
    fireEvent.keyDown(menu, { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add' }))
  })

  it('opens the addPart form for Solid, Fluid and Inlet Outlet, and the Physics and Settings forms', async () => {
    const { store } = renderToolbar()
    fireEvent.click(item(await openMenu(), 'Solid'))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'addPart', component: 'rigid' })
    expect(screen.queryByRole('menu')).toBeNull()
    fireEvent.click(item(await openMenu(), 'Fluid'))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'addPart', component: 'filling' })
    fireEvent.click(item(await openMenu(), 'Inlet Outlet'))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'addPart', component: 'openboundary' })
    fireEvent.click(item(await openMenu(), 'Physics'))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'physics' })
    fireEvent.click(item(await openMenu(), 'Settings'))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'settings' })
  })

  it('opens the sensor and volume clip dialogs', async () => {
    const { store } = renderToolbar()
    fireEvent.click(item(await openMenu(), 'Sensor'))
    expect(store.get(setupObjectDialogAtom)).toEqual({ kind: 'sensor', sensorId: null })
    fireEvent.click(item(await openMenu(), 'Volume Clip'))
    expect(store.get(setupObjectDialogAtom)).toEqual({ kind: 'volumeClip', clipId: null })
  })

  it('creates a deletion boundary around the parts and opens its form, then offers it no more', async () => {
    const { store } = renderToolbar()
    await waitFor(() =>
      expect(server.seen('GET', `/api/simulations/${SIMULATION_ID}/parts`)).toHaveLength(1),
    )
    await act(async () => {
      fireEvent.click(item(await openMenu(), 'Domain Boundary'))
      await Promise.resolve()
    })
    await waitFor(() => expect(store.get(sideFormAtom)).toEqual({ kind: 'calcDomain' }))
    expect(
      server.seen('PUT', `/api/simulations/${SIMULATION_ID}/calc_domain`).map((r) => r.body),
    ).toEqual([{ active: true, min: [-0.2, -0.2, -0.2], max: [2.2, 1.2, 1.2] }])
    expect(store.get(setupSelectionAtom)).toEqual(['calc_domain'])
    const menu = await openMenu()
    await waitFor(() =>
      expect(item(menu, 'Domain Boundary').getAttribute('aria-disabled')).toBe('true'),
    )
  })

  it('disables every addition of a locked setup with the Edit Setup hint', async () => {
    renderToolbar({ editable: { editable: false, reason: SETUP_MESSAGES.lockedHint } })
    const menu = await openMenu()
    for (const name of [
      'Solid',
      'Fluid',
      'Inlet Outlet',
      'Sensor',
      'Volume Clip',
      'Domain Boundary',
    ])
      expect(item(menu, name).getAttribute('aria-disabled')).toBe('true')
    expect(item(menu, 'Physics').getAttribute('aria-disabled')).toBeNull()
    fireEvent.focus(item(menu, 'Solid'))
    expect(screen.getByRole('tooltip').textContent).toBe(SETUP_MESSAGES.lockedHint)
  })
})

describe('secondary toolbar', () => {
  it('shows the folders of the selected parts and opens the part form at one', async () => {
    const { store } = renderToolbar()
    expect(screen.queryByRole('group', { name: 'Part folders' })).toBeNull()
    act(() => store.set(setupSelectionAtom, ['part:1']))
    const folders = await screen.findByRole('group', { name: 'Part folders' })
    const material = within(folders).getByRole('button', { name: 'Material' })
    expect(material.getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(material)
    expect(store.get(sideFormAtom)).toBeNull()
    fireEvent.mouseEnter(material.parentElement as HTMLElement)
    expect(screen.getByRole('tooltip').textContent).toBe(MATERIAL_FLUIDS_ONLY)

    fireEvent.click(within(folders).getByRole('button', { name: 'Boundary Conditions' }))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'boundary_conditions' })
    expect(
      within(folders)
        .getByRole('button', { name: 'Boundary Conditions' })
        .getAttribute('aria-pressed'),
    ).toBe('true')
    fireEvent.click(within(folders).getByRole('button', { name: 'Motion' }))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'motion' })
  })

  it('disables Motion and Information for several parts', async () => {
    const { store } = renderToolbar()
    act(() => store.set(setupSelectionAtom, ['part:1', 'part:2']))
    const folders = await screen.findByRole('group', { name: 'Part folders' })
    for (const name of ['Motion', 'Information']) {
      const button = within(folders).getByRole('button', { name })
      expect(button.getAttribute('aria-disabled')).toBe('true')
      fireEvent.focus(button)
      expect(screen.getByRole('tooltip').textContent).toBe(SINGLE_PART_ONLY)
      fireEvent.blur(button)
    }
    fireEvent.click(within(folders).getByRole('button', { name: 'Geometry' }))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'geometry' })
  })
})

describe('gizmo tools', () => {
  it('picks translate and rotate with t and r, but not while typing in a field', () => {
    const { store } = renderToolbar()
    fireEvent.keyDown(window, { key: 't' })
    expect(store.get(setupToolAtom)).toBe('translate')
    expect(screen.getByRole('button', { name: 'Translate (t)' }).getAttribute('aria-pressed')).toBe(
      'true',
    )
    fireEvent.keyDown(window, { key: 'r' })
    expect(store.get(setupToolAtom)).toBe('rotate')
    const input = document.createElement('input')
    document.body.append(input)
    fireEvent.keyDown(input, { key: 't' })
    expect(store.get(setupToolAtom)).toBe('rotate')
    input.remove()
    fireEvent.keyDown(window, { key: 't', ctrlKey: true })
    expect(store.get(setupToolAtom)).toBe('rotate')
    fireEvent.click(screen.getByRole('button', { name: 'Select' }))
    expect(store.get(setupToolAtom)).toBe('select')
  })

  it('keeps the select tool of a locked setup', () => {
    const { store } = renderToolbar({
      editable: { editable: false, reason: SETUP_MESSAGES.lockedHint },
    })
    fireEvent.keyDown(window, { key: 't' })
    fireEvent.click(screen.getByRole('button', { name: 'Rotate (r)' }))
    expect(store.get(setupToolAtom)).toBe('select')
    expect(screen.getByRole('button', { name: 'Rotate (r)' }).getAttribute('aria-disabled')).toBe(
      'true',
    )
  })
})
