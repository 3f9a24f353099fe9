import { useCallback, useState } from 'react'
import type { FieldError } from '../../../../../domain/errors.ts'
import { issue, type Issue } from '../../../../../domain/validation.ts'
import { isApiError } from '../../../../api/ApiError.ts'

/*
 * Where a form's field messages come from: the domain rules run on what the form shows, the
 * server's issues (GET settings, setup validation) and the field errors of a refused edit (400).
 * They all name fields by dotted path; a form reads one field's with issuesOfField.
 */

/** Issues of several sources as one list: the same message on the same field once. */
export function mergeIssues(...lists: readonly (readonly Issue[])[]): Issue[] {
  const seen = new Set<string>()
  const merged: Issue[] = []
  for (const list of lists)
    for (const item of list) {
      const key = `${item.field}\u0000${item.message}`
      if (seen.has(key)) continue
      seen.add(key)
      merged.push(item)
    }
  return merged
}

/**
 * Issues under `from` renamed to `to`: the setup validation's 'parts.12.component.ioPressure'
 * becomes the form's 'part.component.ioPressure'. Issues outside `from` are dropped.
 */
export function rebaseIssues(issues: readonly Issue[], from: string, to: string): Issue[] {
  return issues.flatMap((i) => {
    if (i.field === from) return [{ ...i, field: to }]
    if (!i.field.startsWith(`${from}.`)) return []
    return [{ ...i, field: `${to}${i.field.slice(from.length)}` }]
  })
}

/** A refused edit's field errors as error issues; `fieldOf` maps a server path to the form's. */
export function refusalIssues(
  errors: readonly FieldError[],
  fieldOf: (path: string) => string,
): Issue[] {
  return errors.map((e) => issue('error', fieldOf(e.path), e.message))
}

/**
 * The field errors of the last refused edit (spec: a 400's field errors show on the field), kept
 * until the next edit starts. Pass `capture` as a mutation's per-call onError.
 */
export function useRefusals(fieldOf: (path: string) => string) {
  const [issues, setIssues] = useState<Issue[]>([])
  const capture = useCallback(
    (error: unknown) => {
      const errors = isApiError(error) ? (error.body?.errors ?? []) : []
      setIssues(refusalIssues(errors, fieldOf))
    },
    [fieldOf],
  )
  const clear = useCallback(() => setIssues([]), [])
  return { issues, capture, clear }
}

/** Server paths of a settings refusal ('gravity.2', 'settings.gravity.2') as 'settings.gravity.2'. */
export function settingsFieldOf(path: string): string {
  return path.startsWith('settings.') || path === 'settings' ? path : `settings.${path}`
}

/**
 * Server paths of a part refusal as 'part.…': the rules' 'part.component.ioPressure', a bulk body's
 * '0.component.ioPressure' and a plain 'materialId' alike.
 */
export function partFieldOf(path: string): string {
  const rest = path.replace(/^parts?\.(\d+\.)?/, '').replace(/^\d+\./, '')
  return rest === 'part' || rest === '' ? 'part' : `part.${rest}`
}

/** Server paths of a material refusal ('material.density', 'density') as 'material.density'. */
export function materialFieldOf(path: string): string {
  const rest = path.replace(/^materials?\.(\d+\.)?/, '')
  return `material.${rest}`
}

/** Server paths of a deletion boundary refusal as 'settings.calcDomainMin' / '…Max' / '…Active'. */
export function calcDomainFieldOf(path: string): string {
  const rest = path.replace(/^settings\./, '')
  const renamed: Record<string, string> = { min: 'calcDomainMin', max: 'calcDomainMax' }
  const [head = '', ...tail] = rest.split('.')
  return ['settings', renamed[head] ?? head, ...tail].join('.')
}
