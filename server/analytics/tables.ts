import type { Generated } from 'kysely'
import type { Flag } from '../db/schema.ts'

/** One analytics event the interface sent (migration 0018_analytics). */
export interface AnalyticsEventsTable {
  id: Generated<number>
  /** The sender; null once the user is deleted. */
  user_id: number | null
  /** The organization the sender acted in. */
  organization_id: number
  /** An ANALYTICS_EVENT_NAMES value. */
  name: string
  /** The event's properties as JSON. */
  properties: string
  /** When it happened in the browser (ISO 8601). */
  occurred_at: string
  /** When the server stored it (ISO 8601). */
  received_at: string
}

/** A user's analytics choice; no row: not opted out. */
export interface AnalyticsPreferencesTable {
  user_id: number
  opted_out: Flag
  updated_at: string
}

