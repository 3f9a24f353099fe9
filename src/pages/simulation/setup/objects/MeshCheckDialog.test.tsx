import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  FakeEngine,
  createSetupServer,
  makePart,
  makeSimulation,
  makeSnapshot,
  renderSetup,
} from '../viewport/setupTestKit.tsx'
import { MeshCheckTool, MeshHealthTool } from './MeshCheckDialog.tsx'

/*
 * The Mesh Check button and dialog, and the Mesh health button (spec/setup.md §2 "3D viewport"):
 * defects listed per part from the parts' shape info, Zoom driving the engine, the buttons
 * following the engine's mode.
 */

const holed = makePart(12, 'Tank', 'rigid')
holed.shape.info = {
  ...holed.shape.info!,
  holes: [
    { center: [0, 0, 1], size: 0.24494897792834194 },
    { center: [1, 0, 0], size: 0.5 },
  ],
  nonManifold: [{ center: [0, 1, 0], size: 0.2 }],
}

beforeEach(() => {
  createSetupServer({ parts: [holed, makePart(13, 'Lid', 'rigid')] }).install()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function renderTools(setup: Parameters<typeof makeSnapshot>[0] = {}) {
  const engine = new FakeEngine()
  const view = renderSetup(
    <>
      <MeshHealthTool />
      <MeshCheckTool simulation={makeSimulation()} />
    </>,
    { engine, snapshot: makeSnapshot(setup) },
  )
  return { ...view, engine }
}

describe('Mesh Check', () => {
  it('lists the holes and non-manifold edges of every part, each with its size and a Zoom', async () => {
    renderTools()
    fireEvent.click(screen.getByRole('button', { name: 'Mesh check' }))
    const dialog = screen.getByRole('dialog', { name: 'Mesh Check' })
    const holes = await within(dialog).findAllByRole('listitem')
    expect(holes.map((row) => row.textContent)).toEqual([
      'Tank: Hole 10.245 mZoom',
      'Tank: Hole 20.5 mZoom',
      'Tank: Non-manifold edge 10.2 mZoom',
    ])
    expect(within(dialog).getByRole('heading', { name: 'Holes (2)' })).toBeTruthy()
    expect(within(dialog).getByRole('heading', { name: 'Non-Manifold (1)' })).toBeTruthy()
  })

  it('zooms to a defect: mesh-health mode on, the defect ringed, the camera at it, the dialog closed', async () => {
    const { engine } = renderTools()
    fireEvent.click(screen.getByRole('button', { name: 'Mesh check' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Zoom to Tank: Hole 2' }))
    expect(engine.intents.map((intent) => intent.type)).toEqual([
      'setup_mesh_health',
      'setup_defect_marker',
      'set_camera',
    ])
    expect(engine.last('setup_mesh_health')).toEqual({ type: 'setup_mesh_health', enabled: true })
    expect(engine.last('setup_defect_marker')?.marker).toEqual({ center: [1, 0, 0], sizeM: 0.5 })
    expect(engine.last('set_camera')?.camera.target).toEqual([1, 0, 0])
    expect(screen.queryByRole('dialog', { name: 'Mesh Check' })).toBeNull()
  })

  it('marks the defect the view rings while mesh-health mode is on', async () => {
    renderTools({ meshHealth: true, defectMarker: { center: [0, 1, 0], sizeM: 0.2 } })
    fireEvent.click(screen.getByRole('button', { name: 'Mesh check' }))
    const edges = await screen.findByRole('list', { name: 'Non-Manifold' })
    expect(within(edges).getByRole('listitem').getAttribute('aria-current')).toBe('true')
    const holes = screen.getByRole('list', { name: 'Holes' })
    expect(
      within(holes)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-current')),
    ).toEqual([null, null])
  })
})

describe('Mesh health', () => {
  it("is pressed while the engine's mode is on, and toggles it", () => {
    const { engine } = renderTools({ meshHealth: true })
    const button = screen.getByRole('button', { name: 'Mesh health' })
    expect(button.getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(button)
    expect(engine.last('setup_mesh_health')).toEqual({ type: 'setup_mesh_health', enabled: false })
  })

  it('is not pressed while the mode is off', () => {
    renderTools()
    expect(screen.getByRole('button', { name: 'Mesh health' }).getAttribute('aria-pressed')).toBe(
      'false',
    )
  })
})
