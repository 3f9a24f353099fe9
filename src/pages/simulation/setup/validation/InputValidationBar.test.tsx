import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { EMPTY_SETUP_MESSAGE } from '../../../../../domain/setupValidation.ts'
import { issue } from '../../../../../domain/validation.ts'
import { setupSelectionAtom, sideFormAtom } from '../state/setupAtoms.ts'
import {
  FakeEngine,
  createSetupServer,
  makePart,
  makeMovement,
  makeSimulation,
  renderSetup,
} from '../viewport/setupTestKit.tsx'
import { InputValidationBar } from './InputValidationBar.tsx'

let server: ReturnType<typeof createSetupServer>

beforeEach(() => {
  server = createSetupServer({
    parts: [makePart(12, 'Water', 'filling')],
    issues: [
      issue('warning', 'settings.calcDomainActive', 'Add a deletion boundary to save on cost.'),
      issue('info', 'parts.12.component.height', 'Height is required'),
      issue('error', 'materials.0.density', 'Density must be at most 20000.'),
      issue('error', 'movements.3.start', 'Start must be smaller than End.'),
    ],
    movements: [],
  })
  server.install()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderBar() {
  const engine = new FakeEngine()
  return { ...renderSetup(<InputValidationBar simulation={makeSimulation()} />, { engine }), engine }
}

const counts = () =>
  within(screen.getByRole('list', { name: 'Issue counts' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent)

describe('Input Validation bar', () => {
  it('counts errors, warnings and missing inputs', async () => {
    renderBar()
    await waitFor(() => expect(counts()).toEqual(['2 errors', '1 warning', '1 missing input']))
  })

  it('lists the issues worst first when expanded', async () => {
    renderBar()
    const toggle = await screen.findByRole('button', { name: 'Show issues (4)' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(toggle)
    expect(screen.getByRole('button', { name: 'Hide issues' }).getAttribute('aria-expanded')).toBe(
      'true',
    )
    const items = within(screen.getByRole('list', { name: 'Issues' })).getAllByRole('listitem')
    expect(items.map((li) => li.textContent)).toEqual([
      'Error: Density must be at most 20000.',
      'Error: Start must be smaller than End.',
      'Warning: Add a deletion boundary to save on cost.',
      'Missing input: Height is required',
    ])
  })

  it('selects the part of an item and opens the folder of its field', async () => {
    const { store, engine } = renderBar()
    fireEvent.click(await screen.findByRole('button', { name: 'Show issues (4)' }))
    fireEvent.click(screen.getByRole('button', { name: 'Missing input: Height is required' }))
    expect(store.get(setupSelectionAtom)).toEqual(['part:12'])
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'geometry' })
    expect(engine.last('setup_focus')).toEqual({ type: 'setup_focus', id: 'part:12' })

    fireEvent.click(screen.getByRole('button', { name: 'Error: Density must be at most 20000.' }))
    expect(store.get(setupSelectionAtom)).toEqual(['material:0'])
    expect(store.get(sideFormAtom)).toEqual({ kind: 'material', materialId: 0 })

    fireEvent.click(
      screen.getByRole('button', { name: 'Warning: Add a deletion boundary to save on cost.' }),
    )
    expect(store.get(sideFormAtom)).toEqual({ kind: 'calcDomain' })
  })

  it("opens the moving part's motion form for a movement's item", async () => {
    server.state.movements = [makeMovement(3, 12)]
    const { store } = renderBar()
    fireEvent.click(await screen.findByRole('button', { name: 'Show issues (4)' }))
    fireEvent.click(
      await screen.findByRole('button', { name: 'Error: Start must be smaller than End.' }),
    )
    expect(store.get(setupSelectionAtom)).toEqual(['part:12'])
    expect(store.get(sideFormAtom)).toEqual({ kind: 'motion' })
  })

  it('shows the item of a movement that is gone as plain text', async () => {
    server.state.movements = []
    const { store } = renderBar()
    fireEvent.click(await screen.findByRole('button', { name: 'Show issues (4)' }))
    // Movement 3 is unknown: its item leads nowhere and is plain text.
    expect(screen.queryByRole('button', { name: 'Error: Start must be smaller than End.' })).toBeNull()
    expect(screen.getByText('Start must be smaller than End.')).toBeTruthy()
    expect(store.get(sideFormAtom)).toBeNull()
  })

  it("shows 'Add your first object' on an empty scene, not as a line of the list", async () => {
    server.state.parts = []
    server.state.issues = [issue('info', 'parts', EMPTY_SETUP_MESSAGE)]
    renderBar()
    expect(await screen.findByText(EMPTY_SETUP_MESSAGE)).toBeTruthy()
    await waitFor(() => expect(counts()).toEqual(['0 errors', '0 warnings', '1 missing input']))
    expect(screen.queryByRole('button', { name: /Show issues/ })).toBeNull()
  })

  it('says the setup is ready when nothing is wrong', async () => {
    server.state.issues = []
    renderBar()
    expect(await screen.findByText('Ready to discretize')).toBeTruthy()
  })

  it('adds the latest discretization messages on their part', async () => {
    server.state.issues = []
    server.state.discretization = {
      id: 1,
      simulationId: 7,
      state: 'done',
      progress: 1,
      errors: [],
      warnings: [{ description: 'Water made no particles.', partId: 12 }],
      createdAt: '2026-11-26T00:00:00.000Z',
      updatedAt: '2026-11-26T00:00:00.000Z',
      summary: null,
    }
    const { store } = renderBar()
    fireEvent.click(await screen.findByRole('button', { name: 'Show issues (1)' }))
    fireEvent.click(screen.getByRole('button', { name: 'Warning: Water made no particles.' }))
    expect(store.get(setupSelectionAtom)).toEqual(['part:12'])
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'information' })
  })
})
