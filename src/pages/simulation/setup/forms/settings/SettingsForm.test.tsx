import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defaultSettings } from '../../../../../../domain/settings.ts'
import { tokenStore } from '../../../../../api/index.ts'
import {
  SIMULATION,
  api,
  edits,
  numberInput,
  renderWithSetup,
  resetFakeApi,
  toastTitles,
  typeAndCommit,
} from '../testing/formHarness.tsx'
import { SettingsForm } from './SettingsForm.tsx'

const renderForm = () =>
  renderWithSetup(<SettingsForm simulation={SIMULATION} form={{ kind: 'settings' }} />)

beforeEach(() => resetFakeApi())
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

describe('SettingsForm', () => {
  it('shows the stored numbers as people write them, with their units', async () => {
    resetFakeApi({
      settings: { ...defaultSettings(), outputTimeInterval: 0.1 + 0.2, endTime: 3 },
    })
    renderForm()
    expect((await screen.findByLabelText('Output interval')).getAttribute('value')).toBe('0.3')
    expect(numberInput('Output count').value).toBe('10')
    expect(numberInput('Density threshold').value).toBe('30')
    expect(screen.getAllByText('m/s²')).toHaveLength(1)
  })

  it('refuses an output count out of bounds with the spec message and saves nothing', async () => {
    renderForm()
    typeAndCommit(await screen.findByLabelText('Output count'), '20000')
    expect(
      await screen.findByText('Total output number must be less than 10000. Now is 20000.'),
    ).toBeTruthy()
    expect(edits()).toEqual([])
  })

  it('sets the output interval from a valid count', async () => {
    renderForm()
    typeAndCommit(await screen.findByLabelText('Output count'), '100')
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]).toMatchObject({
      method: 'PUT',
      path: '/api/simulations/4/settings',
      body: { outputTimeInterval: 0.01 },
    })
  })

  it('asks for an end time before the output count can be set', async () => {
    resetFakeApi({ settings: { ...defaultSettings(), endTime: null } })
    renderForm()
    expect(await screen.findByText('Set an end time first')).toBeTruthy()
    expect(numberInput('Output count').disabled).toBe(true)
  })

  it('stores the density threshold typed in percent as a fraction', async () => {
    renderForm()
    typeAndCommit(await screen.findByLabelText('Density threshold'), '45')
    await waitFor(() => expect(edits()[0]?.body).toEqual({ densityThreshold: 0.45 }))
  })

  it('shows a gravity component out of range with the rule message', async () => {
    renderForm()
    typeAndCommit(await screen.findByLabelText('Gravity z (m/s²)'), '-2000')
    expect(await screen.findByText('Gravity must be at least -1000.')).toBeTruthy()
  })

  it('rolls a refused edit back, with the failure toast and the field error on the field', async () => {
    const store = renderForm()
    api.refuse = {
      match: 'PUT /api/simulations/4/settings',
      errors: [{ path: 'settings.endTime', message: 'End time is too long for this account.' }],
    }
    const endTime = await screen.findByLabelText('End time')
    typeAndCommit(endTime, '90000')
    expect(await screen.findByText('End time is too long for this account.')).toBeTruthy()
    await waitFor(() => expect(numberInput('End time').value).toBe('1'))
    expect(toastTitles(store)).toContain('Updating settings failed')
  })

  it('locks the switches multiphase sets', async () => {
    resetFakeApi({ settings: { ...defaultSettings(), multiphase: true, densityLimiter: false } })
    renderForm()
    const limiter = await screen.findByRole<HTMLInputElement>('switch', { name: 'Density limiter' })
    expect(limiter.disabled).toBe(true)
    expect(
      screen.getByRole<HTMLInputElement>('switch', { name: 'Improved wall pressure' }).disabled,
    ).toBe(true)
  })

  it('refuses an acceleration file that is not a csv', async () => {
    renderForm()
    const input = await screen.findByLabelText('Acceleration file')
    fireEvent.change(input, { target: { files: [new File(['a'], 'motion.txt')] } })
    expect(await screen.findByText('Acceleration file must be a .csv file.')).toBeTruthy()
    expect(edits()).toEqual([])
  })
})

describe('SettingsForm of a locked setup', () => {
  it('disables its fields with the locked hint', async () => {
    renderWithSetup(<SettingsForm simulation={SIMULATION} form={{ kind: 'settings' }} />, {
      editable: { editable: false, reason: 'Click "Edit Setup" to edit this field.' },
    })
    expect((await screen.findByLabelText<HTMLInputElement>('End time')).disabled).toBe(true)
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Density limiter' }).disabled).toBe(
      true,
    )
  })
})
