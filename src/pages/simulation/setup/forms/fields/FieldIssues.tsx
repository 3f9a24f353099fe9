import type { Issue, IssueLevel } from '../../../../../../domain/validation.ts'

/** Issues of one field: those named by it or by one of its components ('gravity' → 'gravity.2'). */
export function issuesOfField(issues: readonly Issue[], field: string): Issue[] {
  return issues.filter((i) => i.field === field || i.field.startsWith(`${field}.`))
}

/** The level a field shows: the worst of its issues. */
export function fieldLevel(issues: readonly Issue[]): IssueLevel | null {
  if (issues.some((i) => i.level === 'error')) return 'error'
  if (issues.some((i) => i.level === 'warning')) return 'warning'
  if (issues.some((i) => i.level === 'info')) return 'info'
  return null
}

/** The messages under a field, one per distinct text, coloured by level. */
export function FieldIssues({ id, issues }: { id: string; issues: readonly Issue[] }) {
  const seen = new Set<string>()
  const unique = issues.filter((i) => !seen.has(i.message) && seen.add(i.message))
  if (unique.length === 0) return null
  return (
    <div id={id} className="setup-field__issues">
      {unique.map((i) => (
        <p key={i.message} className={`setup-field__issue setup-field__issue--${i.level}`}>
          {i.message}
        </p>
      ))}
    </div>
  )
}
