/**
 * The last release whose notes a user has seen, per user, in local storage (spec/account.md §2:
 * "A release modal … shows once, controlled by a local storage flag"; the spec names no server
 * field for it).
 */

/** Local storage key of the last release a user has seen the notes of. */
export function releaseSeenKey(userId: number): string {
  return `dive.releaseNotesLastSeen.${userId}`
}

/** The last release the user has seen, or null where none is recorded (or storage fails). */
export function readSeenRelease(
  storage: Pick<Storage, 'getItem'> | null,
  userId: number,
): string | null {
  try {
    return storage?.getItem(releaseSeenKey(userId)) ?? null
  } catch {
    return null
  }
}

/** Records the release the user has now seen (private mode: silently not kept). */
export function recordSeenRelease(
  storage: Pick<Storage, 'setItem'> | null,
  userId: number,
  version: string,
): void {
  try {
    storage?.setItem(releaseSeenKey(userId), version)
  } catch {
    // The notes simply show again next time.
  }
}

/**
 * Orders two release versions ('3.6.0', '3.10.0-rc.1'): numeric parts compare as numbers, others
 * as text; a version with a pre-release suffix comes before the same version without one.
 */
export function compareReleaseVersions(a: string, b: string): number {
  const [coreA = '', preA] = splitPre(a.trim())
  const [coreB = '', preB] = splitPre(b.trim())
  const core = compareParts(coreA.split('.'), coreB.split('.'))
  if (core !== 0) return core
  if (preA === undefined || preB === undefined) {
    return preA === preB ? 0 : preA === undefined ? 1 : -1
  }
  return compareParts(preA.split('.'), preB.split('.'))
}

function splitPre(version: string): [string, string | undefined] {
  const dash = version.indexOf('-')
  return dash < 0 ? [version, undefined] : [version.slice(0, dash), version.slice(dash + 1)]
}

function compareParts(a: string[], b: string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '0'
    const y = b[i] ?? '0'
    const nx = /^\d+$/.test(x) ? Number(x) : NaN
    const ny = /^\d+$/.test(y) ? Number(y) : NaN
    const order = Number.isNaN(nx) || Number.isNaN(ny) ? x.localeCompare(y) : Math.sign(nx - ny)
    if (order !== 0) return order
  }
  return 0
}

/**
 * Whether the release notes open by themselves: only when the running release is newer than the
 * last one this user has seen. A user with nothing recorded (a first visit on this browser) has no
 * "new version" to hear about: the running release is recorded without opening the notes.
 */
export function releaseNotesDue(running: string, lastSeen: string | null): boolean {
  return lastSeen !== null && compareReleaseVersions(running, lastSeen) > 0
}
