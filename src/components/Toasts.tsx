import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { dismissToastAtom, pushToastAtom, toastsAtom, type Toast } from '../state/toastsAtom.ts'
import { IconCheck, IconClose, IconError, IconInfo, IconWarning } from './icons.tsx'

const ICONS = { info: IconInfo, success: IconCheck, warning: IconWarning, error: IconError }

/** Shows a toast from any component. */
export function usePushToast() {
  return useSetAtom(pushToastAtom)
}

/** The toast stack, bottom right; each toast closes itself after its duration (paused on hover). */
export function Toasts() {
  const toasts = useAtomValue(toastsAtom)
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  )
}

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useSetAtom(dismissToastAtom)
  const [paused, setPaused] = useState(false)
  const remainingMsRef = useRef(toast.durationMs)

  useEffect(() => {
    if (paused) return
    const startedAt = Date.now()
    const timer = setTimeout(() => dismiss(toast.id), remainingMsRef.current)
    return () => {
      clearTimeout(timer)
      remainingMsRef.current -= Date.now() - startedAt
    }
  }, [paused, dismiss, toast.id])

  const Icon = ICONS[toast.kind]
  return (
    <div
      className={`toast toast--${toast.kind}`}
      role="status"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
    >
      <Icon className="toast__icon" width={18} height={18} />
      <div className="toast__content">
        <p className="toast__title">{toast.title}</p>
        {toast.description && <p className="toast__description">{toast.description}</p>}
        {toast.links && toast.links.length > 0 && (
          <p className="toast__links">
            {toast.links.map((link) => (
              <Link key={link.to} to={link.to} onClick={() => dismiss(toast.id)}>
                {link.label}
              </Link>
            ))}
          </p>
        )}
      </div>
      <button
        type="button"
        className="icon-button icon-button--small"
        aria-label="Dismiss notification"
        onClick={() => dismiss(toast.id)}
      >
        <IconClose />
      </button>
    </div>
  )
}
