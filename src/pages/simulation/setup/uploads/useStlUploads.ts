import { useCallback, useEffect, useRef, useState } from 'react'
import type { StlUnit, Upload } from '../../../../../domain/rest/setupRoutes.ts'
import { uploadFailedMessage } from '../../../../../domain/setupMessages.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { uploadStl } from './uploadFiles.ts'
import { isAbort, uploadFailureText, type UploadTransport } from './uploadRequest.ts'

/** Files uploaded at the same time; the rest wait their turn. */
export const PARALLEL_UPLOADS = 3

/** One file of an upload batch and how far it got. */
export interface UploadItem {
  key: string
  fileName: string
  sizeBytes: number
  state: 'waiting' | 'uploading' | 'done' | 'failed'
  /** Fraction sent, 0 … 1. */
  progress: number
  /** Why it failed (the toast's text). */
  error: string | null
}

/**
 * STL uploads with a progress bar per file (spec/setup.md §2 "STL (multiple files, unit m, mm or
 * in)"). Each failure shows the toast 'The upload of {file} failed' with why: the security-risk
 * message of a 503, the size limit of a 413, or the server's reason for a broken STL. Each stored
 * upload is handed to `onUploaded` (which makes a part of it, or the geometry of one).
 */
export function useStlUploads(transport?: UploadTransport) {
  const pushToast = usePushToast()
  const [items, setItems] = useState<readonly UploadItem[]>([])
  const controllers = useRef(new Set<AbortController>())
  const batch = useRef(0)

  useEffect(() => {
    const open = controllers.current
    return () => {
      for (const controller of open) controller.abort()
    }
  }, [])

  const patch = useCallback((key: string, change: Partial<UploadItem>) => {
    setItems((old) => old.map((item) => (item.key === key ? { ...item, ...change } : item)))
  }, [])

  /**
   * Uploads every file (PARALLEL_UPLOADS at a time) and resolves once all have settled, with the
   * uploads that were stored, in file order.
   */
  const uploadFiles = useCallback(
    async (
      files: readonly File[],
      unit: StlUnit,
      onUploaded?: (upload: Upload, file: File) => Promise<void> | void,
    ): Promise<Upload[]> => {
      const id = ++batch.current
      const queued = files.map((file, index) => ({ key: `${id}-${index}`, file }))
      setItems(
        queued.map(({ key, file }) => ({
          key,
          fileName: file.name,
          sizeBytes: file.size,
          state: 'waiting',
          progress: 0,
          error: null,
        })),
      )
      const stored: (Upload | null)[] = queued.map(() => null)
      let next = 0
      const worker = async () => {
        while (next < queued.length) {
          const index = next++
          const { key, file } = queued[index] as (typeof queued)[number]
          const controller = new AbortController()
          controllers.current.add(controller)
          patch(key, { state: 'uploading' })
          let upload: Upload
          try {
            upload = await uploadStl(file, unit, {
              signal: controller.signal,
              transport,
              onProgress: (progress) => patch(key, { progress }),
            })
          } catch (error) {
            if (isAbort(error)) return
            const text = uploadFailureText(error)
            patch(key, { state: 'failed', error: text })
            pushToast({ kind: 'error', title: uploadFailedMessage(file.name), description: text })
            continue
          } finally {
            controllers.current.delete(controller)
          }
          stored[index] = upload
          patch(key, { state: 'done', progress: 1 })
          // What the caller makes of the upload reports its own failures (a part's toast).
          await Promise.resolve(onUploaded?.(upload, file)).catch(() => undefined)
        }
      }
      await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, queued.length) }, worker))
      return stored.filter((upload): upload is Upload => upload !== null)
    },
    [patch, pushToast, transport],
  )

  const clear = useCallback(() => setItems([]), [])
  const busy = items.some((item) => item.state === 'waiting' || item.state === 'uploading')
  return { items, uploadFiles, clear, busy }
}
