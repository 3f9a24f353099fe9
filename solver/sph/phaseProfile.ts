/**
 * The calling thread's profile of a run, by phase (its wall time, own range and the wait for
 * the workers after it, "<phase>.wait") and by serial section (addProfile): a few
 * performance.now() calls per phase, always on, no allocation once every name was seen.
 */
import { PHASE, type Phase } from './phases.ts'

/** Names of the phases in the profile (phaseProfile). */
const PHASE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(PHASE).map(([name, code]) => [code, name]),
)
const PHASE_WAIT_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(PHASE).map(([name, code]) => [code, `${name}.wait`]),
)

/** One line of the calling thread's profile: calls, and milliseconds in them. */
export interface ProfileEntry {
  calls: number
  ms: number
}

const profile = new Map<string, ProfileEntry>()

/** Adds `ms` to the profile's entry `name` (a serial section of the calling thread). */
export function addProfile(name: string, ms: number): void {
  let entry = profile.get(name)
  if (!entry) {
    entry = { calls: 0, ms: 0 }
    profile.set(name, entry)
  }
  entry.calls++
  entry.ms += ms
}

/** The profile since the last reset, entries in the order first seen. */
export function phaseProfile(): Record<string, ProfileEntry> {
  return Object.fromEntries([...profile].map(([name, entry]) => [name, { ...entry }]))
}

export function resetPhaseProfile(): void {
  profile.clear()
}

/** Adds a phase's own time and, on several threads, its wait for the others. */
export function profilePhase(phase: Phase, ownMs: number, waitMs: number | null): void {
  addProfile(PHASE_NAMES[phase]!, ownMs)
  if (waitMs !== null) addProfile(PHASE_WAIT_NAMES[phase]!, waitMs)
}
