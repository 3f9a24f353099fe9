import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { Provider as JotaiProvider } from 'jotai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PLAYBACK } from '../../../../../domain/constants.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import { playbackSpeedAtom } from '../../../../state/viewportAtoms.ts'
import { storeWithEngine } from '../layout/testEngine.ts'
import { Timeline } from './Timeline.tsx'

const LIST: OutputManifestList = {
  simulationId: 5,
  runId: 3,
  outputs: [0, 1, 2, 3].map((outputNo) => ({
    formatVersion: '1.0',
    simulationId: 5,
    runId: 3,
    outputNo,
    timeS: outputNo / 3,
    objects: [],
  })),
}

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

function renderTimeline(harness = storeWithEngine()) {
  render(
    <JotaiProvider store={harness.store}>
      <input aria-label="Some field" />
      <select aria-label="Some select">
        <option>a</option>
      </select>
      <Timeline list={LIST} />
    </JotaiProvider>,
  )
  return harness
}

describe('Timeline', () => {
  it('toggles playback with Space, but not while a field has focus', () => {
    const harness = renderTimeline()
    fireEvent.keyDown(document.body, { code: 'Space', key: ' ' })
    expect(harness.ofType('play')).toEqual([{ type: 'play', speed: 1, loop: true }])
    act(() => harness.setSnapshot({ playing: true }))
    fireEvent.keyDown(document.body, { code: 'Space', key: ' ' })
    expect(harness.ofType('pause')).toHaveLength(1)
    fireEvent.keyDown(screen.getByLabelText('Some field'), { code: 'Space', key: ' ' })
    fireEvent.keyDown(screen.getByLabelText('Some select'), { code: 'Space', key: ' ' })
    expect(harness.ofType('pause')).toHaveLength(1)
    expect(harness.ofType('play')).toHaveLength(1)
    // A held key repeats: one toggle only.
    fireEvent.keyDown(document.body, { code: 'Space', key: ' ', repeat: true })
    expect(harness.ofType('pause')).toHaveLength(1)
  })

  it('steps the speed in powers of two and stops at the bounds', () => {
    const harness = renderTimeline()
    fireEvent.click(screen.getByRole('button', { name: 'Slower' }))
    expect(harness.ofType('set_speed').at(-1)).toEqual({ type: 'set_speed', speed: 0.5 })
    expect(screen.getByLabelText('Speed').textContent).toBe('0.5×')
    act(() => harness.store.set(playbackSpeedAtom, PLAYBACK.maxSpeed))
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Faster' }).disabled).toBe(true)
    expect(screen.getByLabelText('Speed').textContent).toBe('2048×')
    act(() => harness.store.set(playbackSpeedAtom, PLAYBACK.minSpeed))
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Slower' }).disabled).toBe(true)
    expect(screen.getByLabelText('Speed').textContent).toBe('0.0009766×')
  })

  it('loops by default; turning looping off while playing restarts playback without it', () => {
    const harness = renderTimeline()
    const loop = screen.getByRole('button', { name: 'Loop' })
    expect(loop.getAttribute('aria-pressed')).toBe('true')
    act(() => harness.setSnapshot({ playing: true }))
    fireEvent.click(loop)
    expect(loop.getAttribute('aria-pressed')).toBe('false')
    expect(harness.ofType('play').at(-1)).toEqual({ type: 'play', speed: 1, loop: false })
  })

  it('labels the shown output with its time to 4 significant digits', () => {
    const harness = renderTimeline()
    act(() => harness.setSnapshot({ shownOutput: 2 }))
    expect(screen.getByTestId('timeline-label').textContent).toBe('Output 2 · 0.6667 s')
    expect(screen.getByLabelText<HTMLInputElement>('Output').value).toBe('2')
  })

  it('seeks with the slider at most every 120 ms, ending on the output let go of', () => {
    vi.useFakeTimers()
    const harness = renderTimeline()
    const slider = screen.getByLabelText('Output')
    fireEvent.change(slider, { target: { value: '1' } })
    fireEvent.change(slider, { target: { value: '2' } })
    fireEvent.change(slider, { target: { value: '3' } })
    expect(harness.ofType('show_output')).toEqual([{ type: 'show_output', outputNo: 1 }])
    act(() => {
      vi.advanceTimersByTime(120)
    })
    expect(harness.ofType('show_output').at(-1)).toEqual({ type: 'show_output', outputNo: 3 })
    expect(harness.ofType('show_output')).toHaveLength(2)
  })

  it('plays from the output just sought, not from the one before it (issue 14)', () => {
    vi.useFakeTimers()
    const harness = renderTimeline()
    const slider = screen.getByLabelText('Output')
    fireEvent.change(slider, { target: { value: '1' } })
    fireEvent.change(slider, { target: { value: '2' } })
    // Play within the 120 ms: the seek to 2 is still waiting.
    fireEvent.click(screen.getByRole('button', { name: 'Play' }))
    const order = harness.intents
      .filter((intent) => intent.type === 'show_output' || intent.type === 'play')
      .map((intent) => (intent.type === 'show_output' ? `show ${intent.outputNo}` : 'play'))
    expect(order).toEqual(['show 1', 'show 2', 'play'])
    act(() => {
      vi.advanceTimersByTime(500)
    })
    // Nothing moves the playback afterwards.
    expect(harness.ofType('show_output')).toHaveLength(2)
  })
})
