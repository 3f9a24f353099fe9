import { useId, useState } from 'react'

/**
 * A form's Submit that stays in the tab order while it is blocked (aria-disabled, so its tooltip
 * can be reached from the keyboard), with the reason as a tooltip on hover and focus. The button
 * keeps its element when it becomes blocked, so focus stays on it after a refused submit.
 */
export function SubmitButton(props: {
  label: string
  /** Why submitting is refused now (the first error); null: it is not. */
  blockedReason: string | null
  /** Refused without a reason shown (saving, setup not editable). */
  inactive?: boolean
}) {
  const [hovered, setHovered] = useState(false)
  const id = useId()
  const reason = props.blockedReason
  return (
    <span
      className="submit-anchor"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setHovered(true)}
      onBlur={() => setHovered(false)}
    >
      <button
        type="submit"
        className="button button--primary"
        aria-disabled={reason !== null || props.inactive ? true : undefined}
        aria-describedby={reason !== null && hovered ? id : undefined}
      >
        {props.label}
      </button>
      {reason !== null && hovered && (
        <span role="tooltip" id={id} className="tooltip submit-anchor__tooltip">
          {reason}
        </span>
      )}
    </span>
  )
}
