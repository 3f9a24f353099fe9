import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AssemblyWizard } from './AssemblyWizard.tsx'
import {
  SIMULATION,
  calls,
  edits,
  makeAssembly,
  makeAssemblyPart,
  renderWizard,
  resetAssemblyServer,
  server,
  toastsOf,
} from './assemblyTestKit.tsx'

/*
 * Step '1. Organizing parts' of the CAD import wizard (spec/setup.md §2) against the in-memory
 * assembly API: the tree and its search, Import and Merge & Import, double click, drag and drop
 * (threshold, overlay), the parts list, the configuration file and Next.
 */

beforeEach(() => resetAssemblyServer())
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const tree = () => screen.findByRole('tree', { name: 'Import tree' })
const item = (name: string, index = 0) =>
  screen.getAllByRole('treeitem').filter((row) => row.textContent === name)[index] as HTMLElement
const itemNames = () => screen.queryAllByRole('treeitem').map((row) => row.textContent)
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name })
const check = (name: string, index = 0) => fireEvent.keyDown(item(name, index), { key: ' ' })

async function openStep1() {
  const view = renderWizard(<AssemblyWizard simulation={SIMULATION} />)
  await tree()
  return view
}

describe('the dialog', () => {
  it('is a named modal showing the steps, the file and its tree', async () => {
    await openStep1()
    const dialog = screen.getByRole('dialog', { name: 'Import CAD Assembly' })
    expect(
      within(dialog).getByText('as1-oc-214.stp', { selector: '.dialog__subtitle' }),
    ).toBeTruthy()
    const steps = within(dialog).getByRole('list', { name: 'Steps' })
    expect(within(steps).getByText('1. Organizing parts').getAttribute('aria-current')).toBe('step')
    expect(document.activeElement).toBe(steps)
    expect(item('as1').getAttribute('aria-expanded')).toBe('true')
    expect(item('l-bracket-assembly').getAttribute('aria-expanded')).toBe('false')
    expect(item('plate').getAttribute('aria-expanded')).toBeNull()
    expect(item('plate').getAttribute('aria-checked')).toBe('false')
  })
})

describe('the import tree', () => {
  it("filters by name with 'Search by name', keeping the ancestors of each match", async () => {
    await openStep1()
    fireEvent.change(screen.getByPlaceholderText('Search by name'), { target: { value: 'BOLT' } })
    expect(itemNames()).toEqual(['as1', 'l-bracket-assembly', 'bolt', 'bolt', 'nut-bolt-assembly'])
    fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'gear' } })
    expect(itemNames()).toEqual([])
    expect(screen.getByText('No component matches the search.')).toBeTruthy()
  })

  it('moves with the arrow keys, opens with ArrowRight and checks a subtree with Space', async () => {
    await openStep1()
    const root = item('as1')
    root.focus()
    fireEvent.keyDown(root, { key: 'ArrowDown' })
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(item('l-bracket-assembly'))
    fireEvent.keyDown(item('l-bracket-assembly'), { key: 'ArrowRight' })
    expect(item('l-bracket-assembly').getAttribute('aria-expanded')).toBe('true')
    check('l-bracket-assembly')
    expect(item('l-bracket-assembly').getAttribute('aria-checked')).toBe('true')
    expect(item('bolt', 1).getAttribute('aria-checked')).toBe('true')
    expect(item('as1').getAttribute('aria-checked')).toBe('mixed')
    check('bolt', 1)
    expect(item('l-bracket-assembly').getAttribute('aria-checked')).toBe('mixed')
    expect(screen.getByText('2 checked')).toBeTruthy()
  })
})

describe('Import and Merge & Import', () => {
  it('need 1 and 2 checked nodes; Import makes a part of each, Merge & Import one of all', async () => {
    await openStep1()
    expect(button('Import').disabled).toBe(true)
    expect(button('Merge & Import').disabled).toBe(true)
    check('plate')
    expect(button('Import').disabled).toBe(false)
    expect(button('Merge & Import').disabled).toBe(true)
    check('l-bracket-assembly')
    expect(button('Merge & Import').disabled).toBe(false)

    fireEvent.click(button('Import'))
    await waitFor(() => expect(edits()).toHaveLength(2))
    expect(edits().map((c) => c.body)).toEqual([
      { name: 'plate', assemblyNodeIds: ['1.1'], componentType: 'rigid' },
      { name: 'l-bracket-assembly', assemblyNodeIds: ['1.2'], componentType: 'rigid' },
    ])
    // The checks are cleared once imported; the parts are listed.
    await waitFor(() => expect(screen.getByText('0 checked')).toBeTruthy())
    expect(await screen.findByDisplayValue('l-bracket-assembly')).toBeTruthy()

    check('nut-bolt-assembly')
    check('plate')
    fireEvent.click(button('Merge & Import'))
    await waitFor(() => expect(edits()).toHaveLength(3))
    expect(edits()[2]?.body).toEqual({
      name: 'plate (1)',
      assemblyNodeIds: ['1.1', '1.4'],
      componentType: 'rigid',
    })
  })

  it('imports one node on a double click or Enter, as an open boundary under Inlets/Outlets', async () => {
    await openStep1()
    fireEvent.doubleClick(item('plate'))
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]?.body).toMatchObject({ assemblyNodeIds: ['1.1'], componentType: 'rigid' })
    fireEvent.click(screen.getByRole('tab', { name: /Inlets\/Outlets/ }))
    fireEvent.keyDown(item('screw-box'), { key: 'Enter' })
    await waitFor(() => expect(edits()).toHaveLength(2))
    expect(edits()[1]?.body).toEqual({
      name: 'screw-box',
      assemblyNodeIds: ['1.3'],
      componentType: 'openboundary',
    })
    const panel = screen.getByRole('tabpanel')
    expect(await within(panel).findByDisplayValue('screw-box')).toBeTruthy()
    expect(within(panel).queryByDisplayValue('plate')).toBeNull()
  })
})

