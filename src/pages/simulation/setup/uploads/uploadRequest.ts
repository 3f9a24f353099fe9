import * as v from 'valibot'
import { ApiErrorBodySchema, SECURITY_RISK_MESSAGE } from '../../../../../domain/errors.ts'
import { API_PREFIX } from '../../../../../domain/rest.ts'
import {
  ApiError,
  NETWORK_ERROR_MESSAGE,
  NETWORK_ERROR_STATUS,
  UNEXPECTED_RESPONSE_MESSAGE,
  isApiError,
  messageOf,
} from '../../../../api/ApiError.ts'
import { callApi, tokenStore } from '../../../../api/index.ts'
import type { TokenStore } from '../../../../api/tokens.ts'

/*
 * Multipart uploads with upload progress. fetch() reports no upload progress, so these go through
 * XMLHttpRequest, with the bearer token of the API client's token store. A 401 renews the session
 * the way every API call does (one authenticated call through the client, which refreshes the
 * tokens once for all callers and sends the person to the login page if that fails) and retries.
 */

/** What an upload needs of XMLHttpRequest (the browser's, or a test double). */
export interface UploadXhr {
  open(method: string, url: string): void
  setRequestHeader(name: string, value: string): void
  send(body: FormData): void
  abort(): void
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null }
  onload: ((event: ProgressEvent) => void) | null
  onerror: ((event: ProgressEvent) => void) | null
  onabort: ((event: ProgressEvent) => void) | null
  readonly status: number
  readonly responseText: string
}

/** How uploads reach the server; tests replace the XHR. */
export interface UploadTransport {
  createXhr: () => UploadXhr
  tokens: Pick<TokenStore, 'read'>
  /** Renews the access token after a 401 (a call through the API client refreshes it). */
  renewToken: () => Promise<unknown>
}

/** The browser's transport. */
export const browserTransport: UploadTransport = {
  createXhr: () => new XMLHttpRequest(),
  tokens: tokenStore,
  renewToken: () => callApi('currentUser', {}, { redirectOnAuthFailure: true }),
}

export interface UploadRequest {
  method: 'POST' | 'PUT'
  /** Under the API prefix: '/client-upload/uploads', '/datatables/4/csv'. */
  path: string
  form: FormData
  expectedStatus: number
  /** Fraction of the body sent, 0 … 1. */
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
}

interface RawReply {
  status: number
  text: string
}

function sendOnce(
  request: UploadRequest,
  transport: UploadTransport,
  accessToken: string | null,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const xhr = transport.createXhr()
    const onAbort = () => xhr.abort()
    request.signal?.addEventListener('abort', onAbort, { once: true })
    const settle = () => request.signal?.removeEventListener('abort', onAbort)
    xhr.open(request.method, `${API_PREFIX}${request.path}`)
    xhr.setRequestHeader('Accept', 'application/json')
    if (accessToken) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        request.onProgress?.(Math.min(1, event.loaded / event.total))
    }
    xhr.onload = () => {
      settle()
      resolve({ status: xhr.status, text: xhr.responseText })
    }
    xhr.onerror = () => {
      settle()
      reject(new ApiError(NETWORK_ERROR_STATUS, undefined, { message: NETWORK_ERROR_MESSAGE }))
    }
    xhr.onabort = () => {
      settle()
      reject(new DOMException('The upload was cancelled.', 'AbortError'))
    }
    xhr.send(request.form)
  })
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

/**
 * Sends a multipart upload and returns the parsed reply of the expected status; any other status
 * throws an ApiError with the server's error body (its field errors included).
 */
export async function sendUpload(
  request: UploadRequest,
  transport: UploadTransport = browserTransport,
): Promise<unknown> {
  const used = transport.tokens.read()?.accessToken ?? null
  let reply = await sendOnce(request, transport, used)
  if (reply.status === 401) {
    await transport.renewToken()
    const renewed = transport.tokens.read()?.accessToken ?? null
    if (renewed !== null && renewed !== used) {
      request.onProgress?.(0)
      reply = await sendOnce(request, transport, renewed)
    }
  }
  const body = parseJson(reply.text)
  if (reply.status === request.expectedStatus) {
    if (body === undefined)
      throw new ApiError(reply.status, undefined, { message: UNEXPECTED_RESPONSE_MESSAGE })
    return body
  }
  const parsed = v.safeParse(ApiErrorBodySchema, body)
  throw new ApiError(reply.status, parsed.success ? parsed.output : undefined)
}

/** Parses a reply with its schema; a reply that breaks it is 'The API returned an unexpected response'. */
export function parseReply<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, body)
  if (!parsed.success)
    throw new ApiError(200, undefined, {
      message: UNEXPECTED_RESPONSE_MESSAGE,
      cause: parsed.issues,
    })
  return parsed.output
}

/**
 * What a failed upload's toast says under 'The upload of {file} failed': the security-risk text
 * for a 503, the size limit of a 413, the server's reason (a broken STL) otherwise.
 */
export function uploadFailureText(error: unknown): string {
  if (isApiError(error) && error.status === 503) return SECURITY_RISK_MESSAGE
  if (isApiError(error) && error.body) return error.body.description
  return messageOf(error)
}

/** True for an upload the person cancelled. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}
