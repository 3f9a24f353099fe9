import type { Issue } from '../../domain/validation.ts'
import { ApiError } from '../api/apiError.ts'

/** A 400 validation_error listing the issues; the first one's message is the description. */
export function refuseIssues(issues: readonly Issue[]): ApiError {
  return new ApiError(
    'validation_error',
    issues[0]?.message ?? 'Invalid input',
    issues.map((i) => ({ path: i.field, message: i.message })),
  )
}

/** A 400 validation_error for one field. */
export function refuseField(field: string, message: string): ApiError {
  return new ApiError('validation_error', message, [{ path: field, message }])
}
