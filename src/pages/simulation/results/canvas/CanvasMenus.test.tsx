import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { Provider as JotaiProvider, createStore } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import type { Engine } from '../../../../../engine/client.ts'
import type { RenderIntent, RenderSnapshot } from '../../../../../engine/protocol.ts'
import { Toasts } from '../../../../components/Toasts.tsx'
import {
  clipAtom,
  coordinateSystemAtom,
  materialViewsAtom,
  partViewsAtom,
  pointSizeAtom,
  viewportEngineAtom,
  viewportStateAtom,
} from '../../../../state/viewportAtoms.ts'
import { CanvasMenus } from './CanvasMenus.tsx'

const saved = vi.hoisted(() => ({
  calls: [] as { simulationId: number; fileName: string }[],
  fail: false,
}))

vi.mock('./saveImage.ts', () => ({
  savePostImage: (simulationId: number, _png: Blob, fileName: string) => {
    saved.calls.push({ simulationId, fileName })
    return saved.fail
      ? Promise.reject(new Error('503'))
      : Promise.resolve({
          image: { id: 9, name: fileName, contentType: 'image/png', sizeBytes: 3 },
          simulation: { id: simulationId, name: 'Dam break', postImageId: 9 },
        })
  },
}))

const SIMULATION = { id: 5, name: 'Dam break', state: 'completed' } as Simulation

const object = (objectId: string, kind: 'fluid' | 'wall_boundary' | 'open_boundary') => ({
  objectId,
  kind,
  name: objectId,
  sourceId: 0,
  columns: [],
  particleCount: { full: 10, fast: 10 },
  triangleCount: 0,
  sizeBytes: { full: 40, fast: 40 },
})

const LIST: OutputManifestList = {
  simulationId: 5,
  runId: 3,
  outputs: [
    {
      formatVersion: '1.0',
      simulationId: 5,
      runId: 3,
      outputNo: 0,
      timeS: 0,
      objects: [
        object('water', 'fluid'),
        object('oil', 'fluid'),
        object('tank', 'wall_boundary'),
        object('inlet', 'open_boundary'),
      ],
    },
  ],
}

const SNAPSHOT: RenderSnapshot = {
  camera: { position: [2, -2, 2], target: [0, 0, 0], up: [0, 0, 1], mode: 'perspective' },
  fps: 30,
  pointsDrawn: 10,
  trianglesDrawn: 0,
  shownOutput: 4,
  loadedOutputs: [4],
  loadingOutputs: [],
  bytesInFlight: 0,
  dataRange: null,
  colourRange: null,
  playing: false,
  speed: 1,
  scaleBar: { lengthM: 0.5, widthPx: 120 },
  pick: null,
  hover: null,
  error: null,
  colourStatus: null,
  bounds: { min: [0, 0, 0], max: [1.6, 0.6, 0.8] },
}

let intents: RenderIntent[]
let store: ReturnType<typeof createStore>
let queryClient: QueryClient

function renderMenus(snapshot: RenderSnapshot | null = SNAPSHOT, list: OutputManifestList = LIST) {
  intents = []
  store = createStore()
  const engine = {
    dispatch: (intent: RenderIntent) => intents.push(intent),
    saveImage: () => Promise.resolve(new Blob(['png'], { type: 'image/png' })),
  } as unknown as Engine
  store.set(viewportEngineAtom, engine)
  store.set(viewportStateAtom, { status: 'ready', snapshot, failure: null, dataWorkerCount: 1 })
  queryClient = new QueryClient()
  return render(
    <QueryClientProvider client={queryClient}>
      <JotaiProvider store={store}>
        <MemoryRouter>
          <CanvasMenus simulation={SIMULATION} list={list} />
          <Toasts />
        </MemoryRouter>
      </JotaiProvider>
    </QueryClientProvider>,
  )
}

function openMenu(name: string, dialogName: string) {
  fireEvent.click(screen.getByRole('button', { name }))
  return screen.getByRole('dialog', { name: dialogName })
}

const ofType = <T extends RenderIntent['type']>(type: T) =>
  intents.filter((intent): intent is Extract<RenderIntent, { type: T }> => intent.type === type)

