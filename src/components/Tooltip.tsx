import { useId, useState, type CSSProperties, type ReactNode } from 'react'
import { createPortal } from 'react-dom'

const TOOLTIP_GAP_PX = 6

/**
 * Shows `content` above its child while the pointer or focus is on it. The text is only in the
 * document while shown, so it never doubles a message the page states elsewhere.
 */
export function Tooltip({
  content,
  children,
  className,
}: {
  content: ReactNode
  children: ReactNode
  className?: string
}) {
  const [style, setStyle] = useState<CSSProperties | null>(null)
  const id = useId()
  if (!content) return <>{children}</>

  const show = (target: HTMLElement) => {
    const rect = target.getBoundingClientRect()
    setStyle({
      position: 'fixed',
      left: rect.left + rect.width / 2,
      top: rect.top - TOOLTIP_GAP_PX,
    })
  }
  const hide = () => setStyle(null)

  return (
    <span
      className={`tooltip-anchor${className ? ` ${className}` : ''}`}
      aria-describedby={style ? id : undefined}
      onMouseEnter={(event) => show(event.currentTarget)}
      onMouseLeave={hide}
      onFocus={(event) => show(event.currentTarget)}
      onBlur={hide}
    >
      {children}
      {style &&
        createPortal(
          <span role="tooltip" id={id} className="tooltip" style={style}>
            {content}
          </span>,
          document.body,
        )}
    </span>
  )
}
