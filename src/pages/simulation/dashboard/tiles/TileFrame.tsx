import { useId, type KeyboardEvent, type ReactNode } from 'react'
import { IconClose } from '../../../../components/icons.tsx'

/**
 * A tile's frame: a header that drags the tile (class dashboard-tile__handle), its title as the
 * region's name, its actions, and its content. Buttons in the header do not start a drag.
 */
export function TileFrame({
  title,
  onRemove,
  actions,
  onArrange,
  children,
}: {
  title: string
  /** Keyboard arranging on the focused header: arrows move by a cell, Shift+arrows resize. */
  onArrange?: (change: { dx: number; dy: number; dw: number; dh: number }) => void
  /** Absent: the tile cannot be removed. */
  onRemove?: () => void
  actions?: ReactNode
  children: ReactNode
}) {
  const titleId = useId()
  const hintId = useId()
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!onArrange || event.target !== event.currentTarget) return
    const steps: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    }
    const step = steps[event.key]
    if (!step) return
    event.preventDefault()
    const [a, b] = step
    onArrange(event.shiftKey ? { dx: 0, dy: 0, dw: a, dh: b } : { dx: a, dy: b, dw: 0, dh: 0 })
  }
  return (
    <section className="dashboard-tile" aria-labelledby={titleId}>
      <header
        className="dashboard-tile__header dashboard-tile__handle"
        tabIndex={onArrange ? 0 : undefined}
        aria-describedby={onArrange ? hintId : undefined}
        onKeyDown={onKeyDown}
      >
        {onArrange && (
          <span id={hintId} className="visually-hidden">
            Arrow keys move the tile, Shift with arrow keys resizes it.
          </span>
        )}
        <h2 id={titleId} className="dashboard-tile__title">
          {title}
        </h2>
        <div className="dashboard-tile__actions">
          {actions}
          {onRemove && (
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove tile ${title}`}
              title="Remove tile"
              onClick={onRemove}
            >
              <IconClose />
            </button>
          )}
        </div>
      </header>
      {/* Focusable: a tile's content scrolls when the tile is smaller than it (keyboard access). */}
      <div className="dashboard-tile__body" tabIndex={0} role="group" aria-labelledby={titleId}>
        {children}
      </div>
    </section>
  )
}
