/**
 * The live channel (websocket /ws/live; spec/results.md §4 "Connection toast", §7 "Realtime
 * channels"; spec/account.md §4): store updates (SET / REPLACE / DEL), workload messages and
 * heartbeats, plus the client's reconnect policy. Every frame is JSON tagged by `type`.
 */
import * as v from 'valibot'
import { BACKOFF, CONNECTION_RETRIES, HEARTBEAT_MS } from './constants.ts'

/** Bumped on any incompatible change of the frames below. */
export const PROTOCOL_VERSION = 1

/** Store operations the client applies; any other is logged as unexpected. */
export const STORE_OPERATIONS = ['SET', 'REPLACE', 'DEL'] as const
/** One store operation. */
export type StoreOperation = (typeof STORE_OPERATIONS)[number]

/**
 * A change to the client's store of server entities: SET merges `value` at `path`, REPLACE
 * swaps the whole entry, DEL removes it. `updateId` grows by one per frame so gaps show up.
 */
export const StoreUpdateFrameSchema = v.object({
  type: v.literal('StoreUpdate'),
  updateId: v.pipe(v.number(), v.integer(), v.minValue(0)),
  operation: v.picklist(STORE_OPERATIONS),
  /** Entity path, e.g. ['simulations', '12'] or ['jobs', '7']. */
  path: v.array(v.string()),
  value: v.optional(v.unknown()),
})
/** A store update. */
export type StoreUpdateFrame = v.InferOutput<typeof StoreUpdateFrameSchema>

/** Server → client: the connection is alive (and whether a workload is attached). */
export const WorkloadHeartbeatSchema = v.object({
  type: v.literal('WorkloadHeartbeat'),
  workloadConnected: v.boolean(),
  sentAt: v.string(),
})
/** A solver workload started for a simulation. */
export const NewWorkloadSchema = v.object({
  type: v.literal('NewWorkload'),
  workloadId: v.string(),
  simulationId: v.number(),
})
/** No workload runs for the subscribed simulation. */
export const NoWorkloadSchema = v.object({
  type: v.literal('NoWorkload'),
  simulationId: v.number(),
})
/** The workload finished starting and reports logs from now on. */
export const WorkloadInitializedSchema = v.object({
  type: v.literal('WorkloadInitialized'),
  workloadId: v.string(),
  simulationId: v.number(),
})
/** Credits moved (a run consumed credits, credits were bought …). */
export const TransactionMessageSchema = v.object({
  type: v.literal('TransactionMessage'),
  sequenceId: v.number(),
  kind: v.string(),
  credits: v.number(),
  organizationCredits: v.number(),
})
/** The key the client uses to reach its workload's instance (e.g. a VM or solver node). */
export const InstanceKeyMessageSchema = v.object({
  type: v.literal('InstanceKeyMessage'),
  workloadId: v.string(),
  instanceKey: v.string(),
})
/** The server accepted the Hello (or refuses it with a reason before closing). */
export const WelcomeFrameSchema = v.object({
  type: v.literal('Welcome'),
  protocolVersion: v.number(),
  lastUpdateId: v.pipe(v.number(), v.integer(), v.minValue(0)),
})

/** Every server → client frame. */
export const LiveServerFrameSchema = v.variant('type', [
  WelcomeFrameSchema,
  StoreUpdateFrameSchema,
  WorkloadHeartbeatSchema,
  NewWorkloadSchema,
  NoWorkloadSchema,
  WorkloadInitializedSchema,
  TransactionMessageSchema,
  InstanceKeyMessageSchema,
])
/** Every server → client frame. */
export type LiveServerFrame = v.InferOutput<typeof LiveServerFrameSchema>

/** Names of the workload messages. */
export const WORKLOAD_MESSAGE_TYPES = [
  'WorkloadHeartbeat',
  'NewWorkload',
  'NoWorkload',
  'WorkloadInitialized',
  'TransactionMessage',
  'InstanceKeyMessage',
] as const

/** Client → server: first frame, carries the bearer token. */
export const HelloFrameSchema = v.object({
  type: v.literal('Hello'),
  protocolVersion: v.number(),
  accessToken: v.string(),
})
/** Client → server: follow (or stop following) a simulation's updates. */
export const SubscribeFrameSchema = v.object({
  type: v.picklist(['Subscribe', 'Unsubscribe']),
  simulationId: v.number(),
})
/** Client → server heartbeat. */
export const HeartbeatFrameSchema = v.object({ type: v.literal('Heartbeat') })

/** Every client → server frame. */
export const LiveClientFrameSchema = v.variant('type', [
  HelloFrameSchema,
  SubscribeFrameSchema,
  HeartbeatFrameSchema,
])
/** Every client → server frame. */
export type LiveClientFrame = v.InferOutput<typeof LiveClientFrameSchema>

/** A parsed incoming frame, or why it was not understood (to be logged as unexpected). */
export type LiveFrameParse = { ok: true; frame: LiveServerFrame } | { ok: false; reason: string }

/** Parses a server frame from its JSON text; unknown operations and types come back as not ok. */
export function parseLiveServerFrame(text: string): LiveFrameParse {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { ok: false, reason: 'not JSON' }
  }
  const result = v.safeParse(LiveServerFrameSchema, raw)
  if (result.success) return { ok: true, frame: result.output }
  const first = result.issues[0]
  const path = first.path?.map((item) => String(item.key)).join('.') ?? ''
  return { ok: false, reason: path ? `${path}: ${first.message}` : first.message }
}

// ── Reconnect policy ────────────────────────────────────────────────────────────────────────────

/** Close codes after which the client does not reconnect (normal closure, logout). */
export const CLEAN_CLOSE_CODES = [1000, 3000] as const

/** Reconnect delay for the n-th attempt (0-based): min(1 s × 2^n, 30 s). */
export function delayForAttempt(attempt: number): number {
  // NaN and negative attempts count as the first; the exponent is bounded so 2^n stays finite.
  const n = Number.isNaN(attempt) ? 0 : Math.min(Math.max(0, Math.floor(attempt)), 30)
  return Math.min(BACKOFF.initialMs * 2 ** n, BACKOFF.maxMs)
}

/** Whether to try again after a close: not after a clean close, and at most 50 attempts. */
export function shouldReconnect(closeCode: number, attemptsMade: number): boolean {
  if ((CLEAN_CLOSE_CODES as readonly number[]).includes(closeCode)) return false
  return attemptsMade < CONNECTION_RETRIES
}

/** Heartbeat period: 10 s with a workload connected, 0.5 s otherwise. */
export function heartbeatIntervalMs(workloadConnected: boolean): number {
  return workloadConnected ? HEARTBEAT_MS.workloadConnected : HEARTBEAT_MS.otherwise
}

/** Connection states the connection toast shows. */
export const CONNECTION_TOAST_STATES = ['connected', 'reconnecting', 'reconnected'] as const
/** One connection toast state. */
export type ConnectionToastState = (typeof CONNECTION_TOAST_STATES)[number]

/**
 * The toast for a connection change: 'reconnecting' when an open connection drops,
 * 'reconnected' when it comes back after a drop, 'connected' on the first open.
 */
export function connectionToastState(
  event: 'open' | 'drop',
  hadDropped: boolean,
): ConnectionToastState {
  if (event === 'drop') return 'reconnecting'
  return hadDropped ? 'reconnected' : 'connected'
}
