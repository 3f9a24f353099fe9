import type { JobEvents } from '../types.ts'
import { CHANNELS, type Notifier } from './notify.ts'

/*
 * A worker process's job events travel to the server as notifications on CHANNELS.live and are
 * replayed there on the live hub, so /ws/live tells them as it tells the server's own.
 */

type EventName = keyof JobEvents

const EVENT_NAMES = [
  'simulationChanged',
  'runLog',
  'outputWritten',
  'discretizationChanged',
  'workloadStarted',
  'workloadInitialized',
  'workloadEnded',
  'creditsConsumed',
] as const satisfies readonly EventName[]

// Every event of JobEvents is in the list (a new one must be added to travel).
type Missing = Exclude<EventName, (typeof EVENT_NAMES)[number]>
const everyEventListed: Missing extends never ? true : Missing = true
void everyEventListed

/** One job event on the wire. */
export interface LiveEventMessage {
  event: EventName
  args: unknown[]
}

/** Job events of a worker process: each becomes a notification, in the order they happen. */
export function createNotifyingEvents(notifier: Notifier): JobEvents {
  const send =
    (event: EventName) =>
    (...args: unknown[]) => {
      void notifier.notify(CHANNELS.live, { event, args } satisfies LiveEventMessage)
    }
  return Object.fromEntries(EVENT_NAMES.map((name) => [name, send(name)])) as unknown as JobEvents
}

/** Replays a notified event on the server's hub; anything malformed is ignored. */
export function replayLiveEvent(events: JobEvents, message: unknown): void {
  if (typeof message !== 'object' || message === null) return
  const { event, args } = message as Partial<LiveEventMessage>
  if (!EVENT_NAMES.some((name) => name === event) || !Array.isArray(args)) return
  const target = events as unknown as Record<EventName, (...values: unknown[]) => void>
  target[event as EventName](...args)
}
