/**
 * The rule engine every area's validation uses (spec/setup.md §5 "General"): a rule yields issues
 * with a level. An empty or NaN value is "preliminary" and reported as info; a warning rewords
 * 'must' to 'should'; everything else that breaks a bound is an error.
 */
export type IssueLevel = 'info' | 'warning' | 'error'

export interface Issue {
  level: IssueLevel
  /** Dotted path of the field, e.g. 'settings.particleDiameter' or 'gravity.2'. */
  field: string
  message: string
}

/** Warnings say 'should' where errors say 'must'. */
export function rewordAsWarning(message: string): string {
  return message.replace(/\bmust\b/g, 'should').replace(/\bMust\b/g, 'Should')
}

export function issue(level: IssueLevel, field: string, message: string): Issue {
  return { level, field, message: level === 'warning' ? rewordAsWarning(message) : message }
}

export function isPreliminary(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (typeof value === 'number' && Number.isNaN(value))
  )
}

export interface NumberBounds {
  min?: number
  max?: number
  /** Strict bounds: the value must be greater than min / smaller than max. */
  exclusiveMin?: boolean
  exclusiveMax?: boolean
  integer?: boolean
  /** Level for a value out of bounds (default error). */
  level?: IssueLevel
}

/**
 * Checks one numeric field. Empty or NaN gives the preliminary info '{label} is required' (or
 * '{label} must be a valid number.' for a non-number); out of bounds gives `bounds.level`.
 */
export function checkNumber(
  field: string,
  label: string,
  value: unknown,
  bounds: NumberBounds = {},
): Issue[] {
  if (value === null || value === undefined || value === '')
    return [issue('info', field, `${label} is required`)]
  if (typeof value !== 'number' || !Number.isFinite(value))
    return [issue('info', field, `${label} must be a valid number.`)]
  const level = bounds.level ?? 'error'
  const { min, max } = bounds
  if (bounds.integer && !Number.isInteger(value))
    return [issue(level, field, `${label} must be an integer.`)]
  if (min !== undefined && (bounds.exclusiveMin ? value <= min : value < min))
    return [
      issue(
        level,
        field,
        `${label} must be ${bounds.exclusiveMin ? 'greater than' : 'at least'} ${min}.`,
      ),
    ]
  if (max !== undefined && (bounds.exclusiveMax ? value >= max : value > max))
    return [
      issue(
        level,
        field,
        `${label} must be ${bounds.exclusiveMax ? 'smaller than' : 'at most'} ${max}.`,
      ),
    ]
  return []
}

/** Vectors: three valid numbers ('This field requires a valid number.'), optionally non-zero. */
export function checkVector(
  field: string,
  label: string,
  value: readonly (number | null)[] | null | undefined,
  options: { nonZero?: boolean; bounds?: NumberBounds } = {},
): Issue[] {
  if (!value) return [issue('info', field, `${label} is required`)]
  const bad = value.length !== 3 || value.some((c) => c === null || !Number.isFinite(c))
  if (bad) return [issue('info', field, 'This field requires a valid number.')]
  const components = value as readonly number[]
  if (options.nonZero && Math.hypot(...components) === 0)
    return [issue('error', field, `${label} length cannot be equal to 0`)]
  if (options.bounds) {
    const bounds = options.bounds
    return components.flatMap((c, i) => checkNumber(`${field}.${i}`, label, c, bounds))
  }
  return []
}

/** The most severe level present, or null for none. */
export function worstLevel(issues: readonly Issue[]): IssueLevel | null {
  if (issues.some((i) => i.level === 'error')) return 'error'
  if (issues.some((i) => i.level === 'warning')) return 'warning'
  if (issues.some((i) => i.level === 'info')) return 'info'
  return null
}

/** Discretizing and running are blocked by errors and by info-level (missing) items alike. */
export function blocksRun(issues: readonly Issue[]): boolean {
  return issues.some((i) => i.level === 'error' || i.level === 'info')
}

/** A colour picker value: a 7-character hex string. */
export function isHexColour(value: string): boolean {
  return /^#[0-9a-fA-F]{6}$/.test(value)
}
