import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { Provider as JotaiProvider } from 'jotai'
import { afterEach, describe, expect, it } from 'vitest'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import { datasetAtom, detailLevelAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { makeSnapshot, storeWithEngine } from '../layout/testEngine.ts'
import { DatasetChip, OutputLoadingChip, OutputsChip, detailLevelLabel } from './OutputSettings.tsx'

const LIST: OutputManifestList = {
  simulationId: 5,
  runId: 3,
  outputs: [0, 1, 2].map((outputNo) => ({
    formatVersion: '1.0',
    simulationId: 5,
    runId: 3,
    outputNo,
    timeS: outputNo * 0.05,
    objects: [
      {
        objectId: 'fluid-0',
        kind: 'fluid' as const,
        name: 'Water',
        sourceId: 0,
        columns: [],
        particleCount: { full: 200_000, fast: 100_000 },
        triangleCount: 0,
        sizeBytes: { full: 1, fast: 1 },
      },
    ],
  })),
}

afterEach(cleanup)

function renderChips(harness = storeWithEngine()) {
  render(
    <JotaiProvider store={harness.store}>
      <DatasetChip list={LIST} />
      <OutputsChip list={LIST} />
      <OutputLoadingChip list={LIST} />
    </JotaiProvider>,
  )
  return harness
}

describe('output settings', () => {
  it('names the detail levels with their share of the points', () => {
    expect(
      ['Low', 'Medium', 'High', 'All'].map((level) => detailLevelLabel(level as 'Low')),
    ).toEqual(['Low (10 %)', 'Medium (50 %)', 'High (100 %)', 'All'])
  })

  it('sets the detail level and the dataset from the dataset chip', () => {
    const harness = renderChips()
    // Named by what it shows (issue 23): the name holds the label and the current value.
    const chip = screen.getByRole('button', { name: /^Dataset/ })
    expect(chip.textContent).toContain('Full · High')
    expect(chip.getAttribute('aria-label')).toBeNull()
    fireEvent.click(chip)
    const panel = screen.getByRole('dialog', { name: 'Dataset' })
    fireEvent.click(within(panel).getByLabelText('Low (10 %)'))
    expect(harness.store.get(detailLevelAtom)).toBe('Low')
    fireEvent.click(within(panel).getByRole('radio', { name: /^Fast/ }))
    expect(harness.store.get(datasetAtom)).toBe('fast')
    expect(within(panel).getByText(/100,000 particles/)).toBeTruthy()
    expect(chip.textContent).toContain('Fast · Low')
    fireEvent.keyDown(document, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('lists the outputs with which is shown, in memory and loading, and shows the one picked', () => {
    const harness = storeWithEngine(
      makeSnapshot({ shownOutput: 0, loadedOutputs: [0, 1], loadingOutputs: [2] }),
    )
    renderChips(harness)
    fireEvent.click(screen.getByRole('button', { name: /^Outputs/ }))
    const items = within(screen.getByRole('list', { name: 'Outputs of the run' })).getAllByRole(
      'button',
    )
    expect(items.map((item) => item.textContent)).toEqual([
      'Output 00 sshown',
      'Output 10.05 sin memory',
      'Output 20.1 sloading',
    ])
    fireEvent.click(items[2]!)
    expect(harness.ofType('show_output')).toEqual([{ type: 'show_output', outputNo: 2 }])
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('says what is loading and how many outputs are loaded, or that loading failed', () => {
    const harness = storeWithEngine(makeSnapshot({ loadedOutputs: [0], loadingOutputs: [1] }))
    renderChips(harness)
    const chip = screen.getByTestId('output-loading-chip')
    expect(chip.textContent).toBe('Loading output 1 · 1 of 3 loaded')
    act(() => harness.setSnapshot({ loadedOutputs: [0, 1], loadingOutputs: [] }))
    expect(chip.textContent).toBe('2 of 3 outputs loaded')
    act(() => harness.setSnapshot({ loadingOutputs: [1, 2], loadedOutputs: [0] }))
    expect(chip.textContent).toBe('Loading 2 outputs · 1 of 3 loaded')
    const error = 'Output 2 could not be loaded. The bundle is truncated.'
    act(() => harness.setSnapshot({ error }))
    expect(chip.textContent).toBe('Loading failed')
    expect(chip.getAttribute('title')).toBe(error)
    act(() =>
      harness.store.set(viewportStateAtom, {
        status: 'starting',
        snapshot: null,
        failure: null,
        dataWorkerCount: 0,
      }),
    )
    expect(chip.textContent).toBe('Starting…')
  })
})
