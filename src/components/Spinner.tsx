/** A small busy indicator with a label for screen readers. */
export function Spinner({ label = 'Loading…', size = 16 }: { label?: string; size?: number }) {
  return (
    <span
      className="spinner"
      role="status"
      aria-label={label}
      style={{ width: size, height: size }}
    />
  )
}

/** A centred busy state for a whole page or panel. */
export function LoadingBlock({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading-block">
      <Spinner label={label} size={22} />
    </div>
  )
}
