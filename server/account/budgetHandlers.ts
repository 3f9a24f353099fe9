import { hasPermission, type UserRef } from '../../domain/account.ts'
import {
  CREDIT_TRANSACTION_KINDS,
  searchCreditSequences,
  sortCreditSequences,
  utcDay,
  type CreditSequence,
  type CreditTransactionKind,
} from '../../domain/accountBudget.ts'
import { estimatedBudgetHours } from '../../domain/constants.ts'
import { ApiError } from '../api/apiError.ts'
import type { AuthedContext, RouteHandler } from '../api/context.ts'
import { toOrganization, toUserRef } from '../api/views.ts'
import { vmHoursLeft } from '../vms/vmRecords.ts'

/** Whether the caller sees who issued each transaction (user column, chart grouped by member). */
function seesUsers({ user }: AuthedContext): boolean {
  return hasPermission(user.role, 'CREDITS_VIEW_SEQUENCE_USERS')
}

/** The organization's users by id, for the issuers (deleted users are gone: no issuer). */
async function usersById({ db, user }: AuthedContext): Promise<Map<number, UserRef>> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'avatar_id'])
    .where('organization_id', '=', user.organization_id)
    .execute()
  return new Map(rows.map((row) => [row.id, toUserRef(row)]))
}

/**
 * The organization's transactions from `startIso` on (up to `endIso`), newest first. A run's
 * transaction names no issuer of its own: it is the simulation's owner's consumption.
 */
async function organizationSequences(
  context: AuthedContext,
  startIso: string | undefined,
  endIso?: string,
): Promise<CreditSequence[]> {
  let query = context.db
    .selectFrom('credit_transactions as t')
    .leftJoin('simulations as s', 's.id', 't.simulation_id')
    .select([
      't.id',
      't.kind',
      't.credits',
      't.simulation_hours',
      't.simulation_name',
      't.note',
      't.issuer_id',
      't.updated_at',
      's.creator_id',
    ])
    .where('t.organization_id', '=', context.user.organization_id)
  if (startIso !== undefined) query = query.where('t.updated_at', '>=', startIso)
  if (endIso !== undefined) query = query.where('t.updated_at', '<=', endIso)
  const rows = await query.orderBy('t.updated_at', 'desc').orderBy('t.id', 'desc').execute()
  const users = seesUsers(context) ? await usersById(context) : null
  return rows.map((row) => {
    const issuerId = row.issuer_id ?? row.creator_id ?? null
    const issuer = users && issuerId !== null ? (users.get(issuerId) ?? null) : null
    return {
      id: row.id,
      kind: (CREDIT_TRANSACTION_KINDS as readonly string[]).includes(row.kind)
        ? (row.kind as CreditTransactionKind)
        : 'other',
      updatedAt: row.updated_at,
      credits: Number(row.credits),
      simulationHours: Number(row.simulation_hours),
      simulationName: row.simulation_name,
      note: row.note,
      issuer,
      issuerId: issuer ? issuer.id : null,
    }
  })
}

/** Normalizes a query date to the ISO form the rows store, so text comparison orders them. */
function isoOf(date: string): string {
  return new Date(date).toISOString()
}

/** GET /credits/budget: credits, the hours they buy (÷ 120), VM hours left, the subscription. */
export const getBudget: RouteHandler<'budget'> = async (_request, { db, user, clock }) => {
  const row = await db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', user.organization_id)
    .executeTakeFirstOrThrow()
  const organization = toOrganization(row)
  return {
    credits: organization.credits,
    simulationHours: estimatedBudgetHours(organization.credits),
    // The month's allowance less what the organization's VMs consumed (server/vms).
    vmHours: await vmHoursLeft(db, user.organization_id, clock.nowMs()),
    activeSubscription: organization.activeSubscription,
    // The identity provider connection of the organization (set by the provider); null: passwords.
    ssoConnection: row.sso_connection,
  }
}

/** GET /credits/sequences: one page of the transactions table, searched and sorted. */
export const listCreditSequences: RouteHandler<'creditSequences'> = async ({ query }, context) => {
  const all = await organizationSequences(
    context,
    query.startDate === undefined ? undefined : isoOf(query.startDate),
  )
  const found = sortCreditSequences(searchCreditSequences(all, query.q), query.orderBy, query.asc)
  const start = (query.pageNumber - 1) * query.pageLimit
  return {
    results: found.slice(start, start + query.pageLimit),
    resultCount: found.length,
    pageCount: Math.ceil(found.length / query.pageLimit),
  }
}

/**
 * GET /credits/history: the credits each run consumed, on the day of its transaction. Filtering by
 * another user needs CREDITS_VIEW_SEQUENCE_USERS (403); a user outside the organization is 404.
 */
export const getCreditHistory: RouteHandler<'creditHistory'> = async ({ query }, context) => {
  const { userId } = query
  if (userId !== undefined && userId !== context.user.id) {
    if (!seesUsers(context))
      throw new ApiError('forbidden', "You are not allowed to see other users' consumption")
    const member = await context.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .where('organization_id', '=', context.user.organization_id)
      .executeTakeFirst()
    if (!member) throw new ApiError('resource_not_found', 'User not found')
  }
  const sequences = await organizationSequences(
    context,
    isoOf(query.startDate),
    query.endDate === undefined ? undefined : isoOf(query.endDate),
  )
  const ownerOf = userId === undefined ? null : await ownerIds(context, sequences)
  return sequences
    .filter((sequence) => sequence.kind === 'simulation' && sequence.credits < 0)
    .filter((sequence) => ownerOf === null || ownerOf.get(sequence.id) === userId)
    .map((sequence) => ({
      credits: -sequence.credits,
      simulationHours: sequence.simulationHours,
      date: utcDay(sequence.updatedAt),
      sequenceId: sequence.id,
      issuer: sequence.issuer,
    }))
    .reverse()
}

/** Who each transaction belongs to (issuer, else the simulation's owner), whatever the caller sees. */
async function ownerIds(
  context: AuthedContext,
  sequences: readonly CreditSequence[],
): Promise<Map<number, number | null>> {
  if (sequences.length === 0) return new Map()
  const rows = await context.db
    .selectFrom('credit_transactions as t')
    .leftJoin('simulations as s', 's.id', 't.simulation_id')
    .select(['t.id', 't.issuer_id', 's.creator_id'])
    .where('t.organization_id', '=', context.user.organization_id)
    .where(
      't.id',
      'in',
      sequences.map((sequence) => sequence.id),
    )
    .execute()
  return new Map(rows.map((row) => [row.id, row.issuer_id ?? row.creator_id ?? null]))
}
