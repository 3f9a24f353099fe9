import { CREDIT_DECIMALS } from '../../domain/constants.ts'

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const

/** Human-readable size in decimal units: 1.5 MB, 12 GB, 950 B. */
export function formatBytes(sizeBytes: number): string {
  if (!Number.isFinite(sizeBytes) || sizeBytes < 0) return 'N/A'
  let value = sizeBytes
  let unit = 0
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000
    unit++
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1
  return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`
}

/** A project or simulation size: 'N/A' while nothing is stored. */
export function formatSize(sizeBytes: number): string {
  return sizeBytes > 0 ? formatBytes(sizeBytes) : 'N/A'
}

/** Credits are always shown with two decimals. */
export function formatCredits(credits: number): string {
  return credits.toFixed(CREDIT_DECIMALS)
}

const pad = (value: number) => String(value).padStart(2, '0')

/** dd.MM.yyyy, HH:mm in local time; '–' for a missing or unreadable date. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '–'
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return '–'
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}, ${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** dd.MM.yyyy in local time. */
export function formatDate(iso: string | null | undefined): string {
  return formatDateTime(iso).split(',')[0] ?? '–'
}

/** First letter upper case: 'not started' → 'Not started'. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** Initials for an avatar: 'Mia Manager' → 'MM'. */
export function initialsOf(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean)
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts
  return letters.map((part) => part?.charAt(0).toUpperCase() ?? '').join('') || '?'
}
