import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { keyframeWarning, type Movement } from '../../../../../domain/movements.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { defaultSettings } from '../../../../../domain/settings.ts'
import type { SetupSnapshot } from '../../../../../engine/setupProtocol.ts'
import { storeWithEngine } from '../../results/layout/testEngine.ts'
import { MovementTimeline } from './MovementTimeline.tsx'
import { renderSetup, stubApi } from './testHarness.tsx'

const SIMULATION = { id: 5 } as Simulation

const spin: Movement = {
  id: 3,
  partId: 12,
  type: 'rotatory',
  name: 'rotation 1',
  start: 0,
  end: null,
  acc: 0,
  vel: 1,
  virtualMovement: false,
  axis: [0, 0, 1],
  center: null,
  parents: [],
  followers: [],
}

function setupSnapshot(patch: Partial<SetupSnapshot> = {}): SetupSnapshot {
  return {
    initialized: true,
    message: 'Successfully initialized.',
    hovered: null,
    loading: [],
    failed: [],
    tool: 'select',
    dragging: false,
    timeS: 0,
    endTimeS: 2,
    playing: false,
    speed: 1,
    loop: false,
    keyframeWarnings: [],
    pointcloudCounts: {},
    ...patch,
  }
}

let movements: Movement[]

beforeEach(() => {
  movements = [spin]
  stubApi({
    'GET /api/simulations/5/movements': () => [200, movements],
    'GET /api/simulations/5/settings': [
      200,
      { settings: { ...defaultSettings(), endTime: 2 }, issues: [], adjustments: [] },
    ],
  })
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderTimeline(setup: Partial<SetupSnapshot> = {}) {
  const harness = storeWithEngine()
  harness.setSnapshot({ setup: setupSnapshot(setup) })
  renderSetup(<MovementTimeline simulation={SIMULATION} />, harness.store)
  const setSetup = (patch: Partial<SetupSnapshot>) =>
    act(() => harness.setSnapshot({ setup: setupSnapshot(patch) }))
  return { ...harness, setSetup }
}

describe('MovementTimeline', () => {
  it('is hidden while nothing moves (virtual movements only move a wall condition)', async () => {
    movements = [{ ...spin, virtualMovement: true }]
    const { container } = renderSetup(
      <MovementTimeline simulation={SIMULATION} />,
      storeWithEngine().store,
    )
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled())
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(container.querySelector('[role="group"]')).toBeNull()
  })

  it('plays, pauses, loops and changes speed through setup intents', async () => {
    const harness = renderTimeline()
    const play = await screen.findByRole('button', { name: 'Play movements' })
    fireEvent.click(play)
    expect(harness.ofType('setup_play')).toEqual([{ type: 'setup_play', speed: 1, loop: false }])

    harness.setSetup({ playing: true, timeS: 0.5 })
    expect(screen.getByTestId('movement-time').textContent).toBe('0.5 s / 2 s')
    fireEvent.click(screen.getByRole('button', { name: 'Loop' }))
    expect(harness.ofType('setup_play').at(-1)).toEqual({
      type: 'setup_play',
      speed: 1,
      loop: true,
    })
    fireEvent.change(screen.getByLabelText('Speed'), { target: { value: '2' } })
    expect(harness.ofType('setup_speed')).toEqual([{ type: 'setup_speed', speed: 2 }])
    fireEvent.click(screen.getByRole('button', { name: 'Pause movements' }))
    expect(harness.ofType('setup_pause')).toHaveLength(1)
  })

  it('seeks with the slider over [0, end time]', async () => {
    const harness = renderTimeline()
    const slider = await screen.findByLabelText<HTMLInputElement>('Time')
    expect(slider.max).toBe('2')
    fireEvent.change(slider, { target: { value: '1.2' } })
    expect(harness.ofType('setup_seek')).toEqual([{ type: 'setup_seek', timeS: 1.2 }])
  })

  it('toggles playback with Space unless a field has focus', async () => {
    const harness = renderTimeline()
    await screen.findByRole('button', { name: 'Play movements' })
    fireEvent.keyDown(window, { key: ' ', code: 'Space' })
    expect(harness.ofType('setup_play')).toHaveLength(1)
    const input = document.createElement('input')
    document.body.append(input)
    fireEvent.keyDown(input, { key: ' ', code: 'Space' })
    expect(harness.ofType('setup_play')).toHaveLength(1)
    input.remove()
  })

  it('reports loading tracks and warns once per part with 5000 keyframes', async () => {
    const harness = renderTimeline({ loading: ['part:12'] })
    expect(await screen.findByText('Loading movements 0/1...')).toBeTruthy()
    harness.setSetup({ keyframeWarnings: ['Paddle'] })
    expect(await screen.findByText('Successfully loaded all movements')).toBeTruthy()
    expect(screen.getByText(keyframeWarning('Paddle'))).toBeTruthy()
    harness.setSetup({ keyframeWarnings: ['Paddle'], timeS: 1 })
    expect(screen.getAllByText(keyframeWarning('Paddle'))).toHaveLength(1)
  })
})
