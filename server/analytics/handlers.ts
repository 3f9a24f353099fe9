import { hasPermission } from '../../domain/account.ts'
import type { StoredAnalyticsEvent } from '../../domain/analytics.ts'
import { ApiError } from '../api/apiError.ts'
import type { AuthedContext, RouteHandler } from '../api/context.ts'

/** Provider members (ACCESS_GRANT_SELECTION) read the analytics of every organization. */
function requireProviderMember({ user }: AuthedContext) {
  if (!hasPermission(user.role, 'ACCESS_GRANT_SELECTION'))
    throw new ApiError('forbidden', 'Only provider members read analytics')
}

async function isOptedOut({ db, user }: AuthedContext): Promise<boolean> {
  const row = await db
    .selectFrom('analytics_preferences')
    .select('opted_out')
    .where('user_id', '=', user.id)
    .executeTakeFirst()
  return row?.opted_out === 1
}

/** POST /analytics/events: stores the batch in the organization the user acts in; none when opted out. */
export const trackAnalytics: RouteHandler<'trackAnalytics'> = async ({ body }, context) => {
  if (await isOptedOut(context)) return { stored: 0 }
  const receivedAt = context.clock.nowIso()
  await context.db
    .insertInto('analytics_events')
    .values(
      body.events.map((event) => ({
        user_id: context.user.id,
        organization_id: context.user.organization_id,
        name: event.name,
        properties: JSON.stringify(event.properties),
        occurred_at: event.occurredAt,
        received_at: receivedAt,
      })),
    )
    .execute()
  return { stored: body.events.length }
}

/** GET /analytics/preference. */
export const analyticsPreference: RouteHandler<'analyticsPreference'> = async (
  _request,
  context,
) => ({
  optOut: await isOptedOut(context),
})

/** PUT /analytics/preference: opting out also deletes nothing already stored, it stops new events. */
export const updateAnalyticsPreference: RouteHandler<'updateAnalyticsPreference'> = async (
  { body },
  { db, user, clock },
) => {
  const values = { user_id: user.id, opted_out: body.optOut ? 1 : 0, updated_at: clock.nowIso() }
  await db
    .insertInto('analytics_preferences')
    .values(values)
    .onConflict((conflict) =>
      conflict
        .column('user_id')
        .doUpdateSet({ opted_out: values.opted_out, updated_at: values.updated_at }),
    )
    .execute()
  return { optOut: body.optOut }
}

function readProperties(text: string): StoredAnalyticsEvent['properties'] {
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string | number | boolean | null] =>
          entry[1] === null || ['string', 'number', 'boolean'].includes(typeof entry[1]),
      ),
    )
  } catch {
    return {}
  }
}

/** GET /admin/analytics/events: newest first, by name and start date, in pages. */
export const adminAnalyticsEvents: RouteHandler<'adminAnalyticsEvents'> = async (
  { query },
  context,
) => {
  requireProviderMember(context)
  let select = context.db.selectFrom('analytics_events')
  if (query.name !== undefined) select = select.where('name', '=', query.name)
  if (query.startDate !== undefined)
    select = select.where('received_at', '>=', new Date(query.startDate).toISOString())
  const total = await select.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst()
  const resultCount = Number(total?.count ?? 0)
  const rows = await select
    .selectAll()
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.pageLimit)
    .offset((query.pageNumber - 1) * query.pageLimit)
    .execute()
  return {
    results: rows.map((row) => ({
      id: row.id,
      name: row.name,
      properties: readProperties(row.properties),
      occurredAt: row.occurred_at,
      receivedAt: row.received_at,
      userId: row.user_id,
      organizationId: row.organization_id,
    })),
    resultCount,
    pageCount: Math.ceil(resultCount / query.pageLimit),
  }
}

/** GET /admin/analytics/summary: per event, how often and by how many users, most frequent first. */
export const adminAnalyticsSummary: RouteHandler<'adminAnalyticsSummary'> = async (
  { query },
  context,
) => {
  requireProviderMember(context)
  let select = context.db.selectFrom('analytics_events')
  if (query.startDate !== undefined)
    select = select.where('received_at', '>=', new Date(query.startDate).toISOString())
  const rows = await select
    .select((eb) => [
      'name',
      eb.fn.countAll().as('count'),
      eb.fn.count('user_id').distinct().as('users'),
    ])
    .groupBy('name')
    .execute()
  return rows
    .map((row) => ({ name: row.name, count: Number(row.count), users: Number(row.users) }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
}
