import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { IconChevronDown, IconPlus } from '../../../../components/icons.tsx'
import type { AddEntry, AddEntryKey } from './toolbarModel.ts'

/** Entries before this one are objects to add; Physics and Settings follow a separator. */
const FIRST_FORM_ENTRY: AddEntryKey = 'physics'

/**
 * The Add menu: a button that opens a role="menu" list. Every entry can take the focus, a disabled
 * one too (aria-disabled), so its reason shows as it is reached by pointer or keyboard; arrow keys,
 * Home and End move, Enter or Space picks, Escape closes and gives the focus back.
 */
export function AddMenu({
  entries,
  onSelect,
}: {
  entries: readonly AddEntry[]
  onSelect: (key: AddEntryKey) => void
}) {
  const [open, setOpen] = useState(false)
  const [focused, setFocused] = useState<AddEntryKey | null>(null)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const itemRefs = useRef(new Map<AddEntryKey, HTMLButtonElement>())
  const menuId = useId()
  const reasonId = useId()

  useEffect(() => {
    if (!open) return
    const items = rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')
    const usable = [...(items ?? [])].find((item) => !item.hasAttribute('aria-disabled'))
    ;(usable ?? items?.[0])?.focus()
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  const close = () => {
    setOpen(false)
    buttonRef.current?.focus()
  }
  const focusAt = (index: number) => {
    const entry = entries[(index + entries.length) % entries.length]
    if (entry) itemRefs.current.get(entry.key)?.focus()
  }
  const onKeyDown = (event: KeyboardEvent) => {
    const index = entries.findIndex((e) => e.key === focused)
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusAt(index + 1),
      ArrowUp: () => focusAt(index - 1),
      Home: () => focusAt(0),
      End: () => focusAt(entries.length - 1),
      Escape: close,
    }
    const move = moves[event.key]
    if (move) {
      event.preventDefault()
      event.stopPropagation()
      move()
    } else if (event.key === 'Tab') setOpen(false)
  }
  const focusedReason = entries.find((e) => e.key === focused)?.disabledReason ?? null

  return (
    <div className="add-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="button button--primary button--small"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        <IconPlus width={14} height={14} />
        Add
        <IconChevronDown width={14} height={14} />
      </button>
      {open && (
        <div className="add-menu__popover">
          <div
            role="menu"
            id={menuId}
            aria-label="Add"
            className="add-menu__list"
            onKeyDown={onKeyDown}
          >
            {entries.map((entry) => (
              <div key={entry.key} role="none">
                {entry.key === FIRST_FORM_ENTRY && (
                  <div role="separator" className="add-menu__separator" />
                )}
                <button
                  ref={(element) => {
                    if (element) itemRefs.current.set(entry.key, element)
                    else itemRefs.current.delete(entry.key)
                  }}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className="add-menu__item"
                  aria-disabled={entry.disabledReason !== null || undefined}
                  aria-describedby={
                    entry.disabledReason !== null && focused === entry.key ? reasonId : undefined
                  }
                  title={entry.disabledReason ?? undefined}
                  onFocus={() => setFocused(entry.key)}
                  onMouseEnter={() => setFocused(entry.key)}
                  onClick={() => {
                    if (entry.disabledReason !== null) return
                    close()
                    onSelect(entry.key)
                  }}
                >
                  {entry.label}
                </button>
              </div>
            ))}
          </div>
          {focusedReason && (
            <p id={reasonId} role="tooltip" className="add-menu__reason">
              {focusedReason}
            </p>
          )}
        </div>
      )}
    </div>
  )
}
