import {
  UNEXPECTED_STATUS_MESSAGE,
  errorClassForStatus,
  messageForError,
  type ApiErrorBody,
  type ErrorClass,
} from '../../domain/errors.ts'

/** A reply whose body does not match the route's response schema. */
export const UNEXPECTED_RESPONSE_MESSAGE = 'The API returned an unexpected response'
/** fetch itself failed: no reply at all. */
export const NETWORK_ERROR_MESSAGE =
  'The server could not be reached. Please check your connection.'

/** Status of an ApiError for a call that got no HTTP reply. */
export const NETWORK_ERROR_STATUS = 0

interface ApiErrorOptions {
  /** Overrides the message derived from status and body. */
  message?: string
  cause?: unknown
}

/**
 * A failed API call: any status other than the route's expected one, a reply that breaks its schema,
 * or no reply (status 0). `message` is what a person should read (spec/account.md §8).
 */
export class ApiError extends Error {
  readonly status: number
  readonly title: string
  readonly body: ApiErrorBody | undefined
  readonly errorClass: ErrorClass

  constructor(status: number, body: ApiErrorBody | undefined, options: ApiErrorOptions = {}) {
    super(options.message ?? messageForError(status, body), { cause: options.cause })
    this.name = 'ApiError'
    this.status = status
    this.body = body
    this.title = body?.title ?? UNEXPECTED_STATUS_MESSAGE
    this.errorClass = errorClassForStatus(status)
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}

/** The text to show for any thrown value. */
export function messageOf(error: unknown, fallback = 'An error occurred'): string {
  if (error instanceof Error && error.message) return error.message
  return fallback
}
