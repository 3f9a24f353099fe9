import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SETUP_MESSAGES } from '../../../../../domain/setupMessages.ts'
import { clipAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import {
  setupObjectDialogAtom,
  setupSelectionAtom,
  setupToolAtom,
  sideFormAtom,
} from '../state/setupAtoms.ts'
import { setupViewActions } from './setupEvents.ts'
import { SetupSceneSync } from './SetupSceneSync.tsx'
import {
  FakeEngine,
  createSetupServer,
  makePart,
  makePointSensor,
  makeSimulation,
  makeSnapshot,
  renderSetup,
} from './setupTestKit.tsx'
import { SetupViewOverlay } from './SetupViewport.tsx'

let server: ReturnType<typeof createSetupServer>

beforeEach(() => {
  server = createSetupServer({
    parts: [
      makePart(12, 'Tank', 'rigid', { meshUrl: '/api/parts/12/mesh?v=a', meshHash: 'a' }),
      makePart(13, 'Water', 'filling'),
    ],
    sensors: [makePointSensor(3, 'Probe')],
    calcDomain: { active: true, min: [-1, -1, -1], max: [2, 2, 2], issues: [] },
  })
  server.install()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function renderSync(options: { editable?: boolean } = {}) {
  const engine = new FakeEngine()
  const view = renderSetup(<SetupSceneSync simulation={makeSimulation()} />, {
    engine,
    editable:
      options.editable === false
        ? { editable: false, reason: SETUP_MESSAGES.lockedHint }
        : undefined,
  })
  return { ...view, engine }
}

/** The ids of the latest posted objects. */
const postedIds = (engine: FakeEngine) => engine.last('setup_objects')?.objects.map((o) => o.id)
const tankOf = (engine: FakeEngine) =>
  engine.last('setup_objects')?.objects.find((o) => o.id === 'part:12')

describe('setup scene intents', () => {
  it('chooses the setup scene, then posts every object with the end time', async () => {
    const { engine } = renderSync()
    expect(engine.intents[0]).toEqual({ type: 'set_scene', scene: 'setup' })
    await waitFor(() =>
      expect(postedIds(engine)).toEqual(['part:12', 'part:13', 'sensor:3', 'calc_domain']),
    )
    expect(engine.last('setup_objects')?.endTimeS).toBe(1)
    expect(tankOf(engine)?.geometry).toEqual({
      type: 'mesh',
      url: '/api/parts/12/mesh?v=a',
      hash: 'a',
    })
  })

  it('posts the selection, the tool and the clipping plane when they change', () => {
    const { engine, store } = renderSync()
    expect(engine.last('setup_selection')).toEqual({ type: 'setup_selection', ids: [] })
    expect(engine.last('setup_tool')).toEqual({ type: 'setup_tool', tool: 'select' })
    act(() => store.set(setupSelectionAtom, ['part:12', 'sensor:3']))
    expect(engine.last('setup_selection')?.ids).toEqual(['part:12', 'sensor:3'])
    act(() => store.set(setupToolAtom, 'rotate'))
    expect(engine.last('setup_tool')?.tool).toBe('rotate')
    act(() => store.set(clipAtom, { enabled: true, axis: 'y', flipped: false, offsetM: 0.5 }))
    expect(engine.last('set_clip')?.clip).toEqual({
      enabled: true,
      axis: 'y',
      flipped: false,
      offsetM: 0.5,
    })
  })

  it('stops listening to the view when it goes', () => {
    const { engine, unmount } = renderSync()
    expect(engine.setupListenerCount()).toBe(1)
    unmount()
    expect(engine.setupListenerCount()).toBe(0)
  })
})

describe('what a person does in the view', () => {
  it('selects on click, toggles with a modifier, clears on empty space', async () => {
    const { engine, store } = renderSync()
    await waitFor(() => expect(postedIds(engine)).toHaveLength(4))
    act(() => engine.emit({ type: 'click', id: 'part:12', additive: false }))
    expect(store.get(setupSelectionAtom)).toEqual(['part:12'])
    act(() => engine.emit({ type: 'click', id: 'sensor:3', additive: true }))
    expect(store.get(setupSelectionAtom)).toEqual(['part:12', 'sensor:3'])
    act(() => engine.emit({ type: 'click', id: 'part:12', additive: true }))
    expect(store.get(setupSelectionAtom)).toEqual(['sensor:3'])
    act(() => engine.emit({ type: 'click', id: null, additive: true }))
    expect(store.get(setupSelectionAtom)).toEqual(['sensor:3'])
    act(() => engine.emit({ type: 'click', id: null, additive: false }))
    expect(store.get(setupSelectionAtom)).toEqual([])
  })

  it("opens the form of what is double-clicked: a part's at Geometry, a sensor's dialog", async () => {
    const { engine, store } = renderSync()
    await waitFor(() => expect(postedIds(engine)).toHaveLength(4))
    act(() => engine.emit({ type: 'double_click', id: 'part:13' }))
    expect(store.get(setupSelectionAtom)).toEqual(['part:13'])
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'geometry' })
    act(() => engine.emit({ type: 'double_click', id: 'calc_domain' }))
    expect(store.get(sideFormAtom)).toEqual({ kind: 'calcDomain' })
    act(() => engine.emit({ type: 'double_click', id: 'sensor:3' }))
    expect(store.get(setupObjectDialogAtom)).toEqual({ kind: 'sensor', sensorId: 3 })
  })

  it("saves a finished gizmo drag as the part's translation and rotation", async () => {
    const { engine } = renderSync()
    await waitFor(() => expect(postedIds(engine)).toHaveLength(4))
    act(() =>
      engine.emit({
        type: 'transform',
        id: 'part:12',
        translation: [0.5, 0, 0.25],
        rotationDeg: [0, 0, 45],
      }),
    )
    await waitFor(() =>
      expect(server.seen('PUT', '/api/parts/12').map((r) => r.body)).toEqual([
        { shape: { type: 'stl_cube', translation: [0.5, 0, 0.25], rotation: [0, 0, 45] } },
      ]),
    )
    await waitFor(() =>
      expect(tankOf(engine)?.transform).toEqual({
        translation: [0.5, 0, 0.25],
        rotationDeg: [0, 0, 45],
        scale: [1, 1, 1],
      }),
    )
  })

  it("says 'Could not update geometry: …' when a drag is refused and puts the part back", async () => {
    server.refuse('PUT', '/api/parts/12', 'The part is outside the domain.')
    const { engine } = renderSync()
    await waitFor(() => expect(postedIds(engine)).toHaveLength(4))
    const postsBefore = engine.ofType('setup_objects').length
    act(() =>
      engine.emit({
        type: 'transform',
        id: 'part:12',
        translation: [9, 9, 9],
        rotationDeg: [0, 0, 0],
      }),
    )
    expect(
      await screen.findByText('Could not update geometry: The part is outside the domain.'),
    ).toBeTruthy()
    expect(screen.queryByText('Updating part failed')).toBeNull()
    await waitFor(() => expect(engine.ofType('setup_objects').length).toBeGreaterThan(postsBefore))
    expect(tankOf(engine)?.transform.translation).toEqual([0, 0, 0])
  })

  it('saves a moved seed point; a refusal is only logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const { engine } = renderSync()
    await waitFor(() => expect(postedIds(engine)).toHaveLength(4))
    act(() => engine.emit({ type: 'seed_point', id: 'part:13', position: [0.1, 0.2, 0.3] }))
    await waitFor(() =>
      expect(server.seen('PUT', '/api/parts/13').map((r) => r.body)).toEqual([
        { seedPoint: [0.1, 0.2, 0.3] },
      ]),
    )
    server.refuse('PUT', '/api/parts/13', 'No.')
    act(() => engine.emit({ type: 'seed_point', id: 'part:13', position: [0.4, 0.4, 0.4] }))
    await waitFor(() => expect(warn).toHaveBeenCalled())
    expect(screen.queryByRole('status')).toBeNull()
    expect(document.querySelector('.toast')).toBeNull()
  })

  it('saves nothing dragged in a locked setup, and posts the objects back', async () => {
    const { engine } = renderSync({ editable: false })
    await waitFor(() => expect(postedIds(engine)).toHaveLength(4))
    expect(tankOf(engine)?.editable).toBe(false)
    const postsBefore = engine.ofType('setup_objects').length
    act(() =>
      engine.emit({
        type: 'transform',
        id: 'part:12',
        translation: [1, 1, 1],
        rotationDeg: [0, 0, 0],
      }),
    )
    expect(engine.ofType('setup_objects').length).toBe(postsBefore + 1)
    expect(server.seen('PUT', '/api/parts/12')).toHaveLength(0)
  })

  it('logs each geometry the engine could not load, once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const { store } = renderSync()
    const failing = makeSnapshot({
      failed: [{ id: 'part:12', message: 'The mesh was not found.' }],
    })
    act(() =>
      store.set(viewportStateAtom, {
        status: 'ready',
        snapshot: failing,
        failure: null,
        dataWorkerCount: 1,
      }),
    )
    act(() =>
      store.set(viewportStateAtom, {
        status: 'ready',
        snapshot: { ...failing, fps: 20 },
        failure: null,
        dataWorkerCount: 1,
      }),
    )
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toContain('The mesh was not found.')
  })
})

