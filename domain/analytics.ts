/**
 * Analytics events of the three spec documents (issue 15 item 7): the interface reports a few
 * choices a person makes (spec/results.md §7 'Analytics events sent', spec/setup.md §7), the
 * server stores them and provider members read them. Nothing is sent for a user who opted out.
 */
import * as v from 'valibot'

const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2 ** 31 - 1))
const label = v.pipe(v.string(), v.maxLength(100))
const finite = v.pipe(v.number(), v.finite())

/** Each event's name and the properties it carries. */
const EVENT_PROPERTIES = {
  'ui_output-quantity_changed': v.strictObject({
    quantity: label,
    outputNo: v.pipe(v.number(), v.integer(), v.minValue(0)),
    simulationId: id,
  }),
  'ui_dataset-reduction_changed': v.strictObject({
    pointcloudReduction: v.union([label, finite]),
    meshReduction: v.union([label, finite]),
    simulationId: id,
  }),
  'ui_project-view_changed': v.strictObject({ view: v.picklist(['own', 'all']) }),
  'ui_mesh-resolution-value_changed': v.strictObject({ value: finite }),
  ui_simulation_started: v.strictObject({ simulationId: v.optional(id) }),
  'ui_discretize-button_clicked': v.strictObject({ simulationId: v.optional(id) }),
} as const

/** The analytics event names, as the spec writes them. */
export const ANALYTICS_EVENT_NAMES = Object.keys(EVENT_PROPERTIES) as AnalyticsEventName[]
/** One analytics event name. */
export type AnalyticsEventName = keyof typeof EVENT_PROPERTIES

/** The properties of event `N`. */
export type AnalyticsProperties<N extends AnalyticsEventName> = v.InferOutput<
  (typeof EVENT_PROPERTIES)[N]
>

/** One event as the interface sends it: name, its properties, when it happened. */
export const AnalyticsEventSchema = v.variant(
  'name',
  (Object.keys(EVENT_PROPERTIES) as AnalyticsEventName[]).map((name) =>
    v.strictObject({
      name: v.literal(name),
      properties: EVENT_PROPERTIES[name],
      occurredAt: v.pipe(v.string(), v.isoTimestamp()),
    }),
  ),
)
/** One analytics event (name with its properties). */
export type AnalyticsEvent = {
  [N in AnalyticsEventName]: { name: N; properties: AnalyticsProperties<N>; occurredAt: string }
}[AnalyticsEventName]

/** The most events one POST /analytics/events carries. */
export const ANALYTICS_BATCH_MAX = 100

/** POST /analytics/events body. */
export const AnalyticsBatchSchema = v.strictObject({
  events: v.pipe(v.array(AnalyticsEventSchema), v.minLength(1), v.maxLength(ANALYTICS_BATCH_MAX)),
})

/** The user's choice: opted out means the interface sends nothing and the server keeps nothing. */
export const AnalyticsPreferenceSchema = v.strictObject({ optOut: v.boolean() })
/** The analytics preference. */
export type AnalyticsPreference = v.InferOutput<typeof AnalyticsPreferenceSchema>

/** A stored event as provider members read it. */
export const StoredAnalyticsEventSchema = v.object({
  id: v.number(),
  name: v.string(),
  properties: v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()])),
  occurredAt: v.string(),
  receivedAt: v.string(),
  userId: v.nullable(v.number()),
  organizationId: v.number(),
})
/** A stored event. */
export type StoredAnalyticsEvent = v.InferOutput<typeof StoredAnalyticsEventSchema>

/** Per event name: how often it was sent and by how many users since the start date. */
export const AnalyticsSummaryRowSchema = v.object({
  name: v.string(),
  count: v.number(),
  users: v.number(),
})
/** One row of the analytics summary. */
export type AnalyticsSummaryRow = v.InferOutput<typeof AnalyticsSummaryRowSchema>

/** The most rows one page of GET /admin/analytics/events holds (the export pages through). */
export const ANALYTICS_MAX_PAGE_LIMIT = 1000

const intFromQuery = (min: number, max: number) =>
  v.pipe(
    v.union([v.string(), v.number()]),
    v.transform(Number),
    v.number(),
    v.integer(),
    v.minValue(min),
    v.maxValue(max),
  )
const isoDate = v.pipe(
  v.string(),
  v.check((text) => !Number.isNaN(Date.parse(text)), 'Expected a date'),
)

/** GET /admin/analytics/events query: newest first, optionally of one event since a date. */
export const AnalyticsEventQuerySchema = v.strictObject({
  name: v.optional(v.picklist(Object.keys(EVENT_PROPERTIES) as AnalyticsEventName[])),
  startDate: v.optional(isoDate),
  pageLimit: v.optional(intFromQuery(1, ANALYTICS_MAX_PAGE_LIMIT), 100),
  pageNumber: v.optional(intFromQuery(1, 1_000_000), 1),
})

/** GET /admin/analytics/summary query. */
export const AnalyticsSummaryQuerySchema = v.strictObject({ startDate: v.optional(isoDate) })

/** The export's file name. */
export const ANALYTICS_CSV_NAME = 'analytics_events.csv'

function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** analytics_events.csv: one row per event, its properties as JSON, times in ISO 8601 (UTC). */
export function analyticsEventsCsv(events: readonly StoredAnalyticsEvent[]): string {
  const header = ['Event', 'Properties', 'Occurred at', 'Received at', 'User', 'Organization']
  const rows = events.map((event) => [
    event.name,
    JSON.stringify(event.properties),
    event.occurredAt,
    event.receivedAt,
    event.userId === null ? '' : String(event.userId),
    String(event.organizationId),
  ])
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'
}
