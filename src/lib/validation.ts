import * as v from 'valibot'

/** The first message a domain schema gives for `value`, or null when it passes. */
export function firstIssue(schema: v.GenericSchema, value: unknown): string | null {
  const result = v.safeParse(schema, value)
  return result.success ? null : (result.issues[0]?.message ?? 'Invalid value')
}

/** Names compare as the server stores them: trimmed, case sensitive. */
export function isNameTaken(name: string, takenNames: readonly string[]): boolean {
  const trimmed = name.trim()
  return takenNames.some((taken) => taken === trimmed)
}
