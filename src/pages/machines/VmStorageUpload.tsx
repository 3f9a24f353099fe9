import { useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { VM_MESSAGES, type VirtualMachine } from '../../../domain/accountVm.ts'
import { usePushToast } from '../../components/Toasts.tsx'
import { routeKey } from '../../queries/queries.ts'
import { uploadToVm } from './vmQueries.ts'

/** The upload's states (spec/account.md §4). */
type UploadState = 'waiting' | 'uploading' | 'success' | 'failed'

const STATE_TEXTS: Record<UploadState, string> = {
  waiting: 'Choose one file',
  uploading: 'Uploading…',
  success: 'Uploaded to the home folder',
  failed: 'Upload failed',
}

/** One file into the VM's storage; it appears in the desktop's home folder. */
export function VmStorageUpload({ vm }: { vm: VirtualMachine }) {
  const id = useId()
  const pushToast = usePushToast()
  const queryClient = useQueryClient()
  const [file, setFile] = useState<File | null>(null)
  const [state, setState] = useState<UploadState>('waiting')
  const upload = async () => {
    if (!file) return
    setState('uploading')
    try {
      await uploadToVm(vm.id, file)
      setState('success')
      await queryClient.invalidateQueries({ queryKey: routeKey('listVmStorage') })
    } catch {
      setState('failed')
      pushToast({ kind: 'error', title: VM_MESSAGES.uploadFailed })
    }
  }
  return (
    <div className="vm-upload">
      <label htmlFor={id}>Upload to storage</label>
      <input
        id={id}
        type="file"
        className="input input--file"
        disabled={vm.state !== 'running' || state === 'uploading'}
        onChange={(event) => {
          setFile(event.target.files?.[0] ?? null)
          setState('waiting')
        }}
      />
      <button
        type="button"
        className="button button--secondary"
        disabled={!file || state === 'uploading' || vm.state !== 'running'}
        onClick={() => void upload()}
      >
        Upload
      </button>
      <span role="status" data-upload-state={state}>
        {file || state !== 'waiting' ? STATE_TEXTS[state] : ''}
      </span>
    </div>
  )
}
