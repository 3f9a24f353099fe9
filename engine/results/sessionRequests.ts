/**
 * The results session's requests (engine/results/ResultsSession.ts): ids, the requests waiting for
 * their answers (queued until the session opens), one-answer asks, streams with cancel, and
 * failing them when the socket drops.
 */
import type { ResultsClientFrame, ResultsServerFrame } from '../../domain/resultsProtocol.ts'
import {
  OPEN,
  ResultsSessionError,
  SESSION_ERRORS,
  type IncomingFrame,
  type PendingRequest,
  type RequestBody,
  type ResultsSocketLike,
  type ServerFrameOf,
  type SessionStatus,
  type StreamHandle,
} from './sessionTypes.ts'

/** What the requests need of the session. */
export interface RequestHooks {
  status(): SessionStatus
  socket(): ResultsSocketLike | null
  onUnexpected(reason: string): void
}

/** The requests of one session, across its sockets. */
export class SessionRequests {
  readonly #hooks: RequestHooks
  #nextRequestId = 1
  #pending = new Map<number, PendingRequest>()

  constructor(hooks: RequestHooks) {
    this.#hooks = hooks
  }

  takeRequestId(): number {
    return this.#nextRequestId++
  }

  ask<T extends ResultsClientFrame['type'], R extends ResultsServerFrame['type']>(
    type: T,
    body: RequestBody<T>,
    replyType: R,
  ): Promise<ServerFrameOf<R>> {
    return new Promise((resolve, reject) => {
      const frame = { ...body, type, requestId: this.takeRequestId() } as ResultsClientFrame
      this.enqueue(frame, {
        receive: ({ header }) => {
          if (header.type !== replyType) return this.unexpectedReply(header, reject)
          resolve(header as ServerFrameOf<R>)
          return true
        },
        fail: reject,
      })
    })
  }

  /** An error frame fails the request; any other stray reply is logged and ignored. */
  unexpectedReply(header: ResultsServerFrame, reject: (error: ResultsSessionError) => void) {
    if (header.type === 'error') {
      reject(new ResultsSessionError(header.message))
      return true
    }
    this.#hooks.onUnexpected(`Unexpected ${header.type} for request ${header.requestId}`)
    return false
  }

  stream<End>(
    frame: ResultsClientFrame,
    cancelledEnd: End,
    handle: (frame: IncomingFrame, finish: (end: End) => void) => boolean | null,
  ): StreamHandle<End> {
    let finish: (end: End) => void = () => undefined
    let fail: (error: ResultsSessionError) => void = () => undefined
    const done = new Promise<End>((resolve, reject) => {
      finish = resolve
      fail = reject
    })
    this.enqueue(frame, {
      receive: (incoming) => {
        const complete = handle(incoming, finish)
        if (complete !== null) return complete
        return this.unexpectedReply(incoming.header, fail)
      },
      fail: (error) => fail(error),
      abandon: () => finish(cancelledEnd),
    })
    return { requestId: frame.requestId, done, cancel: () => this.cancel(frame.requestId) }
  }

  async cancel(targetRequestId: number): Promise<boolean> {
    const target = this.#pending.get(targetRequestId)
    if (!target) return false
    if (!target.sent) {
      this.#pending.delete(targetRequestId)
      target.abandon?.()
      return true
    }
    const reply = await this.ask('cancel', { targetRequestId }, 'cancel.resp')
    return reply.canceled
  }

  enqueue(frame: ResultsClientFrame, request: Omit<PendingRequest, 'frame' | 'sent'>): void {
    if (
      this.#hooks.status() === 'closed' ||
      this.#hooks.status() === 'failed' ||
      this.#hooks.status() === 'idle'
    ) {
      request.fail(
        new ResultsSessionError(
          this.#hooks.status() === 'failed' ? SESSION_ERRORS.gaveUp : SESSION_ERRORS.closed,
        ),
      )
      return
    }
    const pending: PendingRequest = { ...request, frame, sent: false }
    this.#pending.set(frame.requestId, pending)
    if (this.#hooks.status() === 'open') this.#send(pending)
  }

  #send(pending: PendingRequest): void {
    const socket = this.#hooks.socket()
    if (!socket || socket.readyState !== OPEN) return
    pending.sent = true
    socket.send(JSON.stringify(pending.frame))
  }

  /** Fails requests in flight (all of them, or only those already sent). */
  failPending(message: string, sentOnly: boolean): void {
    for (const [requestId, pending] of [...this.#pending]) {
      if (sentOnly && !pending.sent) continue
      this.#pending.delete(requestId)
      pending.fail(new ResultsSessionError(message))
    }
  }

  /** Sends the requests queued while the session was not open (it just opened). */
  sendQueued(): void {
    for (const pending of [...this.#pending.values()]) if (!pending.sent) this.#send(pending)
  }

  /** Hands a frame to its request; a frame of no request (a late one) is reported. */
  route(requestId: number, incoming: IncomingFrame): void {
    const pending = this.#pending.get(requestId)
    if (!pending) {
      // Late frames of a cancelled or failed request.
      this.#hooks.onUnexpected(`${incoming.header.type} for unknown request ${requestId}`)
      return
    }
    if (pending.receive(incoming)) this.#pending.delete(requestId)
  }
}
