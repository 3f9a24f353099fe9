import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { createStore } from 'jotai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defaultComponent, type Part } from '../../../../../../domain/parts.ts'
import { defaultSettings } from '../../../../../../domain/settings.ts'
import { tokenStore } from '../../../../../api/index.ts'
import { setupSelectionAtom, type PartFolder } from '../../state/setupAtoms.ts'
import {
  SIMULATION,
  api,
  type FakeApi,
  edits,
  makePart,
  renderWithSetup,
  resetFakeApi,
  toastTitles,
  typeAndCommit,
} from '../testing/formHarness.tsx'
import { PartForm } from './PartForm.tsx'

function renderFolder(
  folder: PartFolder,
  selected: number[],
  parts: Part[],
  patch: Partial<FakeApi> = {},
) {
  resetFakeApi({ parts, ...patch })
  const store = createStore()
  store.set(
    setupSelectionAtom,
    selected.map((id) => `part:${id}`),
  )
  renderWithSetup(<PartForm simulation={SIMULATION} form={{ kind: 'part', folder }} />, { store })
  return store
}

const tank = (id: number, patch: Partial<Part> = {}) =>
  makePart(id, { name: `Tank ${id}`, ...patch })
const inlet = (id: number, ioTableId: number | null = null) =>
  makePart(id, {
    name: `Inlet ${id}`,
    materialId: 0,
    component: { ...defaultComponent('openboundary'), ioTableId } as Part['component'],
  })

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

