import { useEffect, useId, useRef, useState, type CSSProperties, type ReactNode } from 'react'
import { createPortal } from 'react-dom'

export type MenuEntry =
  | {
      kind: 'action'
      label: string
      onSelect: () => void
      icon?: ReactNode
      danger?: boolean
      disabled?: boolean
    }
  | { kind: 'link'; label: string; href: string; icon?: ReactNode; external?: boolean }
  | { kind: 'separator' }

export interface MenuProps {
  /** Accessible name of the menu, and of the trigger button unless it is named by its content. */
  label: string
  /** The trigger shows text that names it (the profile's name): no label over it. */
  namedByContent?: boolean
  trigger: ReactNode
  triggerClassName?: string
  entries: readonly MenuEntry[]
  /** Shown above the items (e.g. the profile summary); not a menu item. */
  header?: ReactNode
  align?: 'start' | 'end'
}

const MENU_GAP_PX = 4
/** Below this much room under the trigger the menu opens upwards. */
const MIN_ROOM_BELOW_PX = 280

function menuPosition(trigger: HTMLElement, align: 'start' | 'end'): CSSProperties {
  const rect = trigger.getBoundingClientRect()
  const horizontal =
    align === 'end' ? { right: window.innerWidth - rect.right } : { left: rect.left }
  const roomBelow = window.innerHeight - rect.bottom
  const vertical =
    roomBelow < MIN_ROOM_BELOW_PX && rect.top > roomBelow
      ? { bottom: window.innerHeight - rect.top + MENU_GAP_PX }
      : { top: rect.bottom + MENU_GAP_PX }
  return { position: 'fixed', ...horizontal, ...vertical }
}

/**
 * A button that opens a role="menu" popover (in a portal, so tables and cards never clip it).
 * Arrow keys move between items, Escape closes and gives focus back to the button.
 */
export function Menu({
  label,
  trigger,
  triggerClassName = 'icon-button',
  entries,
  header,
  align = 'end',
  namedByContent = false,
}: MenuProps) {
  const [position, setPosition] = useState<CSSProperties | null>(null)
  const triggerRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const menuId = useId()
  const open = position !== null

  useEffect(() => {
    if (!open) return
    menuRef.current
      ?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')
      ?.focus()
    const close = () => setPosition(null)
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node
      if (menuRef.current?.contains(target) || triggerRef.current?.contains(target)) return
      close()
    }
    const onScroll = (event: Event) => {
      if (menuRef.current?.contains(event.target as Node)) return
      close()
    }
    document.addEventListener('pointerdown', onPointerDown)
    window.addEventListener('resize', close)
    window.addEventListener('scroll', onScroll, true)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      window.removeEventListener('resize', close)
      window.removeEventListener('scroll', onScroll, true)
    }
  }, [open])

  function closeAndFocusTrigger() {
    setPosition(null)
    triggerRef.current?.focus()
  }

  function handleMenuKeyDown(event: React.KeyboardEvent) {
    const items = [
      ...(menuRef.current?.querySelectorAll<HTMLElement>(
        '[role="menuitem"]:not([aria-disabled="true"])',
      ) ?? []),
    ]
    const index = items.indexOf(document.activeElement as HTMLElement)
    const focusAt = (next: number) => items[(next + items.length) % items.length]?.focus()
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault()
        focusAt(index + 1)
        break
      case 'ArrowUp':
        event.preventDefault()
        focusAt(index - 1)
        break
      case 'Home':
        event.preventDefault()
        focusAt(0)
        break
      case 'End':
        event.preventDefault()
        focusAt(items.length - 1)
        break
      case 'Escape':
        event.preventDefault()
        event.stopPropagation()
        closeAndFocusTrigger()
        break
      case 'Tab':
        setPosition(null)
        break
    }
  }

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className={triggerClassName}
        aria-label={namedByContent ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={(event) => {
          event.stopPropagation()
          setPosition(open ? null : menuPosition(event.currentTarget, align))
        }}
      >
        {trigger}
      </button>
      {open &&
        createPortal(
          <div
            ref={menuRef}
            className="menu"
            style={position}
            onKeyDown={handleMenuKeyDown}
            onClick={(event) => event.stopPropagation()}
          >
            {header && <div className="menu__header">{header}</div>}
            <div role="menu" id={menuId} aria-label={label}>
              {entries.map((entry, index) => {
                if (entry.kind === 'separator')
                  return (
                    <div key={`separator-${index}`} role="separator" className="menu__separator" />
                  )
                if (entry.kind === 'link')
                  return (
                    <a
                      key={entry.label}
                      role="menuitem"
                      className="menu__item"
                      href={entry.href}
                      tabIndex={-1}
                      {...(entry.external && { target: '_blank', rel: 'noopener noreferrer' })}
                      onClick={() => setPosition(null)}
                    >
                      {entry.icon}
                      <span>{entry.label}</span>
                    </a>
                  )
                return (
                  <button
                    key={entry.label}
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    className={`menu__item${entry.danger ? ' menu__item--danger' : ''}`}
                    aria-disabled={entry.disabled || undefined}
                    onClick={() => {
                      if (entry.disabled) return
                      closeAndFocusTrigger()
                      entry.onSelect()
                    }}
                  >
                    {entry.icon}
                    <span>{entry.label}</span>
                  </button>
                )
              })}
            </div>
          </div>,
          document.body,
        )}
    </>
  )
}
