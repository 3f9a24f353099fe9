/**
 * The results-session client's contract (engine/results/ResultsSession.ts implements it): the
 * socket and timers it is given, its status and snapshot, errors, close codes, stream handles and
 * the frames of its streams.
 */
import {
  decodeBinaryFrame,
  parseResultsServerFrame,
  type DecodedBinaryFrame,
  type ResultsClientFrame,
  type ResultsServerFrame,
} from '../../domain/resultsProtocol.ts'
import type { ConnectionToastState } from '../../domain/liveProtocol.ts'

/** The part of a WebSocket the session uses (the browser's, or the `ws` package's in Node). */
export interface ResultsSocketLike {
  readyState: number
  binaryType: string
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: { code: number }) => void) | null
  onerror: ((event: unknown) => void) | null
}

/** Timers the session uses; tests pass fake ones. */
export interface SessionTimers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** Where the session is: not started, opening, open, waiting to reconnect, closed, given up. */
export const SESSION_STATUSES = [
  'idle',
  'connecting',
  'open',
  'reconnecting',
  'closed',
  'failed',
] as const
/** One session status. */
export type SessionStatus = (typeof SESSION_STATUSES)[number]

/** What the UI reads about the connection. */
export interface SessionSnapshot {
  status: SessionStatus
  /** Reconnect attempts made since the session was last open. */
  attempts: number
  /** How many times the session has opened (grows on every reconnect). */
  opens: number
  /** The latest connection toast event; `seq` grows with each, so equal events still show. */
  toast: { state: ConnectionToastState; seq: number } | null
}

/** Options of {@link ResultsSession}. */
export interface ResultsSessionOptions {
  /** ws(s)://host/ws/results */
  url: string
  createSocket: (url: string) => ResultsSocketLike
  /** The current access token; null keeps the session closed (logged out). */
  readToken: () => string | null
  timers?: SessionTimers
  /** Frames that cannot be read or belong to no request: logged, never thrown. */
  onUnexpected?: (reason: string) => void
  /** The server refused the token (close 4401): a chance to refresh it before the next try. */
  onUnauthorized?: () => void
}

/** A request that could not be answered: the socket dropped, the session closed or the server said no. */
export class ResultsSessionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ResultsSessionError'
  }
}

/** Unanswered heartbeats (0.5 s apart after the first overdue one) before the socket is replaced. */
export const HEARTBEAT_MAX_MISSED = 6

/** Close code we use for a socket the heartbeat found dead (not clean: reconnects). */
export const HEARTBEAT_TIMEOUT_CLOSE = 4000

/** The server's close code for a missing or refused access token. */
export const UNAUTHORIZED_CLOSE = 4401

/** Our own clean close (stopped, logged out, page hidden too long): no reconnect. */
export const CLEAN_CLOSE = 1000
/** WebSocket.OPEN */
export const OPEN = 1

/** Why requests in flight fail. */
export const SESSION_ERRORS = {
  dropped: 'The connection to the results server was lost.',
  closed: 'The results session was closed.',
  hidden: 'The results session was closed while the page was hidden.',
  gaveUp: 'The results server could not be reached.',
  loggedOut: 'Log in to load results.',
} as const

/** The server frame of one type. */
export type ServerFrameOf<T extends ResultsServerFrame['type']> = Extract<
  ResultsServerFrame,
  { type: T }
>

/** Frames of a stats.calc stream. */
export type StatsCalcFrame = ServerFrameOf<
  | 'stats.calc.output_statistic'
  | 'stats.calc.all_output_statistic'
  | 'stats.calc.error'
  | 'stats.calc.done'
>
/** How a stats.calc ended. */
export type StatsCalcEnd = ServerFrameOf<'stats.calc.done'>['state']

/** Frames of a fetch.data stream: binary frames decoded (payload is a view), the rest as JSON. */
export type DataStreamFrame = DecodedBinaryFrame | { header: ResultsServerFrame; payload: null }

/** A running stream. */
export interface StreamHandle<End> {
  requestId: number
  /** Resolves with how the stream ended; rejects with a ResultsSessionError. */
  done: Promise<End>
  /** Asks the server to stop; resolves with whether it was still running. */
  cancel(): Promise<boolean>
}

/** fetch.info of several outputs: what each holds, and the outputs that do not exist. */
export interface InfoResult {
  infos: ServerFrameOf<'fetch.info.resp'>[]
  missingOutputs: number[]
}

/** A frame as received: its header, and the binary payload (a view) if any. */
export type IncomingFrame = { header: ResultsServerFrame; payload: Uint8Array | null }

/** A request waiting for its answer (or queued until the session opens). */
export interface PendingRequest {
  frame: ResultsClientFrame
  sent: boolean
  /** Handles one frame; returns true when the request is complete. */
  receive(frame: IncomingFrame): boolean
  fail(error: ResultsSessionError): void
  /** Ends a request that was never sent (cancelled while queued). */
  abandon?(): void
}

/** A request frame without its type and id. */
export type RequestBody<T extends ResultsClientFrame['type']> = Omit<
  Extract<ResultsClientFrame, { type: T }>,
  'type' | 'requestId'
>

/** setTimeout and clearTimeout of the global scope. */
export const DEFAULT_TIMERS: SessionTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** The message of an error, whatever was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A socket message as a frame: JSON text, or a binary frame (header and payload view). */
export function decodeIncomingFrame(data: unknown): IncomingFrame {
  if (typeof data === 'string') return { header: parseResultsServerFrame(data), payload: null }
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    const bytes =
      data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    const decoded = decodeBinaryFrame(bytes)
    return { header: decoded.header, payload: decoded.payload }
  }
  throw new Error(`unsupported message of type ${typeof data}`)
}