describe('setup view actions', () => {
  it('ignores drags of parts that are gone', () => {
    expect(
      setupViewActions(
        { type: 'transform', id: 'part:99', translation: [0, 0, 0], rotationDeg: [0, 0, 0] },
        [],
        [makePart(1, 'Tank', 'rigid')],
      ),
    ).toEqual([])
    expect(
      setupViewActions({ type: 'seed_point', id: 'sensor:1', position: [0, 0, 0] }, [], []),
    ).toEqual([])
  })
})

describe('setup view overlay', () => {
  it("shows the view's message", () => {
    renderSetup(<SetupViewOverlay />, { snapshot: makeSnapshot({ message: 'Initializing...' }) })
    expect(screen.getByRole('status').textContent).toBe('Initializing...')
  })

  it("shows 'Deletion Boundary' at the pointer while it is over the calculation domain box", () => {
    const { store } = renderSetup(
      <div data-testid="view">
        <SetupViewOverlay />
      </div>,
      { snapshot: makeSnapshot({ initialized: true, message: 'Successfully initialized.' }) },
    )
    const view = screen.getByTestId('view')
    fireEvent.pointerMove(view, { clientX: 40, clientY: 30 })
    expect(screen.queryByRole('tooltip')).toBeNull()
    act(() =>
      store.set(viewportStateAtom, {
        status: 'ready',
        snapshot: makeSnapshot({ hovered: 'calc_domain' }),
        failure: null,
        dataWorkerCount: 1,
      }),
    )
    fireEvent.pointerMove(view, { clientX: 50, clientY: 60 })
    expect(screen.getByRole('tooltip').textContent).toBe(SETUP_MESSAGES.deletionBoundaryTooltip)
    act(() =>
      store.set(viewportStateAtom, {
        status: 'ready',
        snapshot: makeSnapshot({ hovered: 'part:12' }),
        failure: null,
        dataWorkerCount: 1,
      }),
    )
    expect(screen.queryByRole('tooltip')).toBeNull()
  })
})
