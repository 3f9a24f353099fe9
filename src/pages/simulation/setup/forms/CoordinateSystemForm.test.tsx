import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Engine } from '../../../../../engine/client.ts'
import type { RenderIntent } from '../../../../../engine/protocol.ts'
import { tokenStore } from '../../../../api/index.ts'
import { coordinateSystemAtom, viewportEngineAtom } from '../../../../state/viewportAtoms.ts'
import { CoordinateSystemForm, upFromGravity } from './CoordinateSystemForm.tsx'
import { SIMULATION, edits, renderWithSetup, resetFakeApi } from './testing/formHarness.tsx'

let intents: RenderIntent[] = []

function renderForm(withEngine: boolean) {
  const store = createStore()
  intents = []
  if (withEngine)
    store.set(viewportEngineAtom, {
      dispatch: (intent: RenderIntent) => intents.push(intent),
    } as unknown as Engine)
  renderWithSetup(
    <CoordinateSystemForm simulation={SIMULATION} form={{ kind: 'coordinateSystem' }} />,
    { store },
  )
  return store
}

beforeEach(() => resetFakeApi())
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  tokenStore.clear()
})

describe('CoordinateSystemForm', () => {
  it('hides and shows the origin axes of the view', () => {
    const store = renderForm(true)
    fireEvent.click(screen.getByRole('switch', { name: 'Show origin axes' }))
    expect(store.get(coordinateSystemAtom)).toBe(false)
    expect(intents).toContainEqual({ type: 'set_coordinate_system', visible: false })
  })

  it('turns the view to look along an axis', () => {
    renderForm(true)
    fireEvent.click(screen.getByRole('button', { name: 'View from +Z (Top)' }))
    expect(intents).toContainEqual({
      type: 'view_orientation',
      direction: [-0, -0, -1],
      up: [0, 1, 0],
    })
  })

  it('disables the view buttons while no view runs', () => {
    renderForm(false)
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Fit view' }).disabled).toBe(true)
  })

  it('says which way is up from gravity and saves a changed gravity', async () => {
    renderForm(false)
    expect(await screen.findByText('Up is +Z: gravity (0, 0, -9.81) m/s².')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Gravity z (m/s²)'), { target: { value: '-1.62' } })
    fireEvent.keyDown(screen.getByLabelText('Gravity z (m/s²)'), { key: 'Enter' })
    await waitFor(() => expect(edits()[0]?.body).toEqual({ gravity: [0, 0, -1.62] }))
  })

  it('names up only when gravity lies along one axis', () => {
    expect(upFromGravity([0, 9.81, 0])).toBe('−Y')
    expect(upFromGravity([1, 0, -9.81])).toBeNull()
  })
})

describe('CoordinateSystemForm of a locked setup', () => {
  it('still shows and hides the origin axes, but keeps gravity locked', () => {
    const store = createStore()
    renderWithSetup(
      <CoordinateSystemForm simulation={SIMULATION} form={{ kind: 'coordinateSystem' }} />,
      { store, editable: { editable: false, reason: 'Locked.' } },
    )
    fireEvent.click(screen.getByRole('switch', { name: 'Show origin axes' }))
    expect(store.get(coordinateSystemAtom)).toBe(false)
    expect(screen.getByLabelText<HTMLInputElement>('Gravity z (m/s²)').disabled).toBe(true)
  })
})
