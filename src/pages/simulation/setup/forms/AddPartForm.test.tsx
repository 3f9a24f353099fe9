import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createDefaultMaterial } from '../../../../../domain/materials.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { FakeXhr, renderSetup, stubApi, testPart, type ApiCall } from '../movements/testHarness.tsx'
import { setupSelectionAtom, sideFormAtom } from '../state/setupAtoms.ts'
import { MOTION_FORMS } from './motionForms.ts'
import type { SideFormProps } from './registry.ts'

/*
 * The addPart form against a stubbed API (parts created with ids from 40) and a scripted
 * XMLHttpRequest for the STL uploads.
 */

const SIMULATION = { id: 5 } as Simulation
const AddPart = MOTION_FORMS.addPart!

let calls: ApiCall[]
let nextId: number

beforeEach(() => {
  nextId = 40
  FakeXhr.made = []
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
  calls = stubApi({
    'GET /api/simulations/5/parts': [200, [testPart(1, 'Solid 1'), testPart(2, 'tank')]],
    'GET /api/simulations/5/custom_sensors': [200, []],
    'GET /api/simulations/5/volume_clips': [200, []],
    'GET /api/simulations/5/materials': [
      200,
      [createDefaultMaterial(0, 5, '2026-11-26'), createDefaultMaterial(1, 5, '2026-11-26')],
    ],
    'POST /api/simulations/5/parts': (body) => {
      const { name, component } = body as { name: string; component: { type: 'rigid' } }
      return [201, testPart(nextId++, name, { component: component.type })]
    },
  })
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderForm(component: SideFormProps<'addPart'>['form']['component']) {
  const view = renderSetup(
    <AddPart simulation={SIMULATION} form={{ kind: 'addPart', component }} />,
  )
  view.store.set(sideFormAtom, { kind: 'addPart', component })
  const chooseFiles = (...files: File[]) => {
    const input = view.container.querySelector('input[type="file"]') as HTMLInputElement
    fireEvent.change(input, { target: { files } })
  }
  return { ...view, chooseFiles }
}

const posts = () => calls.filter((c) => c.method === 'POST').map((c) => c.body)
const stl = (name: string) => new File(['solid x\nendsolid x\n'], name)
const upload = (id: number, fileName: string) => ({
  id,
  kind: 'stl',
  fileName,
  unit: 'm',
  sizeBytes: 20,
  createdAt: '2026-11-26T00:00:00.000Z',
  nbrOfTriangles: 12,
  watertight: true,
  datatableId: null,
})

describe('AddPartForm', () => {
  it('adds a box with the first free name, selects it and opens its part form', async () => {
    const { store } = renderForm('rigid')
    fireEvent.click(screen.getByRole('radio', { name: 'Box' }))
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Solid 2'),
    )
    const width = screen.getByLabelText('Dimensions x (m)')
    fireEvent.change(width, { target: { value: '2' } })
    fireEvent.blur(width)
    fireEvent.click(screen.getByRole('button', { name: 'Add part' }))
    await waitFor(() => expect(store.get(setupSelectionAtom)).toEqual(['part:40']))
    expect(posts()).toEqual([
      {
        name: 'Solid 2',
        component: { type: 'rigid' },
        shape: { type: 'stl_cube', dimensions: [2, 1, 1], translation: [0, 0, 0] },
      },
    ])
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'geometry' })
  })

  it('refuses a used name and a flat box after the first submit', async () => {
    renderForm('rigid')
    fireEvent.click(screen.getByRole('radio', { name: 'Box' }))
    await screen.findByDisplayValue('Solid 2')
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'tank' } })
    const height = screen.getByLabelText('Dimensions z (m)')
    fireEvent.change(height, { target: { value: '0' } })
    fireEvent.blur(height)
    expect(screen.queryByText('Name is already used')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Add part' }))
    expect(await screen.findByText('Name is already used')).toBeTruthy()
    expect(screen.getByText('Dimensions must be greater than 0.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Add part' }).getAttribute('aria-disabled')).toBe(
      'true',
    )
    expect(posts()).toEqual([])
  })

  it('makes a fluid part of each uploaded STL, named after its file, with material and fill height', async () => {
    const { store, chooseFiles } = renderForm('filling')
    fireEvent.click(screen.getByRole('button', { name: 'Add part' }))
    expect(await screen.findByText('Choose at least one STL file.')).toBeTruthy()

    chooseFiles(stl('tank.stl'), stl('basin.stl'))
    fireEvent.change(screen.getByLabelText('File unit'), { target: { value: 'mm' } })
    await waitFor(() => expect(screen.getByLabelText('Material')).toBeTruthy())
    await screen.findByRole('option', { name: 'Fluid 2' })
    fireEvent.change(screen.getByLabelText('Material'), { target: { value: '1' } })
    const height = screen.getByLabelText('Fill height')
    fireEvent.change(height, { target: { value: '0.3' } })
    fireEvent.blur(height)
    fireEvent.click(screen.getByRole('button', { name: 'Add parts' }))

    await waitFor(() => expect(FakeXhr.made).toHaveLength(2))
    expect(FakeXhr.made.map((xhr) => xhr.body?.get('unit'))).toEqual(['mm', 'mm'])
    act(() => FakeXhr.made[0]!.progress(5, 20))
    expect(screen.getByText('Uploading 25 %')).toBeTruthy()
    act(() => FakeXhr.made[0]!.reply(201, upload(70, 'tank.stl')))
    act(() => FakeXhr.made[1]!.reply(201, upload(71, 'basin.stl')))

    await waitFor(() => expect(store.get(setupSelectionAtom)).toEqual(['part:40', 'part:41']))
    expect(posts()).toEqual([
      {
        name: 'tank (1)',
        component: { type: 'filling', height: 0.3 },
        shape: {
          type: 'stl',
          fileId: 70,
          fileName: 'tank.stl',
          fileExtension: 'stl',
          translation: [0, 0, 0],
        },
        materialId: 1,
      },
      expect.objectContaining({ name: 'basin', shape: expect.objectContaining({ fileId: 71 }) }),
    ])
    expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'geometry' })
  })
})
