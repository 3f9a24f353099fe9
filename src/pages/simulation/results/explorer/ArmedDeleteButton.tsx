import { useState } from 'react'
import { IconTrash } from '../../../../components/icons.tsx'

/**
 * A delete button that needs a double click (spec/results.md §4): the first click arms it, the
 * second confirms, leaving it (blur) disarms it.
 */
export function ArmedDeleteButton({
  label,
  onConfirm,
  disabled = false,
}: {
  /** Accessible name, e.g. 'Delete Sensor 1'. */
  label: string
  onConfirm: () => void
  disabled?: boolean
}) {
  const [armed, setArmed] = useState(false)
  return (
    <button
      type="button"
      className={`icon-button icon-button--small explorer__delete${armed ? ' explorer__delete--armed' : ''}`}
      aria-label={armed ? `Confirm: ${label}` : label}
      title={armed ? 'Click again to delete' : 'Double-click to delete'}
      disabled={disabled}
      onClick={() => {
        if (!armed) {
          setArmed(true)
          return
        }
        setArmed(false)
        onConfirm()
      }}
      onBlur={() => setArmed(false)}
    >
      <IconTrash width={14} height={14} />
    </button>
  )
}