describe('drag and drop', () => {
  const press = (element: HTMLElement, x: number, y: number) =>
    fireEvent.pointerDown(element, { pointerId: 1, button: 0, clientX: x, clientY: y })
  const move = (target: Element, x: number, y: number) =>
    act(() => {
      fireEvent.pointerMove(target, { pointerId: 1, clientX: x, clientY: y })
    })
  const release = (target: Element, x: number, y: number) =>
    act(() => {
      fireEvent.pointerUp(target, { pointerId: 1, clientX: x, clientY: y })
    })
  const overlay = () => screen.queryByTestId('assembly-drag')

  it('starts after 6 px and names 6 nodes, then +N more', async () => {
    await openStep1()
    fireEvent.keyDown(item('screw-box'), { key: 'ArrowRight' })
    check('screw-box')
    check('plate')
    press(item('screw 3'), 100, 100)
    move(document.body, 103, 104)
    expect(overlay()).toBeNull()
    move(document.body, 106, 100)
    const shown = overlay()
    expect(shown).not.toBeNull()
    expect([...(shown?.children ?? [])].map((c) => c.textContent)).toEqual(['plate', 'screw-box'])
    release(document.body, 106, 100)
    expect(overlay()).toBeNull()
    expect(edits()).toHaveLength(0)

    // The nine screws of a merged part: six named, '+3 more'.
    fireEvent.keyDown(item('screw-box'), { key: ' ' })
    check('screw 1')
    check('screw 2')
    check('screw 3')
    check('screw 4')
    check('screw 5')
    check('screw 6')
    check('screw 7')
    check('screw 8')
    press(item('screw 1'), 10, 10)
    move(document.body, 30, 30)
    expect([...(overlay()?.children ?? [])].map((c) => c.textContent)).toEqual([
      'plate',
      'screw 1',
      'screw 2',
      'screw 3',
      'screw 4',
      'screw 5',
      '+3 more',
    ])
  })

  it('adds dropped nodes to a part, or makes a part of them on the create area', async () => {
    server.parts = [makeAssemblyPart(7, { name: 'Frame', assemblyNodeIds: ['1.1'] })]
    await openStep1()
    const frame = (await screen.findByDisplayValue('Frame')).closest('li') as HTMLElement
    press(item('nut-bolt-assembly'), 10, 10)
    move(frame, 40, 40)
    expect(frame.className).toContain('assembly-part--over')
    release(frame, 40, 40)
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]).toMatchObject({
      method: 'PUT',
      body: { id: 7, assemblyNodeIds: ['1.1', '1.4'] },
    })

    const create = screen.getByRole('button', { name: /Drop components here to create a part/ })
    press(item('l-bracket-assembly'), 10, 10)
    move(create, 50, 50)
    release(create, 50, 50)
    await waitFor(() => expect(edits()).toHaveLength(2))
    expect(edits()[1]).toMatchObject({
      method: 'POST',
      body: { name: 'l-bracket-assembly', assemblyNodeIds: ['1.2'], componentType: 'rigid' },
    })
  })

  it('has keyboard alternatives: Add checked on a part and the create area', async () => {
    server.parts = [makeAssemblyPart(7, { name: 'Frame', assemblyNodeIds: ['1.1'] })]
    await openStep1()
    await screen.findByDisplayValue('Frame')
    const add = button('Add checked components to Frame')
    expect(add.disabled).toBe(true)
    check('nut-bolt-assembly')
    fireEvent.click(add)
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]?.body).toEqual({ id: 7, assemblyNodeIds: ['1.1', '1.4'] })

    check('plate')
    check('l-bracket-assembly')
    fireEvent.click(screen.getByRole('button', { name: /Drop components here to create a part/ }))
    await waitFor(() => expect(edits()).toHaveLength(2))
    expect(edits()[1]?.body).toMatchObject({ assemblyNodeIds: ['1.1', '1.2'] })
  })
})

