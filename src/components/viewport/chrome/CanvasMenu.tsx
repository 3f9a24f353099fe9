import { useEffect, useId, useRef, type ReactNode } from 'react'

interface CanvasMenuProps {
  /** The button's text and the dialog's accessible name. */
  label: string
  /** Name of the dialog (default: the label). */
  title?: string
  open: boolean
  onOpenChange: (open: boolean) => void
  disabled?: boolean
  children: ReactNode
}

/**
 * A toolbar button over the 3D view that opens a small non-modal dialog under it. Escape or a
 * pointer press outside closes it; Escape gives the focus back to the button.
 */
export function CanvasMenu({
  label,
  title = label,
  open,
  onOpenChange,
  disabled = false,
  children,
}: CanvasMenuProps) {
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelId = useId()
  const titleId = useId()

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) onOpenChange(false)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      onOpenChange(false)
      buttonRef.current?.focus()
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [open, onOpenChange])

  return (
    <div className="canvas-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="canvas-tool"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        disabled={disabled}
        onClick={() => onOpenChange(!open)}
      >
        {label}
      </button>
      {open && (
        <div id={panelId} className="canvas-menu__panel" role="dialog" aria-labelledby={titleId}>
          <h3 className="canvas-menu__title" id={titleId}>
            {title}
          </h3>
          {children}
        </div>
      )}
    </div>
  )
}

/** A labelled on/off switch (a checkbox with the switch role). */
export function Switch({
  label,
  checked,
  onChange,
  disabled = false,
}: {
  label: string
  checked: boolean
  onChange: (checked: boolean) => void
  disabled?: boolean
}) {
  const id = useId()
  return (
    <label className="canvas-switch" htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="canvas-switch__track" aria-hidden="true" />
      <span>{label}</span>
    </label>
  )
}

/** A row of toggle buttons, one pressed (none when `value` is null). */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  labelOf = (option) => option,
}: {
  label: string
  options: readonly T[]
  value: T | null
  onChange: (value: T) => void
  labelOf?: (option: T) => string
}) {
  return (
    <div className="segmented canvas-segmented" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option}
          type="button"
          className="segmented__option"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
        >
          {labelOf(option)}
        </button>
      ))}
    </div>
  )
}
