import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defaultSettings } from '../../../../../../domain/settings.ts'
import { SETTINGS_ADJUSTMENTS } from '../../../../../../domain/settingsRules.ts'
import { tokenStore } from '../../../../../api/index.ts'
import {
  SIMULATION,
  api,
  edits,
  renderWithSetup,
  resetFakeApi,
  toastTitles,
  typeAndCommit,
} from '../testing/formHarness.tsx'
import { PhysicsForm } from './PhysicsForm.tsx'

const renderForm = () =>
  renderWithSetup(<PhysicsForm simulation={SIMULATION} form={{ kind: 'physics' }} />)

const switchNamed = (name: string) => screen.findByRole<HTMLInputElement>('switch', { name })

beforeEach(() => resetFakeApi())
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

describe('PhysicsForm', () => {
  it('lists what switching multiphase on adjusted in the Advanced Settings Were Adjusted dialog', async () => {
    resetFakeApi({
      adjustments: [
        SETTINGS_ADJUSTMENTS.densityLimiterDisabled,
        SETTINGS_ADJUSTMENTS.improvedWallPressureEnabled,
      ],
    })
    renderForm()
    fireEvent.click(await switchNamed('Multiphase'))
    const dialog = await screen.findByRole('dialog', { name: 'Advanced Settings Were Adjusted' })
    expect(within(dialog).getByText('Disabled density limiter')).toBeTruthy()
    expect(within(dialog).getByText('Enabled improved wall pressure treatment')).toBeTruthy()
    expect(edits()[0]).toMatchObject({ method: 'PUT', body: { multiphase: true } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('shows no dialog when a switch adjusted nothing', async () => {
    renderForm()
    fireEvent.click(await switchNamed('Heat transfer (thermodynamics)'))
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(await screen.findByLabelText('Ambient temperature')).toBeTruthy()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('keeps multiphase off while air drag is on, saying why', async () => {
    resetFakeApi({ settings: { ...defaultSettings(), airDrag: true } })
    renderForm()
    expect((await switchNamed('Multiphase')).disabled).toBe(true)
    expect(screen.getByText('Multiphase cannot be used in combination with air drag.')).toBeTruthy()
  })

  it('disables air drag while multiphase is on', async () => {
    resetFakeApi({ settings: { ...defaultSettings(), multiphase: true } })
    renderForm()
    expect((await switchNamed('Air drag')).disabled).toBe(true)
  })

  it('shows sigma out of range with the rule message', async () => {
    resetFakeApi({ settings: { ...defaultSettings(), surfaceTension: true, sigma: 0.072 } })
    renderForm()
    typeAndCommit(await screen.findByLabelText('Sigma'), '20')
    expect(await screen.findByText('Sigma must be at most 10.')).toBeTruthy()
  })

  it('rolls back a refused switch with the failure toast', async () => {
    const store = renderForm()
    api.refuse = {
      match: 'PUT /api/simulations/4/settings',
      errors: [{ path: 'settings.rotatingSystem', message: 'Rotating systems are not available.' }],
    }
    fireEvent.click(await switchNamed('Rotating system'))
    expect(await screen.findByText('Rotating systems are not available.')).toBeTruthy()
    await waitFor(async () => expect((await switchNamed('Rotating system')).checked).toBe(false))
    expect(toastTitles(store)).toContain('Updating settings failed')
  })

  it('asks for a non-zero rotation axis', async () => {
    resetFakeApi({
      settings: {
        ...defaultSettings(),
        rotatingSystem: true,
        rotationVelocity: 1,
        rotationAxis: [0, 0, 0],
        rotationCenter: [0, 0, 0],
      },
    })
    renderForm()
    expect(await screen.findByText('Rotation axis length cannot be equal to 0')).toBeTruthy()
  })
})
