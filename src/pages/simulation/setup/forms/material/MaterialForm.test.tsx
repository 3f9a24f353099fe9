import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDefaultMaterial } from '../../../../../../domain/materials.ts'
import { defaultSettings } from '../../../../../../domain/settings.ts'
import { tokenStore } from '../../../../../api/index.ts'
import {
  SIMULATION,
  SIMULATION_ID,
  api,
  edits,
  renderWithSetup,
  resetFakeApi,
  toastTitles,
  typeAndCommit,
  type FakeApi,
} from '../testing/formHarness.tsx'
import { MaterialForm } from './MaterialForm.tsx'

const NOW = '2026-11-26T00:00:00.000Z'
const materials = (count: number) =>
  Array.from({ length: count }, (_, id) => createDefaultMaterial(id, SIMULATION_ID, NOW))

function renderForm(materialId: number | null, patch: Partial<FakeApi> = {}) {
  resetFakeApi(patch)
  return renderWithSetup(
    <MaterialForm simulation={SIMULATION} form={{ kind: 'material', materialId }} />,
  )
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

describe('MaterialForm', () => {
  it('fills the material from a preset through PUT', async () => {
    renderForm(0)
    fireEvent.click(await screen.findByRole('button', { name: 'Load Presets' }))
    const dialog = await screen.findByRole('dialog', { name: 'Load Presets' })
    fireEvent.click(await within(dialog).findByRole('radio', { name: 'Water' }))
    expect(within(dialog).getByText('Fresh water at 20 °C')).toBeTruthy()
    expect(within(dialog).getByText('998.2 kg/m³')).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }))
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]).toEqual({
      method: 'PUT',
      path: '/api/simulations/4/materials/0',
      body: {
        name: 'Water',
        density: 998.2,
        gamma: 7,
        viscosityKind: 'constant',
        kinematicViscosity: 1.004e-6,
        thermalConductivity: 0.598,
        specificHeatCapacity: 4182,
      },
    })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('collapses the list after 5 materials', async () => {
    renderForm(0, { materials: materials(5).concat(createDefaultMaterial(5, SIMULATION_ID, NOW)) })
    const list = await screen.findByRole('list', { name: 'Materials' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(5)
    fireEvent.click(screen.getByRole('button', { name: 'see 1 more' }))
    expect(within(list).getAllByRole('listitem')).toHaveLength(6)
    expect(screen.getByRole('button', { name: 'see 1 less' })).toBeTruthy()
  })

  it('deletes only materials from id 2 on, after a second click', async () => {
    renderForm(0, { materials: materials(3), settings: { ...defaultSettings(), multiphase: true } })
    await screen.findByRole('list', { name: 'Materials' })
    expect(screen.queryByRole('button', { name: 'Delete Fluid 1' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete Fluid 2' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Delete Fluid 3' }))
    expect(edits()).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: Delete Fluid 3' }))
    await waitFor(() =>
      expect(edits()[0]).toMatchObject({
        method: 'DELETE',
        path: '/api/simulations/4/materials/2',
      }),
    )
  })

  it('adds a fluid only under multiphase', async () => {
    renderForm(0)
    const add = await screen.findByRole<HTMLButtonElement>('button', { name: 'Add material' })
    expect(add.disabled).toBe(true)
    expect(screen.getByText('Turn on multiphase (Physics) to add further fluids.')).toBeTruthy()
  })

  it('shows a refused density with the rule message and keeps the stored one', async () => {
    renderForm(0)
    api.refuse = {
      match: 'PUT /api/simulations/4/materials/0',
      errors: [{ path: 'material.density', message: 'Density must be at least 0.001.' }],
    }
    typeAndCommit(await screen.findByLabelText('Density'), '0')
    expect(await screen.findByText('Density must be at least 0.001.')).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLInputElement>('Density').value).toBe('1000'),
    )
  })

  it('rolls back a refused edit with the failure toast', async () => {
    const store = renderForm(0)
    api.refuse = {
      match: 'PUT /api/simulations/4/materials/0',
      errors: [{ path: 'material.gamma', message: 'Gamma must be greater than 0.' }],
    }
    typeAndCommit(await screen.findByLabelText('Gamma'), '-1')
    await waitFor(() => expect(toastTitles(store)).toContain('Updating material failed'))
    expect(screen.getByLabelText<HTMLInputElement>('Gamma').value).toBe('7')
  })

  it('says when a material has unset properties', async () => {
    renderForm(0, {
      materials: [{ ...createDefaultMaterial(0, SIMULATION_ID, NOW), density: null }],
    })
    expect(await screen.findByText('Properties are required.')).toBeTruthy()
    expect(screen.getByText('Density is required')).toBeTruthy()
  })

  it('offers temperature-dependent viscosity only with heat transfer', async () => {
    renderForm(0)
    const select = await screen.findByLabelText<HTMLSelectElement>('Viscosity')
    expect(
      within(select).getByRole<HTMLOptionElement>('option', { name: 'Temperature table' }).disabled,
    ).toBe(true)
  })
})