beforeEach(() => {
  saved.calls = []
  saved.fail = false
  URL.createObjectURL = vi.fn(() => 'blob:png')
  URL.revokeObjectURL = vi.fn()
})
afterEach(cleanup)

describe('canvas menus', () => {
  it('draws every wall and open boundary in the solid view mode chosen, and hides them', () => {
    renderMenus()
    const dialog = openMenu('Solid view', 'Solid view mode')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Wireframe' }))
    expect(ofType('set_part_view')).toEqual([
      { type: 'set_part_view', objectId: 'tank', mode: 'wireframe', visible: true },
      { type: 'set_part_view', objectId: 'inlet', mode: 'wireframe', visible: true },
    ])
    expect(store.get(partViewsAtom).tank).toEqual({ visible: true, viewMode: 'wireframe' })
    expect(
      within(dialog).getByRole('button', { name: 'Wireframe' }).getAttribute('aria-pressed'),
    ).toBe('true')
    intents = []
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Show walls' }))
    expect(ofType('set_part_view').map((intent) => intent.visible)).toEqual([false, false])
  })

  it('shows mixed part views with no mode pressed (walls translucent, open boundaries surface)', () => {
    renderMenus()
    const dialog = openMenu('Solid view', 'Solid view mode')
    for (const name of ['Surface', 'Wireframe', 'Translucent'])
      expect(within(dialog).getByRole('button', { name }).getAttribute('aria-pressed')).toBe(
        'false',
      )
  })

  it('sets the display mode of every fluid and the point size from the fluid view mode dialog', () => {
    renderMenus()
    expect(ofType('set_point_size')).toEqual([{ type: 'set_point_size', sizePx: 15 }])
    const dialog = openMenu('Fluid view', 'Fluid view mode')
    expect(
      within(dialog).getByRole('button', { name: 'Spheres' }).getAttribute('aria-pressed'),
    ).toBe('true')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Outlined circles' }))
    expect(ofType('set_material_display')).toEqual([
      {
        type: 'set_material_display',
        objectId: 'water',
        mode: 'particles_outlined_circles',
        visible: true,
      },
      {
        type: 'set_material_display',
        objectId: 'oil',
        mode: 'particles_outlined_circles',
        visible: true,
      },
    ])
    expect(store.get(materialViewsAtom).oil?.displayMode).toBe('particles_outlined_circles')
    fireEvent.change(within(dialog).getByLabelText('Point size (px)'), { target: { value: '6' } })
    expect(store.get(pointSizeAtom)).toBe(6)
    expect(ofType('set_point_size').at(-1)).toEqual({ type: 'set_point_size', sizePx: 6 })
    fireEvent.change(within(dialog).getByLabelText('Point size (px)'), { target: { value: '0' } })
    expect(within(dialog).getByRole('alert').textContent).toContain(
      'Point size must be between 1 and 64 px.',
    )
  })

  it('clips: the first switch-on cuts through the middle, then Flipped, orientation, Offset and Reset', () => {
    renderMenus()
    const dialog = openMenu('Clip', 'Clip')
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Clipping plane' }))
    expect(store.get(clipAtom)).toEqual({ enabled: true, axis: 'x', flipped: false, offsetM: 0.8 })
    expect(within(dialog).getByLabelText<HTMLInputElement>('Offset (m)').value).toBe('0.8')
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Flipped' }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'z' }))
    fireEvent.change(within(dialog).getByLabelText('Offset (m)'), { target: { value: '0.25' } })
    expect(store.get(clipAtom)).toEqual({ enabled: true, axis: 'z', flipped: true, offsetM: 0.25 })
    expect(within(dialog).getByRole('slider', { name: 'Offset slider' }).getAttribute('max')).toBe(
      '0.8',
    )
    // Switching off and on again keeps the user's offset (the placement happens once).
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Clipping plane' }))
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Clipping plane' }))
    expect(store.get(clipAtom).offsetM).toBe(0.25)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset' }))
    expect(store.get(clipAtom)).toEqual({ enabled: true, axis: 'x', flipped: false, offsetM: 0 })
    expect(within(dialog).getByLabelText<HTMLInputElement>('Offset (m)').value).toBe('0')
  })

  it('moves the plane with the arrow keys in translate mode (t) and turns it in rotate mode (r)', () => {
    renderMenus()
    const offCopy = store.get(clipAtom)
    fireEvent.keyDown(window, { key: 'ArrowUp' })
    // Off: the keys leave the plane alone.
    expect(store.get(clipAtom)).toEqual(offCopy)
    act(() => store.set(clipAtom, { enabled: true, axis: 'x', flipped: false, offsetM: 0.5 }))
    // The arrows belong to the page unless the Clip dialog is open (or the view has focus).
    fireEvent.keyDown(window, { key: 'ArrowUp' })
    expect(store.get(clipAtom).offsetM).toBe(0.5)
    const dialog = openMenu('Clip', 'Clip')
    fireEvent.keyDown(window, { key: 'ArrowUp' })
    // 2 % of the 1.6 m extent along x.
    expect(store.get(clipAtom).offsetM).toBeCloseTo(0.532, 9)
    fireEvent.keyDown(window, { key: 'r' })
    fireEvent.keyDown(window, { key: 'ArrowRight' })
    expect(store.get(clipAtom).axis).toBe('y')
    expect(
      within(dialog).getByRole('button', { name: 'Rotate (r)' }).getAttribute('aria-pressed'),
    ).toBe('true')
    fireEvent.keyDown(window, { key: 't' })
    expect(
      within(dialog).getByRole('button', { name: 'Translate (t)' }).getAttribute('aria-pressed'),
    ).toBe('true')
    // Typing in a field keeps its keys.
    fireEvent.keyDown(within(dialog).getByLabelText('Offset (m)'), { key: 'ArrowDown' })
    expect(store.get(clipAtom).offsetM).toBeCloseTo(0.532, 9)
  })

  it('draws velocity arrows over the fluids when asked, where the output has velocities', () => {
    renderMenus()
    expect(
      within(openMenu('Fluid view', 'Fluid view mode')).queryByRole('switch', {
        name: 'Velocity arrows',
      }),
    ).toBeNull()
    cleanup()
    const withVelocity: OutputManifestList = {
      ...LIST,
      outputs: LIST.outputs.map((output) => ({
        ...output,
        objects: output.objects.map((o) => ({ ...o, columns: ['vx', 'vy', 'vz'] })),
      })),
    }
    renderMenus(SNAPSHOT, withVelocity)
    expect(ofType('set_vectors')).toEqual([{ type: 'set_vectors', enabled: false, columns: null }])
    const dialog = openMenu('Fluid view', 'Fluid view mode')
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Velocity arrows' }))
    expect(ofType('set_vectors').at(-1)).toEqual({
      type: 'set_vectors',
      enabled: true,
      columns: ['vx', 'vy', 'vz'],
    })
  })

  it('closes a dialog with Escape and opens one menu at a time', () => {
    renderMenus()
    openMenu('Clip', 'Clip')
    fireEvent.click(screen.getByRole('button', { name: 'Fluid view' }))
    expect(screen.queryByRole('dialog', { name: 'Clip' })).toBeNull()
    expect(screen.getByRole('dialog', { name: 'Fluid view mode' })).toBeTruthy()
    fireEvent.keyDown(document, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Fluid view' }))
  })

  it('switches the camera mode and shows the mode the engine reports', () => {
    renderMenus({ ...SNAPSHOT, camera: { ...SNAPSHOT.camera, mode: 'orthographic' } })
    const group = screen.getByRole('group', { name: 'Camera mode' })
    expect(
      within(group).getByRole('button', { name: 'Orthographic' }).getAttribute('aria-pressed'),
    ).toBe('true')
    fireEvent.click(within(group).getByRole('button', { name: 'Perspective' }))
    expect(ofType('set_camera_mode')).toEqual([{ type: 'set_camera_mode', mode: 'perspective' }])
  })

  it('turns the view from a gizmo axis and from a view cube face', () => {
    renderMenus()
    fireEvent.click(screen.getByRole('button', { name: 'View from +X' }))
    fireEvent.keyDown(screen.getByRole('button', { name: 'View from −Z' }), { key: 'Enter' })
    fireEvent.click(screen.getByRole('button', { name: 'View Top' }))
    expect(ofType('view_orientation')).toEqual([
      { type: 'view_orientation', direction: [-1, -0, -0], up: [0, 0, 1] },
      { type: 'view_orientation', direction: [-0, -0, 1], up: [0, -1, 0] },
      { type: 'view_orientation', direction: [-0, -0, -1], up: [0, 1, 0] },
    ])
  })

  it('shows the cube faces the camera sees: right, front and top from (2, −2, 2)', () => {
    renderMenus()
    const cube = screen.getByRole('group', { name: 'View cube' })
    const faces = ['Front', 'Back', 'Left', 'Right', 'Top', 'Bottom'].filter(
      (name) => within(cube).queryByRole('button', { name: `View ${name}` }) !== null,
    )
    expect(faces).toEqual(['Front', 'Right', 'Top'])
  })

  it('looks from a corner or an edge of the view cube, z up', () => {
    renderMenus()
    const cube = screen.getByRole('group', { name: 'View cube' })
    expect(within(cube).queryByRole('button', { name: 'View Back Left Bottom' })).toBeNull()
    fireEvent.click(within(cube).getByRole('button', { name: 'View Front Right Top' }))
    fireEvent.click(within(cube).getByRole('button', { name: 'View Front Top' }))
    const [corner, edge] = ofType('view_orientation')
    const third = 1 / Math.sqrt(3)
    corner!.direction.forEach((c, i) => expect(c).toBeCloseTo([-third, third, -third][i]!, 12))
    expect(corner!.up).toEqual([0, 0, 1])
    edge!.direction.forEach((c, i) =>
      expect(c).toBeCloseTo([0, Math.SQRT1_2, -Math.SQRT1_2][i]!, 12),
    )
  })

  it('toggles the coordinate-system axes in the render worker', () => {
    renderMenus()
    expect(ofType('set_coordinate_system')).toEqual([
      { type: 'set_coordinate_system', visible: true },
    ])
    fireEvent.click(screen.getByRole('button', { name: 'Coordinate system' }))
    expect(store.get(coordinateSystemAtom)).toBe(false)
    expect(ofType('set_coordinate_system').at(-1)).toEqual({
      type: 'set_coordinate_system',
      visible: false,
    })
  })

  it('shows the scale bar of the snapshot with its length', () => {
    renderMenus()
    const bar = screen.getByRole('img', { name: 'Scale bar 50 cm' })
    expect(bar.textContent).toContain('50 cm')
    expect((bar.querySelector('.canvas-scale__bar') as HTMLElement).style.width).toBe('120px')
  })

  it("saves the image as the simulation's post image, says so, and offers the PNG", async () => {
    renderMenus()
    fireEvent.click(screen.getByRole('button', { name: 'Save Image' }))
    expect(await screen.findByText('Image saved!')).toBeTruthy()
    expect(screen.getByText('You can see it on the monitoring page')).toBeTruthy()
    expect(saved.calls).toEqual([{ simulationId: 5, fileName: 'Dam break output 4.png' }])
    const link = screen.getByRole('link', { name: 'Download PNG' })
    expect(link.getAttribute('download')).toBe('Dam break output 4.png')
    expect(link.getAttribute('href')).toBe('blob:png')
    // The simulation (monitoring page) knows its new post image at once.
    expect(
      queryClient.getQueryData<Simulation>(['getSimulation', { params: { id: '5' } }])?.postImageId,
    ).toBe(9)
  })

  it('says when saving the image failed', async () => {
    saved.fail = true
    renderMenus()
    fireEvent.click(screen.getByRole('button', { name: 'Save Image' }))
    expect(await screen.findByText('Saving image failed')).toBeTruthy()
    expect(screen.getByText('Try again in a few moments.')).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save Image' }).disabled).toBe(
        false,
      ),
    )
  })

  it('draws no gizmo, cube or scale bar before the first snapshot', () => {
    renderMenus(null)
    expect(screen.queryByRole('group', { name: 'Axis gizmo' })).toBeNull()
    expect(screen.queryByRole('group', { name: 'View cube' })).toBeNull()
    expect(screen.queryByRole('img', { name: /Scale bar/ })).toBeNull()
    act(() => undefined)
  })
})
