import { useEffect, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react'
import type { ExplorerEntry } from './explorerModel.ts'

/** What every row hears from the explorer: selection, focus and what to do on a click or key. */
export interface RowControls {
  selected: (id: string) => boolean
  /** The entry that takes the Tab stop (roving focus). */
  tabStop: string | null
  onClick: (id: string, event: MouseEvent) => void
  onOpen: (id: string) => void
  onKeyDown: (id: string, event: KeyboardEvent<HTMLButtonElement>) => void
}

/**
 * One row of the explorer: the object's name as a toggle button (pressed = selected; click
 * selects, ctrl/meta-click toggles, shift-click selects a range, double click opens), its status,
 * and its own actions (visibility, warnings, delete) after it.
 */
export function ExplorerRow({
  entry,
  controls,
  children,
  tag,
}: {
  entry: ExplorerEntry
  controls: RowControls
  /** Actions after the name. */
  children?: ReactNode
  /** A small label before the name (e.g. a sensor's kind). */
  tag?: string
}) {
  const selected = entry.selectable && controls.selected(entry.id)
  const rowRef = useRef<HTMLLIElement>(null)
  // An object picked in the 3D view comes into sight in the list.
  useEffect(() => {
    if (selected) rowRef.current?.scrollIntoView?.({ block: 'nearest' })
  }, [selected])
  return (
    <li
      ref={rowRef}
      className={`setup-explorer__row${selected ? ' setup-explorer__row--selected' : ''}`}
      data-object-id={entry.id}
    >
      {entry.selectable ? (
        <button
          type="button"
          className="setup-explorer__name"
          aria-pressed={selected}
          tabIndex={controls.tabStop === entry.id ? 0 : -1}
          data-explorer-id={entry.id}
          title={entry.name}
          onClick={(event) => controls.onClick(entry.id, event)}
          onDoubleClick={() => controls.onOpen(entry.id)}
          onKeyDown={(event) => controls.onKeyDown(entry.id, event)}
        >
          {entry.name}
        </button>
      ) : (
        <span className="setup-explorer__name setup-explorer__name--disabled" aria-disabled="true">
          {entry.name}
        </span>
      )}
      {tag && <span className="tag setup-explorer__tag">{tag}</span>}
      {entry.status && <span className="setup-explorer__status">{entry.status}</span>}
      {children}
    </li>
  )
}
