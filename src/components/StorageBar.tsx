import { STORAGE_WARNING_FRACTION } from '../../domain/constants.ts'
import { formatBytes } from '../lib/format.ts'
import { useStorageConsumptionQuery } from '../queries/queries.ts'
import { Tooltip } from './Tooltip.tsx'

export type StorageLevel = 'normal' | 'warning' | 'error'

/** Warning from the warning share of the organization's storage, error once it is full. */
export function storageLevel(consumedBytes: number, availableBytes: number): StorageLevel {
  if (availableBytes <= 0) return consumedBytes > 0 ? 'error' : 'normal'
  const fraction = consumedBytes / availableBytes
  if (fraction >= 1) return 'error'
  if (fraction > STORAGE_WARNING_FRACTION) return 'warning'
  return 'normal'
}

/** Organization storage as a meter: compact in the menu bar, with figures on the Projects page. */
export function StorageBar({ variant = 'compact' }: { variant?: 'compact' | 'detailed' }) {
  const { data } = useStorageConsumptionQuery()
  if (!data) return null
  const fraction = data.available > 0 ? Math.min(data.consumed / data.available, 1) : 0
  const percent = Math.round(fraction * 100)
  const level = storageLevel(data.consumed, data.available)
  const summary = `${formatBytes(data.consumed)} of ${formatBytes(data.available)} used`
  return (
    <Tooltip content={`Organization storage: ${summary} (${percent} %)`}>
      {/* No Tab stop (issue 23): it does nothing; the meter's value text says what the tooltip says. */}
      <div className={`storage storage--${variant} storage--${level}`}>
        <span className="storage__label">
          {variant === 'detailed' ? summary : `Storage ${percent} %`}
        </span>
        <span
          className="storage__track"
          role="meter"
          aria-label="Organization storage"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={summary}
        >
          <span className="storage__fill" style={{ width: `${Math.max(percent, 1)}%` }} />
        </span>
      </div>
    </Tooltip>
  )
}
