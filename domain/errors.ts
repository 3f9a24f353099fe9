import * as v from 'valibot'

/** Error body codes of spec/account.md §8, and the HTTP status each one is sent with. */
export const ERROR_CODES = {
  authentication_failed: 401,
  unauthorized: 401,
  forbidden: 403,
  body_keys_missing: 400,
  duplicate_key: 409,
  database_error: 500,
  email_format_wrong: 400,
  wrong_input: 400,
  resource_not_found: 404,
  unknown_error: 500,
  job_file_not_found: 404,
  validation_error: 400,
  missing_refresh_token: 401,
  invalid_grant: 401,
  method_not_allowed: 405,
  security_risk: 503,
  conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  /** The organization's storage would be exceeded (domain/storage.ts). */
  storage_full: 413,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof ERROR_CODES

/** One failed check of a request body or query, with the path of the offending field. */
export const FieldErrorSchema = v.object({ path: v.string(), message: v.string() })
export type FieldError = v.InferOutput<typeof FieldErrorSchema>

/**
 * Every API error response has this body. For validation_error, `description` is the first field
 * message (the UI shows it as the title) and `errors` lists all of them.
 */
export const ApiErrorBodySchema = v.object({
  code: v.picklist(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
  title: v.string(),
  description: v.string(),
  errors: v.optional(v.array(FieldErrorSchema)),
})
export type ApiErrorBody = v.InferOutput<typeof ApiErrorBodySchema>

/** Error classes by HTTP status (spec/account.md §8). */
export type ErrorClass =
  | 'generic'
  | 'auth'
  | 'not_found'
  | 'method_not_allowed'
  | 'internal'
  | 'bad_gateway'
  | 'service_unavailable'
  | 'unexpected_status'

export function errorClassForStatus(status: number): ErrorClass {
  if (status === 400) return 'generic'
  if (status === 401 || status === 403) return 'auth'
  if (status === 404) return 'not_found'
  if (status === 405) return 'method_not_allowed'
  if (status === 500) return 'internal'
  if (status === 502) return 'bad_gateway'
  if (status === 503) return 'service_unavailable'
  return 'unexpected_status'
}

export const UNEXPECTED_STATUS_MESSAGE = 'The API returned an unexpected status code'
export const SECURITY_RISK_MESSAGE =
  'The file was identified as a potential security risk. Please submit a ticket.'

/**
 * The message a person sees for a failed call: a validation_error shows its first field message,
 * a 5xx its title, anything else its description (spec/account.md §8).
 */
export function messageForError(status: number, body: ApiErrorBody | undefined): string {
  if (!body) return UNEXPECTED_STATUS_MESSAGE
  if (body.code === 'validation_error') return body.errors?.[0]?.message ?? body.description
  if (status >= 500) return body.title
  return body.description
}

/** Authentication failures that force the person back to the login page. */
export function forcesLogin(body: ApiErrorBody | undefined): boolean {
  return body?.code === 'missing_refresh_token' || body?.code === 'invalid_grant'
}
