import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SECURITY_RISK_MESSAGE } from '../../../../../domain/errors.ts'
import type { Upload } from '../../../../../domain/rest/setupRoutes.ts'
import { errorBody, fakeTransport, renderSetup } from '../movements/testHarness.tsx'
import { StlUploader } from './StlUploads.tsx'

/*
 * STL uploads against a scripted XMLHttpRequest (fetch has no upload progress): the progress bar
 * per file, the stored uploads handed on, and the spec's failure toasts with the server's bodies.
 */

const stored = (id: number, fileName: string): Upload => ({
  id,
  kind: 'stl',
  fileName,
  unit: 'mm',
  sizeBytes: 684,
  createdAt: '2026-11-26T00:00:00.000Z',
  nbrOfTriangles: 12,
  watertight: true,
  datatableId: null,
})

const stl = (name: string) => new File(['solid x\nendsolid x\n'], name, { type: 'model/stl' })

function renderUploader(multiple = true) {
  const fake = fakeTransport()
  const onUploaded = vi.fn()
  const view = renderSetup(
    <StlUploader
      label="Upload STL"
      multiple={multiple}
      onUploaded={onUploaded}
      transport={fake.transport}
    />,
  )
  const choose = (...files: File[]) => {
    const input = view.container.querySelector('input[type="file"]') as HTMLInputElement
    fireEvent.change(input, { target: { files } })
  }
  return { ...fake, onUploaded, choose }
}

const toast = () =>
  screen
    .getAllByRole('status')
    .map((node) => node.textContent)
    .join(' | ')

afterEach(cleanup)

describe('StlUploader', () => {
  it('uploads several files in the chosen unit, each with its own progress bar', async () => {
    const { sent, choose, onUploaded } = renderUploader()
    fireEvent.change(screen.getByLabelText('File unit'), { target: { value: 'mm' } })
    choose(stl('tank.stl'), stl('lid.stl'))
    await waitFor(() => expect(sent).toHaveLength(2))
    const [tank, lid] = sent as [(typeof sent)[0], (typeof sent)[0]]
    expect(tank.method).toBe('POST')
    expect(tank.url).toBe('/api/client-upload/uploads')
    expect(tank.headers.get('Authorization')).toBe('Bearer token-1')
    expect(tank.body?.get('unit')).toBe('mm')
    expect(tank.file()?.name).toBe('tank.stl')

    act(() => tank.progress(342, 684))
    const tankBar = screen.getByRole('progressbar', { name: 'Upload of tank.stl' })
    expect(tankBar.getAttribute('value')).toBe('50')
    expect(screen.getByText('Uploading 50 %')).toBeTruthy()
    expect(
      screen.getByRole('progressbar', { name: 'Upload of lid.stl' }).getAttribute('value'),
    ).toBe('0')

    act(() => tank.reply(201, stored(7, 'tank.stl')))
    act(() => lid.reply(201, stored(8, 'lid.stl')))
    await waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(2))
    expect(onUploaded.mock.calls.map((call) => (call[0] as Upload).id)).toEqual([7, 8])
    expect(screen.getAllByText('Uploaded')).toHaveLength(2)
  })

  it("refuses a file flagged by the server with the spec's security-risk toast", async () => {
    const { sent, choose, onUploaded } = renderUploader()
    choose(stl('report.stl'))
    await waitFor(() => expect(sent).toHaveLength(1))
    act(() => sent[0]!.reply(503, errorBody('security_risk', SECURITY_RISK_MESSAGE)))
    await waitFor(() => expect(toast()).toContain('The upload of report.stl failed'))
    expect(toast()).toContain(SECURITY_RISK_MESSAGE)
    expect(onUploaded).not.toHaveBeenCalled()
    expect(screen.getByText(`Failed: ${SECURITY_RISK_MESSAGE}`)).toBeTruthy()
  })

  it('shows the size limit of a 413 and the reason of a broken STL', async () => {
    const { sent, choose } = renderUploader()
    choose(stl('huge.stl'), stl('broken.stl'))
    await waitFor(() => expect(sent).toHaveLength(2))
    act(() =>
      sent[0]!.reply(413, errorBody('payload_too_large', 'The file is larger than 256 MiB.')),
    )
    act(() => sent[1]!.reply(400, errorBody('wrong_input', 'The STL file contains no triangles.')))
    await waitFor(() => expect(toast()).toContain('The upload of broken.stl failed'))
    expect(toast()).toContain('The upload of huge.stl failed')
    expect(toast()).toContain('The file is larger than 256 MiB.')
    expect(toast()).toContain('The STL file contains no triangles.')
  })

  it('refuses a file over 256 MiB without sending it', async () => {
    const { sent, choose } = renderUploader()
    const huge = stl('scan.stl')
    Object.defineProperty(huge, 'size', { value: 256 * 1024 * 1024 + 1 })
    choose(huge)
    await waitFor(() => expect(toast()).toContain('The upload of scan.stl failed'))
    expect(toast()).toContain('The file is larger than 256 MiB.')
    expect(sent).toHaveLength(0)
  })

  it('renews an expired session once and sends the file again with the new token', async () => {
    const { sent, choose, onUploaded, renewals } = renderUploader(false)
    choose(stl('tank.stl'))
    await waitFor(() => expect(sent).toHaveLength(1))
    act(() => sent[0]!.reply(401, errorBody('unauthorized', 'Token expired')))
    await waitFor(() => expect(sent).toHaveLength(2))
    expect(renewals()).toBe(1)
    expect(sent[1]!.headers.get('Authorization')).toBe('Bearer token-2')
    act(() => sent[1]!.reply(201, stored(9, 'tank.stl')))
    await waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(1))
  })
})
