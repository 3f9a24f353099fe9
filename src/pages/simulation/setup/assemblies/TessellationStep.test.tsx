import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AssemblyWizard } from './AssemblyWizard.tsx'
import {
  SIMULATION,
  edits,
  makeAssembly,
  makeAssemblyPart,
  renderWizard,
  resetAssemblyServer,
  server,
  toastsOf,
} from './assemblyTestKit.tsx'
import { ImportingFileWidget } from './ImportingFileWidget.tsx'
import { DELABELLA_HINT } from './MeshingParametersForm.tsx'

/*
 * Step '2. Tessellation' of the CAD import wizard and the 'Importing File' widget (spec/setup.md
 * §2, §5 "Tessellation", §8 'Tessellation started.') against the in-memory assembly API.
 */

const saved = vi.hoisted(() => ({ files: [] as { name: string; text: Promise<string> }[] }))
vi.mock('../../results/charts/chartExport.ts', () => ({
  saveBlobAs: (blob: Blob, name: string) => saved.files.push({ name, text: blob.text() }),
}))

beforeEach(() => {
  saved.files = []
  resetAssemblyServer({
    parts: [
      makeAssemblyPart(1, { name: 'plate', assemblyNodeIds: ['1.1'] }),
      makeAssemblyPart(2, { name: 'nut', assemblyNodeIds: ['1.4.1'], componentType: 'filling' }),
    ],
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name })
const field = (label: RegExp) => screen.getByLabelText<HTMLInputElement>(label)
const typeInto = (label: RegExp, text: string) => {
  fireEvent.change(field(label), { target: { value: text } })
  fireEvent.blur(field(label))
}
const partsList = () => screen.getByRole('list', { name: 'Parts to Tessellate' })
const chooser = (name: string) =>
  within(partsList()).getByRole<HTMLInputElement>('checkbox', { name })

async function openStep2() {
  const view = renderWizard(<AssemblyWizard simulation={SIMULATION} />, {
    assemblyId: 3,
    step: 'tessellate',
  })
  await screen.findByRole('list', { name: 'Parts to Tessellate' })
  return view
}

describe('step 2', () => {
  it('lists the parts, all chosen, with the default meshing parameters', async () => {
    await openStep2()
    const steps = screen.getByRole('list', { name: 'Steps' })
    expect(within(steps).getByText('2. Tessellation').getAttribute('aria-current')).toBe('step')
    expect(chooser('plate').checked).toBe(true)
    expect(chooser('nut').checked).toBe(true)
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select all' }).checked).toBe(
      true,
    )
    expect(field(/Linear deflection factor/).value).toBe('1')
    expect(field(/Angular deflection/).value).toBe('15')
    expect(screen.getByRole('switch', { name: 'Use Delabella algorithm' })).toBeTruthy()
    // The server has no Delabella mesher: the form says so before a tessellation does.
    expect(screen.getByText(DELABELLA_HINT)).toBeTruthy()
    expect(button('Import').disabled).toBe(false)
  })

  it('refuses values out of bounds with the §5 messages and disables Import', async () => {
    await openStep2()
    typeInto(/Linear deflection factor/, '20')
    expect(await screen.findByText('Linear deflection factor must be at most 10.')).toBeTruthy()
    expect(button('Import').disabled).toBe(true)
    typeInto(/Angular deflection/, '2.5')
    expect(screen.getByText('Angular deflection must be an integer.')).toBeTruthy()
    typeInto(/Linear deflection factor/, '')
    expect(screen.getByText('Linear deflection factor is required')).toBeTruthy()
    // Nothing that breaks a rule is saved.
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)))
    expect(edits()).toEqual([])
    expect(button('Import').disabled).toBe(true)
  })

  it('saves a change for every chosen part 250 ms after it, and Reset restores the defaults', async () => {
    await openStep2()
    fireEvent.click(chooser('nut'))
    typeInto(/Linear deflection factor/, '0.5')
    expect(edits()).toEqual([])
    await waitFor(() => expect(edits()).toHaveLength(1))
    expect(edits()[0]).toMatchObject({
      method: 'PUT',
      path: '/api/assemblies/3/parts',
      body: {
        id: 1,
        meshingParameters: {
          linearDeflectionFactor: 0.5,
          angularDeflection: 15,
          useDelabellaAlgorithm: false,
        },
      },
    })
    fireEvent.click(button('Reset'))
    await waitFor(() => expect(edits()).toHaveLength(2))
    expect(edits()[1]?.body).toMatchObject({
      id: 1,
      meshingParameters: { linearDeflectionFactor: 1 },
    })
    await waitFor(() => expect(field(/Linear deflection factor/).value).toBe('1'))
  })

  it('keeps Import disabled while no part needs tessellation, and says Re-Tessellate after a run', async () => {
    server.parts = server.parts.map((p, i) => ({
      ...p,
      needsTessellation: false,
      setupPartId: 20 + i,
    }))
    server.assembly = makeAssembly({ latestTessellationRunId: 4 })
    await openStep2()
    expect(button('Re-Tessellate').disabled).toBe(true)
    // A changed meshing parameter makes the chosen parts need tessellation again.
    typeInto(/Angular deflection/, '10')
    await waitFor(() => expect(button('Re-Tessellate').disabled).toBe(false))
    await waitFor(() => expect(edits()).toHaveLength(2))
    expect(server.parts.every((p) => p.needsTessellation)).toBe(true)
  })

  it("starts the tessellation: 'Tessellation started.' with a link to the jobs, and closes", async () => {
    const { store } = await openStep2()
    fireEvent.click(button('Import'))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(edits()).toEqual([
      expect.objectContaining({ method: 'POST', path: '/api/assemblies/3', body: {} }),
    ])
    expect(toastsOf(store)).toEqual([
      expect.objectContaining({
        kind: 'success',
        title: 'Tessellation started.',
        links: [{ label: 'Jobs Progress', to: '/simulation/5/dashboard' }],
      }),
    ])
  })

  it('deletes the chosen parts with a double click', async () => {
    await openStep2()
    fireEvent.click(chooser('plate'))
    const remove = button('Delete 1 chosen part')
    fireEvent.click(remove)
    expect(edits()).toEqual([])
    fireEvent.click(remove)
    await waitFor(() =>
      expect(edits()).toEqual([
        expect.objectContaining({ method: 'DELETE', body: { partIds: [2] } }),
      ]),
    )
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'nut' })).toBeNull())
    expect(chooser('plate')).toBeTruthy()
  })

  it("exports the configuration as '{file}-config.json'", async () => {
    await openStep2()
    fireEvent.click(button('Export Configuration'))
    expect(saved.files.map((f) => f.name)).toEqual(['as1-oc-214-config.json'])
    const json = JSON.parse(await saved.files[0]!.text) as unknown
    expect(json).toEqual({
      filename: 'as1-oc-214.stp',
      parts: [
        expect.objectContaining({
          name: 'plate',
          assemblyNodeIds: ['1.1'],
          componentType: 'rigid',
        }),
        expect.objectContaining({
          name: 'nut',
          assemblyNodeIds: ['1.4.1'],
          componentType: 'filling',
        }),
      ],
    })
  })

  it('goes back to step 1 with Back', async () => {
    await openStep2()
    fireEvent.click(button('Back'))
    await screen.findByRole('tree', { name: 'Import tree' })
  })
})