describe('the parts list', () => {
  it('renames, changes the component type and deletes with a double click', async () => {
    server.parts = [makeAssemblyPart(7, { name: 'Frame' }), makeAssemblyPart(8, { name: 'Lid' })]
    await openStep1()
    const name = await screen.findByRole('textbox', { name: 'Name of Frame' })
    fireEvent.change(name, { target: { value: '  Base frame ' } })
    fireEvent.keyDown(name, { key: 'Enter' })
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]?.body).toEqual({ id: 7, name: 'Base frame' })

    const type = screen.getByRole('combobox', { name: 'Component type of Lid' })
    expect((type as HTMLSelectElement).value).toBe('rigid')
    fireEvent.change(type, { target: { value: 'filling' } })
    await waitFor(() => expect(edits()).toHaveLength(2))
    expect(edits()[1]?.body).toEqual({ id: 8, componentType: 'filling' })

    const remove = screen.getByRole('button', { name: 'Delete Lid' })
    fireEvent.click(remove)
    expect(edits()).toHaveLength(2)
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: Delete Lid' }))
    await waitFor(() => expect(edits()).toHaveLength(3))
    expect(edits()[2]).toMatchObject({ method: 'DELETE', body: { partIds: [8] } })
    await waitFor(() => expect(screen.queryByDisplayValue('Lid')).toBeNull())
  })

  it('warns about a component used by several parts', async () => {
    server.parts = [
      makeAssemblyPart(7, { assemblyNodeIds: ['1.1'] }),
      makeAssemblyPart(8, { assemblyNodeIds: ['1.1', '1.2'] }),
    ]
    await openStep1()
    expect(
      await screen.findByText('Component "plate" appears in 2 part(s) (2 occurrence(s) in total).'),
    ).toBeTruthy()
  })

  it('says once that same-named components are used by several parts', async () => {
    // Both bolts (1.2.2 and 1.2.3) are in both parts: one line, not one per bolt.
    server.parts = [
      makeAssemblyPart(7, { assemblyNodeIds: ['1.2.2', '1.2.3'] }),
      makeAssemblyPart(8, { assemblyNodeIds: ['1.2.2', '1.2.3'] }),
    ]
    await openStep1()
    const list = await screen.findByRole('list', { name: 'Duplicate components' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((line) => line.textContent),
    ).toEqual(['Component "bolt" appears in 2 part(s) (2 occurrence(s) in total).'])
  })

  it('shows and hides the hints', async () => {
    await openStep1()
    const toggle = button('Hide Hints')
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByText(/Double-click a component/)).toBeTruthy()
    fireEvent.click(toggle)
    expect(screen.queryByText(/Double-click a component/)).toBeNull()
    expect(button('Show Hints').getAttribute('aria-expanded')).toBe('false')
  })
})

describe('a configuration file', () => {
  const importFile = (content: string) => {
    const input = screen.getByRole('button', { name: 'Import configuration' })
      .previousElementSibling as HTMLInputElement
    fireEvent.change(input, {
      target: {
        files: [new File([content], 'as1-oc-214-config.json', { type: 'application/json' })],
      },
    })
  }

  it('creates its parts with the nodes this file has', async () => {
    await openStep1()
    importFile(
      JSON.stringify({
        filename: 'as1-oc-214.stp',
        parts: [
          {
            name: 'Bolts',
            assemblyNodeIds: ['1.2.2', '1.2.3', '9.9'],
            componentType: 'rigid',
            meshingParameters: {
              linearDeflectionFactor: 0.5,
              angularDeflection: 10,
              useDelabellaAlgorithm: true,
            },
          },
          {
            name: 'Gone',
            assemblyNodeIds: ['8.8'],
            componentType: 'rigid',
            meshingParameters: {
              linearDeflectionFactor: 1,
              angularDeflection: 15,
              useDelabellaAlgorithm: false,
            },
          },
        ],
      }),
    )
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]?.body).toEqual({
      name: 'Bolts',
      assemblyNodeIds: ['1.2.2', '1.2.3'],
      componentType: 'rigid',
      meshingParameters: {
        linearDeflectionFactor: 0.5,
        angularDeflection: 10,
        useDelabellaAlgorithm: true,
      },
    })
  })

  it('only logs a file that is not JSON', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const view = await openStep1()
    importFile('{ "parts": [')
    await waitFor(() => expect(logged).toHaveBeenCalled())
    expect(edits()).toHaveLength(0)
    expect(toastsOf(view.store)).toEqual([])
  })
})

describe('Next', () => {
  it('is enabled once the file is read and a part exists', async () => {
    server.assembly = makeAssembly({ state: 'running', assemblyMetadata: null })
    const view = renderWizard(<AssemblyWizard simulation={SIMULATION} />)
    expect(await screen.findByText('Reading the file…')).toBeTruthy()
    expect(button('Next').disabled).toBe(true)

    server.assembly = makeAssembly()
    await act(() => view.queryClient.refetchQueries({ queryKey: ['getAssembly'] }))
    await tree()
    expect(screen.getByText(/17 components/)).toBeTruthy()
    expect(button('Next').disabled).toBe(true)
    fireEvent.doubleClick(item('plate'))
    await waitFor(() => expect(button('Next').disabled).toBe(false))
    fireEvent.click(button('Next'))
    expect(await screen.findByRole('heading', { name: 'Parts to Tessellate' })).toBeTruthy()
    expect(screen.getByText('2. Tessellation').getAttribute('aria-current')).toBe('step')
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/assemblies/3')).toBe(false)
  })
})
