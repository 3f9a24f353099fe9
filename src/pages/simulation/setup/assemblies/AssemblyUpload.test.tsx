import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MOTION_FORMS } from '../forms/motionForms.ts'
import { FakeXhr } from '../movements/testHarness.tsx'
import { assemblyWizardAtom, sideFormAtom } from '../state/setupAtoms.ts'
import { AssemblyWizard } from './AssemblyWizard.tsx'
import { SIMULATION, makeAssembly, renderWizard, resetAssemblyServer } from './assemblyTestKit.tsx'

/*
 * How a CAD file gets into the wizard (spec/setup.md §2): the addPart form's 'CAD file (STEP)'
 * source opens it, and step 1 uploads one .stp/.step file with progress (warning above 500 MB)
 * before its tree shows.
 */

beforeEach(() => {
  resetAssemblyServer()
  FakeXhr.made = []
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

/** The dialog is portalled to the body. */
const chooseFile = (file: File) => {
  const input = document.body.querySelector<HTMLInputElement>('input[type="file"][accept*=".stp"]')
  if (!input) throw new Error('no STEP file input')
  fireEvent.change(input, { target: { files: [file] } })
}
const stepFile = (name: string, sizeBytes?: number) => {
  const file = new File(['ISO-10303-21;'], name)
  if (sizeBytes !== undefined) Object.defineProperty(file, 'size', { value: sizeBytes })
  return file
}

describe("the addPart form's CAD source", () => {
  it('closes the form and opens the wizard without a file', () => {
    const AddPart = MOTION_FORMS.addPart!
    const { store } = renderWizard(
      <AddPart simulation={SIMULATION} form={{ kind: 'addPart', component: 'rigid' }} />,
      null,
    )
    store.set(sideFormAtom, { kind: 'addPart', component: 'rigid' })
    fireEvent.click(screen.getByRole('radio', { name: 'CAD file (STEP)' }))
    expect(screen.queryByRole('button', { name: 'Add part' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Open the CAD import wizard' }))
    expect(store.get(sideFormAtom)).toBeNull()
    expect(store.get(assemblyWizardAtom)).toEqual({ assemblyId: null, step: 'organize' })
  })
})

describe('the STEP upload', () => {
  it('uploads the chosen file with progress, then shows its tree', async () => {
    const { store } = renderWizard(<AssemblyWizard simulation={SIMULATION} />, {
      assemblyId: null,
      step: 'organize',
    })
    expect(screen.getByText('Choose a STEP file to see its components.')).toBeTruthy()
    chooseFile(stepFile('as1-oc-214.stp'))
    await waitFor(() => expect(FakeXhr.made).toHaveLength(1))
    const xhr = FakeXhr.made[0]!
    expect([xhr.method, xhr.url]).toEqual(['POST', '/api/client-upload/simulations/5/assemblies'])
    expect(xhr.headers.get('Authorization') ?? xhr.headers.get('authorization')).toBe(
      'Bearer token-1',
    )
    expect((xhr.body?.get('file') as File).name).toBe('as1-oc-214.stp')
    act(() => xhr.progress(50, 100))
    expect(
      screen.getByRole('progressbar', { name: 'Upload of as1-oc-214.stp' }).getAttribute('value'),
    ).toBe('50')
    act(() => xhr.reply(201, makeAssembly()))
    await screen.findByRole('tree', { name: 'Import tree' })
    expect(store.get(assemblyWizardAtom)).toEqual({ assemblyId: 3, step: 'organize' })
  })

  it('refuses a file that is not STEP and warns above 500 MB before sending', async () => {
    renderWizard(<AssemblyWizard simulation={SIMULATION} />, {
      assemblyId: null,
      step: 'organize',
    })
    chooseFile(stepFile('tank.stl'))
    expect(screen.getByText('Choose a .stp or .step file.')).toBeTruthy()
    chooseFile(stepFile('pump.STEP', 600_000_000))
    expect(
      screen.getByText(
        'This file is 600 MB, larger than 500 MB: uploading, reading and tessellating it can take a long time.',
      ),
    ).toBeTruthy()
    expect(FakeXhr.made).toHaveLength(0)
    fireEvent.click(screen.getByRole('button', { name: 'Upload anyway' }))
    await waitFor(() => expect(FakeXhr.made).toHaveLength(1))
  })
})
