import { useEffect, useId, useRef, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { IconClose } from './icons.tsx'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export interface DialogProps {
  title: string
  /** Shown under the title; not part of the accessible name. */
  subtitle?: ReactNode
  onClose: () => void
  /** 'modal' is centred; 'side' slides in from the right (the side forms of the Projects page). */
  variant?: 'modal' | 'side'
  size?: 'small' | 'medium'
  children: ReactNode
}

/**
 * A dialog over an overlay: role="dialog" named by its title, focus moved inside and kept there,
 * Escape or a click on the overlay closes it, focus returns to where it was.
 */
export function Dialog({
  title,
  subtitle,
  onClose,
  variant = 'modal',
  size = 'medium',
  children,
}: DialogProps) {
  const titleId = useId()
  const panelRef = useRef<HTMLElement>(null)
  const onCloseRef = useRef(onClose)

  useEffect(() => {
    onCloseRef.current = onClose
  }, [onClose])

  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null
    const panel = panelRef.current
    const first = panel?.querySelector<HTMLElement>(
      '[data-autofocus], input:not([disabled]), textarea:not([disabled]), select:not([disabled])',
    )
    ;(first ?? panel)?.focus()
    const previousOverflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.body.style.overflow = previousOverflow
      previouslyFocused?.focus?.()
    }
  }, [])

  function handleKeyDown(event: React.KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation()
      onCloseRef.current()
      return
    }
    if (event.key !== 'Tab' || !panelRef.current) return
    const focusable = [...panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)]
    const first = focusable[0]
    const last = focusable[focusable.length - 1]
    if (!first || !last) return
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return createPortal(
    <div
      className={`overlay overlay--${variant}`}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose()
      }}
    >
      <section
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`dialog dialog--${variant} dialog--${size}`}
        onKeyDown={handleKeyDown}
      >
        <div className="dialog__header">
          <div>
            <h2 id={titleId} className="dialog__title">
              {title}
            </h2>
            {subtitle && <div className="dialog__subtitle">{subtitle}</div>}
          </div>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <IconClose />
          </button>
        </div>
        {children}
      </section>
    </div>,
    document.body,
  )
}

/** Body and footer of a dialog that is a form. */
export function DialogForm({
  onSubmit,
  children,
  footer,
}: {
  onSubmit: () => void
  children: ReactNode
  footer: ReactNode
}) {
  return (
    <form
      className="dialog__form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit()
      }}
    >
      <div className="dialog__body">{children}</div>
      <footer className="dialog__footer">{footer}</footer>
    </form>
  )
}