describe('PartForm', () => {
  it('writes one change to every selected part and shows differing values as mixed', async () => {
    renderFolder(
      'appearance',
      [1, 2],
      [tank(1, { appearance: { ...tank(1).appearance, opacity: 0.5 } }), tank(2)],
    )
    const opacity = await screen.findByLabelText('Opacity')
    expect(opacity.getAttribute('placeholder')).toBe('Mixed')
    typeAndCommit(opacity, '0.25')
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]).toEqual({
      method: 'PUT',
      path: '/api/simulations/4/parts',
      body: [
        { id: 1, appearance: { opacity: 0.25 } },
        { id: 2, appearance: { opacity: 0.25 } },
      ],
    })
  })

  it('sets one vector component on every part, keeping each part its other components', async () => {
    const shape = (y: number) => ({
      ...tank(1).shape,
      translation: [0, y, 0] as [number, number, number],
    })
    renderFolder('geometry', [1, 2], [tank(1, { shape: shape(1) }), tank(2, { shape: shape(2) })])
    expect((await screen.findByLabelText('Translation y (m)')).getAttribute('placeholder')).toBe(
      'Mixed',
    )
    typeAndCommit(screen.getByLabelText('Translation x (m)'), '5')
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]?.body).toEqual([
      { id: 1, shape: { type: 'stl_cube', translation: [5, 1, 0] } },
      { id: 2, shape: { type: 'stl_cube', translation: [5, 2, 0] } },
    ])
  })

  it('shows rotations with up to 9 decimals and saves the name of one part', async () => {
    const rotation: [number, number, number] = [0.1 + 0.2, 45, 0]
    renderFolder('geometry', [1], [tank(1, { shape: { ...tank(1).shape, rotation } })])
    expect((await screen.findByLabelText<HTMLInputElement>('Rotation x (deg)')).value).toBe('0.3')
    typeAndCommit(screen.getByLabelText('Name'), 'Walls')
    await waitFor(() =>
      expect(edits()[0]).toMatchObject({ path: '/api/parts/1', body: { name: 'Walls' } }),
    )
  })

  it('rolls back a refused edit with the failure toast and shows the field error', async () => {
    const store = renderFolder('geometry', [1], [tank(1)])
    api.refuse = {
      match: 'PUT /api/parts/1',
      errors: [{ path: 'part.shape.dimensions.0', message: 'Dimensions must be greater than 0.' }],
    }
    typeAndCommit(await screen.findByLabelText('Dimensions x (m)'), '3')
    expect(await screen.findByText('Dimensions must be greater than 0.')).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLInputElement>('Dimensions x (m)').value).toBe('1'),
    )
    expect(toastTitles(store)).toContain('Updating part failed')
  })

  it('asks for a material of a fluid part without one', async () => {
    renderFolder(
      'material',
      [3],
      [makePart(3, { component: defaultComponent('filling'), materialId: null })],
    )
    expect(await screen.findByText('Material is required')).toBeTruthy()
  })

  it('shows an initial velocity out of range with the rule message', async () => {
    renderFolder(
      'initial_conditions',
      [3],
      [makePart(3, { component: defaultComponent('filling'), materialId: 0 })],
    )
    typeAndCommit(await screen.findByLabelText('Initial velocity z (m/s)'), '2000')
    expect(await screen.findByText('Initial velocity must be at most 1000.')).toBeTruthy()
  })

  it('locks an inflow to the velocity condition', async () => {
    renderFolder('boundary_conditions', [5], [inlet(5)])
    const type = await screen.findByLabelText<HTMLSelectElement>('Condition type')
    expect(type.disabled).toBe(true)
    expect(within(type).getByRole<HTMLOptionElement>('option', { name: 'Pressure' }).disabled).toBe(
      true,
    )
  })

  it('offers no table profile for a multi-selection', async () => {
    renderFolder('boundary_conditions', [5, 6], [inlet(5), inlet(6)])
    expect(
      (await screen.findByRole<HTMLInputElement>('radio', { name: 'Field (table)' })).disabled,
    ).toBe(true)
    expect(
      screen.getByText('A non-constant profile is unavailable for a multi-selection.'),
    ).toBeTruthy()
  })

  it('asks before a type change drops a profile table with rows, then drops it', async () => {
    const part = inlet(5, 9)
    if (part.component.type === 'openboundary') part.component.ioDirection = 'outflow'
    renderFolder('boundary_conditions', [5], [part], {
      tables: { 9: { headers: ['time', 'prs'], rows: 4 } },
    })
    const type = await screen.findByLabelText('Condition type')
    expect(await screen.findByText("The field profile's table (4 rows) is kept.")).toBeTruthy()
    fireEvent.change(type, { target: { value: 'riemann_pressure' } })
    const dialog = await screen.findByRole('dialog', { name: 'Delete Previously Defined Table?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete table' }))
    await waitFor(() =>
      expect(edits()[0]?.body).toEqual({
        component: { type: 'openboundary', ioType: 'riemann_pressure', ioTableId: null },
      }),
    )
  })

  it('lists the thermal conditions multiphase allows with heat transfer', async () => {
    renderFolder('boundary_conditions', [1], [tank(1)], {
      settings: { ...defaultSettings(), thermodynamics: true, multiphase: true },
    })
    const select = await screen.findByLabelText<HTMLSelectElement>('Thermal condition')
    expect(
      within(select).getByRole<HTMLOptionElement>('option', { name: 'Heat flux' }).disabled,
    ).toBe(true)
    expect(
      within(select).getByRole<HTMLOptionElement>('option', { name: 'Temperature' }).disabled,
    ).toBe(false)
  })

  it('gives a point cloud filling neither a fill height nor a seed point', async () => {
    const filling = (id: number, shape: Partial<Part['shape']>) =>
      makePart(id, {
        component: defaultComponent('filling'),
        shape: { ...makePart(id, {}).shape, ...shape } as Part['shape'],
      })
    renderFolder('geometry', [1], [filling(1, {})])
    expect(await screen.findByLabelText('Fill height')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Add seed point' })).toBeTruthy()
    cleanup()

    renderFolder(
      'geometry',
      [2],
      [
        filling(2, {
          type: 'pointcloud',
          refSimulationId: 7,
          refSimulationOutput: 3,
          splittingRatio: 1,
        }),
      ],
    )
    expect(await screen.findByText('Point cloud')).toBeTruthy()
    expect(screen.queryByLabelText('Fill height')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Add seed point' })).toBeNull()
    expect(screen.queryByLabelText('Seed point x (m)')).toBeNull()
  })

  it('keeps Information to a single part', async () => {
    renderFolder('information', [1, 2], [tank(1), tank(2)])
    expect(await screen.findByText('Select a single part to see this folder.')).toBeTruthy()
  })
})
