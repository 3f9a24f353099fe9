import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defaultSettings } from '../../../../../domain/settings.ts'
import { tokenStore } from '../../../../api/index.ts'
import { CalcDomainForm } from './CalcDomainForm.tsx'
import {
  SIMULATION,
  edits,
  renderWithSetup,
  resetFakeApi,
  typeAndCommit,
} from './testing/formHarness.tsx'

const renderForm = () =>
  renderWithSetup(<CalcDomainForm simulation={SIMULATION} form={{ kind: 'calcDomain' }} />)

beforeEach(() => resetFakeApi())
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

describe('CalcDomainForm', () => {
  it('warns while the deletion boundary is off, and switches it on', async () => {
    renderForm()
    expect(await screen.findByText('Add a deletion boundary to save on cost.')).toBeTruthy()
    fireEvent.click(screen.getByRole('switch', { name: 'Active' }))
    await waitFor(() => expect(edits()[0]?.body).toMatchObject({ active: true }))
    await waitFor(() =>
      expect(screen.queryByText('Add a deletion boundary to save on cost.')).toBeNull(),
    )
  })

  it('shows a box whose minimum is not below its maximum with the rule message', async () => {
    resetFakeApi({ settings: { ...defaultSettings(), calcDomainActive: true } })
    renderForm()
    typeAndCommit(await screen.findByLabelText('Minimum x (m)'), '5')
    expect(
      await screen.findByText('Deletion boundary minimum must be smaller than its maximum.'),
    ).toBeTruthy()
  })

  it('deletes the deletion boundary after a second click', async () => {
    resetFakeApi({ settings: { ...defaultSettings(), calcDomainActive: true } })
    renderForm()
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Deletion Boundary' }))
    expect(edits()).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: Delete Deletion Boundary' }))
    await waitFor(() =>
      expect(edits()[0]).toMatchObject({
        method: 'DELETE',
        path: '/api/simulations/4/calc_domain',
      }),
    )
  })
})
