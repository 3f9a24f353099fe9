import { useEffect, useId, useRef, useState, type ReactNode } from 'react'

interface PopoverProps {
  /** Accessible name of the panel, and of the trigger button unless it is named by its content. */
  label: string
  /**
   * The trigger shows text that starts with the label and its current value ("Dataset Fast ·
   * Medium"): it is named by that text, so what a screen reader says contains what is seen.
   */
  namedByContent?: boolean
  /** What the trigger shows. */
  trigger: ReactNode
  triggerClassName?: string
  /** The panel's content; a function gets a `close` callback. */
  children: ReactNode | ((close: () => void) => ReactNode)
  align?: 'start' | 'end'
  /** Opens upwards (for controls at the bottom of the view). */
  placement?: 'below' | 'above'
  disabled?: boolean
}

/**
 * A button that opens a small non-modal panel next to it (a chip's settings, the scheme picker).
 * Escape or a click outside closes it; Escape gives focus back to the button.
 */
export function Popover({
  label,
  trigger,
  triggerClassName = 'results-chip',
  children,
  align = 'start',
  placement = 'below',
  disabled = false,
  namedByContent = false,
}: PopoverProps) {
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const triggerRef = useRef<HTMLButtonElement>(null)
  const panelId = useId()

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      triggerRef.current?.focus()
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [open])

  const close = () => setOpen(false)
  return (
    <div className="results-popover" ref={rootRef}>
      <button
        ref={triggerRef}
        type="button"
        className={triggerClassName}
        aria-label={namedByContent ? undefined : label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        disabled={disabled}
        onClick={() => setOpen((value) => !value)}
      >
        {trigger}
      </button>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label={label}
          className={`results-popover__panel results-popover__panel--${align} results-popover__panel--${placement}`}
        >
          {typeof children === 'function' ? children(close) : children}
        </div>
      )}
    </div>
  )
}
