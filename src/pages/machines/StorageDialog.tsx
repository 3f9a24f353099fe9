import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useRef, useState, type KeyboardEvent } from 'react'
import { VM_MESSAGES } from '../../../domain/accountVm.ts'
import {
  ORGANIZATION_STORAGE_DOWNLOAD_PATH,
  ORGANIZATION_STORAGE_UPLOAD_PATH,
  ORGANIZATION_STORAGE_VM_PATH,
} from '../../../domain/rest/organizationStorageRoutes.ts'
import { formatBytes } from '../../../domain/units.ts'
import { messageOf } from '../../api/ApiError.ts'
import { api, callApi } from '../../api/index.ts'
import { filenameFromDisposition } from '../../api/files.ts'
import { Dialog } from '../../components/Dialog.tsx'
import { usePushToast } from '../../components/Toasts.tsx'
import { formatDateTime } from '../../lib/format.ts'
import { routeKey } from '../../queries/queries.ts'

/*
 * The machines list's 'Access storage' modal (spec/account.md §2): the organization storage, the
 * file area every VM of the organization sees at /organization. Download lists it by pages
 * (continuationToken) and saves a file; Upload takes one file (its states: waiting, uploading,
 * success, failed).
 */

const TABS = ['Download', 'Upload'] as const
type Tab = (typeof TABS)[number]

type UploadState = 'waiting' | 'uploading' | 'success' | 'failed'

const UPLOAD_TEXTS: Record<UploadState, string> = {
  waiting: 'Choose one file',
  uploading: 'Uploading…',
  success: 'Uploaded to the organization storage',
  failed: 'Upload failed',
}

/** Saves one file of the organization storage through the authenticated client. */
async function downloadStorageFile(name: string): Promise<void> {
  const response = await api.requestRaw({
    method: 'GET',
    path: `${ORGANIZATION_STORAGE_DOWNLOAD_PATH}?name=${encodeURIComponent(name)}`,
    expectedStatus: 200,
  })
  const url = URL.createObjectURL(await response.blob())
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download =
    filenameFromDisposition(response.headers.get('content-disposition')) ??
    name.split('/').at(-1) ??
    name
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

function DownloadTab() {
  const pushToast = usePushToast()
  const files = useInfiniteQuery({
    queryKey: routeKey('listOrganizationStorage'),
    queryFn: ({ signal, pageParam }) =>
      callApi(
        'listOrganizationStorage',
        { query: pageParam === null ? {} : { continuationToken: pageParam } },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.continuationToken,
  })
  const list = files.data?.pages.flatMap((page) => page.files) ?? []
  if (files.isError)
    return (
      <p className="field__error" role="alert">
        {messageOf(files.error)}
      </p>
    )
  if (files.isPending) return <p role="status">Loading files…</p>
  if (list.length === 0)
    return (
      <p>No files yet. Upload one, or save one from a VM into {ORGANIZATION_STORAGE_VM_PATH}.</p>
    )
  return (
    <>
      <div className="table-wrap storage-files">
        <table className="table">
          <caption className="visually-hidden">Files in the organization storage</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Size</th>
              <th scope="col">Updated</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((file) => (
              <tr key={file.name}>
                <td>{file.name}</td>
                <td>{formatBytes(file.sizeBytes)}</td>
                <td>{formatDateTime(file.updatedAt)}</td>
                <td>
                  <button
                    type="button"
                    className="button button--secondary"
                    aria-label={`Download ${file.name}`}
                    onClick={() =>
                      void downloadStorageFile(file.name).catch((error: unknown) =>
                        pushToast({
                          kind: 'error',
                          title: 'Download failed',
                          description: messageOf(error),
                        }),
                      )
                    }
                  >
                    Download
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {files.hasNextPage && (
        <button
          type="button"
          className="button button--secondary"
          disabled={files.isFetchingNextPage}
          onClick={() => void files.fetchNextPage()}
        >
          {files.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  )
}

function UploadTab() {
  const id = useId()
  const pushToast = usePushToast()
  const queryClient = useQueryClient()
  const [file, setFile] = useState<File | null>(null)
  const [state, setState] = useState<UploadState>('waiting')
  const upload = async () => {
    if (!file) return
    setState('uploading')
    try {
      const form = new FormData()
      form.append('file', file)
      await api.requestRaw({
        method: 'POST',
        path: ORGANIZATION_STORAGE_UPLOAD_PATH,
        body: form,
        expectedStatus: 201,
      })
      setState('success')
      await Promise.all(
        ['listOrganizationStorage', 'storageConsumption'].map((name) =>
          queryClient.invalidateQueries({ queryKey: [name] }),
        ),
      )
    } catch {
      setState('failed')
      pushToast({ kind: 'error', title: VM_MESSAGES.uploadFailed })
    }
  }
  return (
    <div className="storage-upload">
      <p>
        One file into the organization storage; every VM sees it in {ORGANIZATION_STORAGE_VM_PATH}.
      </p>
      <div className="vm-upload">
        <label htmlFor={id}>File</label>
        <input
          id={id}
          type="file"
          className="input input--file"
          disabled={state === 'uploading'}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null)
            setState('waiting')
          }}
        />
        <button
          type="button"
          className="button button--primary"
          disabled={!file || state === 'uploading'}
          onClick={() => void upload()}
        >
          Upload
        </button>
        <span role="status" data-upload-state={state}>
          {file || state !== 'waiting' ? UPLOAD_TEXTS[state] : ''}
        </span>
      </div>
    </div>
  )
}

/** The 'Access storage' modal with its Download and Upload tabs. */
export function StorageDialog({ onClose }: { onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('Download')
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({})
  const baseId = useId()
  // Arrow keys move between the tabs (the WAI-ARIA tabs pattern; with two, either arrow toggles).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return
    event.preventDefault()
    const next = tab === 'Download' ? 'Upload' : 'Download'
    setTab(next)
    tabRefs.current[next]?.focus()
  }
  return (
    <Dialog title="Access storage" onClose={onClose}>
      <div className="dialog__body storage-dialog">
        <div className="tabs" role="tablist" aria-label="Storage" onKeyDown={onKeyDown}>
          {TABS.map((name) => (
            <button
              key={name}
              ref={(element) => {
                tabRefs.current[name] = element
              }}
              id={`${baseId}-${name}-tab`}
              type="button"
              role="tab"
              aria-selected={tab === name}
              aria-controls={`${baseId}-${name}-panel`}
              tabIndex={tab === name ? 0 : -1}
              className={`tabs__tab${tab === name ? ' tabs__tab--active' : ''}`}
              onClick={() => setTab(name)}
            >
              {name}
            </button>
          ))}
        </div>
        <div
          role="tabpanel"
          id={`${baseId}-${tab}-panel`}
          aria-labelledby={`${baseId}-${tab}-tab`}
          className="storage-dialog__panel"
        >
          {tab === 'Download' ? <DownloadTab /> : <UploadTab />}
        </div>
      </div>
      <footer className="dialog__footer">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close
        </button>
      </footer>
    </Dialog>
  )
}
