import {
  ERROR_CODES,
  type ApiErrorBody,
  type ErrorCode,
  type FieldError,
} from '../../domain/errors.ts'

const TITLES: Record<ErrorCode, string> = {
  authentication_failed: 'Authentication Failed',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  body_keys_missing: 'Body keys missing',
  duplicate_key: 'Duplicate key',
  database_error: 'Database error',
  email_format_wrong: 'E-mail format wrong',
  wrong_input: 'Wrong input',
  resource_not_found: 'Resource not found',
  unknown_error: 'Unknown error',
  job_file_not_found: 'Job file not found',
  validation_error: 'Validation error',
  missing_refresh_token: 'Missing refresh token',
  invalid_grant: 'Invalid grant',
  method_not_allowed: 'Method not allowed',
  security_risk: 'Security risk',
  conflict: 'Conflict',
  payload_too_large: 'Payload too large',
  too_many_requests: 'Too many requests',
  storage_full: 'Storage full',
}

/** Fields a call's own error contract adds to the body (e.g. a datatable's globalErrors). */
export type ErrorBodyExtras = Record<string, unknown>

/** A failure a handler reports on purpose; the error handler turns it into an ApiErrorBody. */
export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly errors: FieldError[] | undefined
  readonly extras: ErrorBodyExtras | undefined
  constructor(
    code: ErrorCode,
    description: string,
    errors?: FieldError[],
    extras?: ErrorBodyExtras,
  ) {
    super(description)
    this.name = 'ApiError'
    this.code = code
    this.status = ERROR_CODES[code]
    this.errors = errors
    this.extras = extras
  }
}

/** The body of an error: ApiErrorBody, plus the call's own fields after it when it has any. */
export function toErrorBody(
  code: ErrorCode,
  description: string,
  errors?: FieldError[],
  extras?: ErrorBodyExtras,
): ApiErrorBody {
  const body: ApiErrorBody = errors
    ? { code, title: TITLES[code], description, errors }
    : { code, title: TITLES[code], description }
  return extras ? { ...extras, ...body } : body
}

export function notFound(what = 'Resource'): ApiError {
  return new ApiError('resource_not_found', `${what} not found`)
}
