import { useId, type ReactNode } from 'react'
import { IconClose } from '../../../../components/icons.tsx'

/**
 * A tile's frame: a header that drags the tile (class dashboard-tile__handle), its title as the
 * region's name, its actions, and its content. Buttons in the header do not start a drag.
 */
export function TileFrame({
  title,
  onRemove,
  actions,
  children,
}: {
  title: string
  /** Absent: the tile cannot be removed. */
  onRemove?: () => void
  actions?: ReactNode
  children: ReactNode
}) {
  const titleId = useId()
  return (
    <section className="dashboard-tile" aria-labelledby={titleId}>
      <header className="dashboard-tile__header dashboard-tile__handle">
        <h3 id={titleId} className="dashboard-tile__title">
          {title}
        </h3>
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
      <div className="dashboard-tile__body">{children}</div>
    </section>
  )
}