describe("the 'Importing File' widget", () => {
  it('shows a running tessellation with its progress and cancels it', async () => {
    server.runs = [{ id: 9, assemblyId: 3, state: 'running', progress: 0.4 }]
    renderWizard(<ImportingFileWidget simulation={SIMULATION} />, null)
    const widget = await screen.findByRole('group', { name: 'Importing File' })
    expect(within(widget).getByText('as1-oc-214.stp')).toBeTruthy()
    expect(within(widget).getByText('Tessellating')).toBeTruthy()
    expect(within(widget).getByRole('progressbar').getAttribute('value')).toBe('40')
    fireEvent.click(within(widget).getByRole('button', { name: 'Cancel' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, stop' }))
    await waitFor(() =>
      expect(edits()).toEqual([
        expect.objectContaining({ method: 'DELETE', path: '/api/tessellation_runs/9' }),
      ]),
    )
  })

  it('refreshes the setup parts when a run it saw ends, and shows the file errors', async () => {
    server.runs = [{ id: 9, assemblyId: 3, state: 'running', progress: 0.4 }]
    const { queryClient, store } = renderWizard(
      <ImportingFileWidget simulation={SIMULATION} />,
      null,
    )
    await screen.findByRole('group', { name: 'Importing File' })
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    server.runs = [{ id: 9, assemblyId: 3, state: 'done', progress: 1 }]
    server.assembly = makeAssembly({
      latestTessellationRunId: 9,
      tessellationErrors: [{ message: 'Shape 1.3 could not be tessellated.' }],
    })
    await waitFor(
      () => expect(screen.queryByRole('group', { name: 'Importing File' })).toBeNull(),
      { timeout: 3000 },
    )
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['listParts'] })
    await waitFor(() =>
      expect(toastsOf(store)).toEqual([
        expect.objectContaining({
          kind: 'error',
          title: 'Tessellation failed',
          description: 'Shape 1.3 could not be tessellated.',
        }),
      ]),
    )
  })
})
