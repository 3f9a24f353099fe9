/** The play / pause button of a timeline: its icon and name follow `playing`; Space is its key. */
export function PlayPauseButton({
  playing,
  disabled,
  onToggle,
  className,
  labels = { play: 'Play', pause: 'Pause' },
}: {
  playing: boolean
  disabled: boolean
  onToggle: () => void
  className: string
  /** Accessible names, e.g. 'Play movements' / 'Pause movements'. */
  labels?: { play: string; pause: string }
}) {
  return (
    <button
      type="button"
      className={className}
      onClick={onToggle}
      disabled={disabled}
      aria-label={playing ? labels.pause : labels.play}
      title={playing ? 'Pause (Space)' : 'Play (Space)'}
    >
      {playing ? (
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <rect x="3" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
          <rect x="9.5" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
        </svg>
      ) : (
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path
            d="M4 2.5v11a.6.6 0 0 0 .9.5l9-5.5a.6.6 0 0 0 0-1l-9-5.5a.6.6 0 0 0-.9.5z"
            fill="currentColor"
          />
        </svg>
      )}
    </button>
  )
}

/** The loop switch of a timeline (a toggle button: pressed while looping). */
export function LoopButton({
  loop,
  disabled = false,
  onChange,
  className,
}: {
  loop: boolean
  disabled?: boolean
  onChange: (loop: boolean) => void
  className: string
}) {
  return (
    <button
      type="button"
      className={className}
      aria-label="Loop"
      aria-pressed={loop}
      title={loop ? 'Looping on' : 'Looping off'}
      disabled={disabled}
      onClick={() => onChange(!loop)}
    >
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path
          d="M3 7V6a2 2 0 0 1 2-2h7m0 0-2-2m2 2-2 2M13 9v1a2 2 0 0 1-2 2H4m0 0 2 2m-2-2 2-2"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  )
}
