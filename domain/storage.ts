import { formatBytes } from './units.ts'

/*
 * Organization storage (spec/account.md §3 'Organization storage: consumed, available'; §6 feature
 * no_storage_limit_enforcement). The spec shows the bar but not the refusal, so the rule is ours:
 * what would take the organization past its available bytes is refused before anything is
 * written, unless the organization has the no_storage_limit_enforcement feature.
 */

/** The organization feature that lifts the storage limit (spec/account.md §6). */
export const NO_STORAGE_LIMIT_FEATURE = 'no_storage_limit_enforcement'

/**
 * Whether storing `addingBytes` more keeps an organization within its limit. Adding nothing
 * (a run, an export, a discretization: sizes known only once written) needs room left.
 */
export function fitsStorage(consumedBytes: number, availableBytes: number, addingBytes: number) {
  if (addingBytes > 0) return consumedBytes + addingBytes <= availableBytes
  return consumedBytes < availableBytes
}

/** Why a write was refused: what is used of what is available, and what to do. */
export function storageFullMessage(consumedBytes: number, availableBytes: number): string {
  return `The organization's storage is full (${formatBytes(consumedBytes)} of ${formatBytes(availableBytes)} used). Delete simulations, exports or uploads to free space.`
}
