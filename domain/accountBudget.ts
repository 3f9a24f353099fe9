/**
 * Budget and credits (spec/account.md §2 "Settings: budget", §3, §7, §9): the budget figures, the
 * credit transactions (GET /credits/sequences) and the credit history (GET /credits/history).
 */
import * as v from 'valibot'
import { SubscriptionSchema, UserRefSchema } from './account.ts'
import { CREDIT_DECIMALS } from './constants.ts'
import { formatDateTime } from './units.ts'

/** The budget figures (settings budget page, menu bar). */
export const BudgetSchema = v.object({
  credits: v.number(),
  simulationHours: v.number(),
  vmHours: v.number(),
  activeSubscription: v.nullable(SubscriptionSchema),
  ssoConnection: v.nullable(v.string()),
})
/** The budget figures. */
export type Budget = v.InferOutput<typeof BudgetSchema>

/** Kinds of credit transactions. */
export const CREDIT_TRANSACTION_KINDS = [
  'simulation',
  'credits_bought',
  'credits_bought_one_off',
  'credits_refunded',
  'other',
  'correction',
  'internal',
  'workshop',
] as const
/** One credit transaction kind. */
export type CreditTransactionKind = (typeof CREDIT_TRANSACTION_KINDS)[number]

/** One credit transaction (GET /credits/sequences). */
export const CreditSequenceSchema = v.object({
  id: v.number(),
  kind: v.picklist(CREDIT_TRANSACTION_KINDS),
  updatedAt: v.string(),
  credits: v.number(),
  simulationHours: v.number(),
  simulationName: v.nullable(v.string()),
  note: v.nullable(v.string()),
  issuer: v.nullable(UserRefSchema),
  issuerId: v.nullable(v.number()),
})
/** One credit transaction. */
export type CreditSequence = v.InferOutput<typeof CreditSequenceSchema>

/** One bar of the credit history chart (day granularity). */
export const CreditHistoryEntrySchema = v.object({
  /** Credits consumed (positive). */
  credits: v.number(),
  simulationHours: v.number(),
  /** The day, yyyy-MM-dd (UTC). */
  date: v.string(),
  sequenceId: v.number(),
  /** Who consumed them; null for a caller without CREDITS_VIEW_SEQUENCE_USERS. */
  issuer: v.nullable(UserRefSchema),
})
/** One bar of the credit history chart. */
export type CreditHistoryEntry = v.InferOutput<typeof CreditHistoryEntrySchema>

/** Empty states of the budget page. */
export const BUDGET_EMPTY_MESSAGES = {
  transactions: 'No transactions found. Start some simulations!',
  search: 'Try to adjust your search.',
  chart: 'No data to display in the selected timeframe.',
} as const

/**
 * Start of a credit period: `days` before now, or the subscription start for the billing year
 * (-1; a year back when there is no subscription).
 */
export function creditPeriodStartMs(
  days: number,
  nowMs: number,
  subscriptionStartMs: number | null,
): number {
  if (days === -1) return subscriptionStartMs ?? nowMs - 365 * 24 * 3600_000
  return nowMs - days * 24 * 3600_000
}

/** Labels of the transaction kinds in the Type column. */
export const CREDIT_KIND_LABELS: Record<CreditTransactionKind, string> = {
  simulation: 'Simulation',
  credits_bought: 'Credits bought',
  credits_bought_one_off: 'One-off credits bought',
  credits_refunded: 'Credits refunded',
  other: 'Other',
  correction: 'Correction',
  internal: 'Internal',
  workshop: 'Workshop',
}

/** Columns the transactions table sorts by. */
export const CREDIT_SEQUENCE_ORDER_BY = [
  'updatedAt',
  'transaction',
  'kind',
  'user',
  'credits',
] as const
/** One sort column of the transactions table. */
export type CreditSequenceOrderBy = (typeof CREDIT_SEQUENCE_ORDER_BY)[number]

/** The most rows one page of GET /credits/sequences holds (the CSV download pages through). */
export const CREDIT_SEQUENCES_MAX_PAGE_LIMIT = 1000

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
const boolFromQuery = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false', '1', '0'])]),
  v.transform((value) => value === true || value === 'true' || value === '1'),
)

/** GET /credits/sequences query (default: newest first, 10 a page). */
export const CreditSequenceQuerySchema = v.strictObject({
  q: v.optional(v.pipe(v.string(), v.maxLength(200))),
  startDate: v.optional(isoDate),
  pageLimit: v.optional(intFromQuery(1, CREDIT_SEQUENCES_MAX_PAGE_LIMIT), 10),
  pageNumber: v.optional(intFromQuery(1, 1_000_000), 1),
  orderBy: v.optional(v.picklist(CREDIT_SEQUENCE_ORDER_BY), 'updatedAt'),
  asc: v.optional(boolFromQuery, false),
})
/** GET /credits/sequences query, validated. */
export type CreditSequenceQuery = v.InferOutput<typeof CreditSequenceQuerySchema>

/** GET /credits/history query: consumption per day between two dates, optionally of one user. */
export const CreditHistoryQuerySchema = v.strictObject({
  userId: v.optional(intFromQuery(1, 2 ** 31 - 1)),
  startDate: isoDate,
  endDate: v.optional(isoDate),
  groupBy: v.optional(v.picklist(['day']), 'day'),
})

/** What the Transaction column shows: the simulation, else the note, else the kind. */
export function transactionTitle(sequence: CreditSequence): string {
  return sequence.simulationName ?? sequence.note ?? CREDIT_KIND_LABELS[sequence.kind]
}

/** Transactions whose title, note, type or user contains `q` (case-insensitive). */
export function searchCreditSequences(
  sequences: readonly CreditSequence[],
  q: string | undefined,
): CreditSequence[] {
  const needle = (q ?? '').trim().toLowerCase()
  if (needle === '') return [...sequences]
  return sequences.filter((sequence) =>
    [
      transactionTitle(sequence),
      sequence.note ?? '',
      CREDIT_KIND_LABELS[sequence.kind],
      sequence.issuer?.fullName ?? '',
    ].some((text) => text.toLowerCase().includes(needle)),
  )
}

function sortValue(sequence: CreditSequence, orderBy: CreditSequenceOrderBy): string | number {
  switch (orderBy) {
    case 'updatedAt':
      return Date.parse(sequence.updatedAt)
    case 'credits':
      return sequence.credits
    case 'kind':
      return CREDIT_KIND_LABELS[sequence.kind].toLowerCase()
    case 'user':
      return (sequence.issuer?.fullName ?? '').toLowerCase()
    case 'transaction':
      return transactionTitle(sequence).toLowerCase()
  }
}

/** Sorted by one column; ties keep the newest first, then the higher id. */
export function sortCreditSequences(
  sequences: readonly CreditSequence[],
  orderBy: CreditSequenceOrderBy,
  asc: boolean,
): CreditSequence[] {
  const direction = asc ? 1 : -1
  return [...sequences].sort((a, b) => {
    const left = sortValue(a, orderBy)
    const right = sortValue(b, orderBy)
    if (left < right) return -direction
    if (left > right) return direction
    return Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id
  })
}

function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * credit_transactions.csv: the table's columns (User only with CREDITS_VIEW_SEQUENCE_USERS), dates
 * dd.MM.yyyy, HH:mm, values with 2 decimals and no thousands separator so that they parse back.
 */
export function creditTransactionsCsv(
  sequences: readonly CreditSequence[],
  showUserColumn: boolean,
): string {
  const header = ['Transaction', 'Type', 'Date', ...(showUserColumn ? ['User'] : []), 'Value']
  const rows = sequences.map((sequence) => [
    transactionTitle(sequence),
    CREDIT_KIND_LABELS[sequence.kind],
    formatDateTime(sequence.updatedAt),
    ...(showUserColumn ? [sequence.issuer?.fullName ?? ''] : []),
    sequence.credits.toFixed(CREDIT_DECIMALS),
  ])
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'
}

/** The UTC day of an instant as yyyy-MM-dd (the history's day granularity). */
export function utcDay(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10)
}

/** One stacked bar series of the credit history chart. */
export interface CreditHistorySeries {
  /** The team member, or 'Credits' when not grouped. */
  label: string
  /** Credits consumed on each day of `days`. */
  credits: number[]
}

/**
 * The chart's bars: the days that have consumption, in order, and one series per team member when
 * grouped (CREDITS_VIEW_SEQUENCE_USERS), else a single 'Credits' series.
 */
export function creditHistoryChart(
  entries: readonly CreditHistoryEntry[],
  groupByUser: boolean,
): { days: string[]; series: CreditHistorySeries[] } {
  const days = [...new Set(entries.map((entry) => entry.date))].sort()
  const dayIndex = new Map(days.map((day, index) => [day, index]))
  const series = new Map<string, number[]>()
  for (const entry of entries) {
    const label = groupByUser ? (entry.issuer?.fullName ?? 'Unknown user') : 'Credits'
    let values = series.get(label)
    if (!values) {
      values = days.map(() => 0)
      series.set(label, values)
    }
    const index = dayIndex.get(entry.date) ?? 0
    values[index] = (values[index] ?? 0) + entry.credits
  }
  return {
    days,
    series: [...series.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, credits]) => ({ label, credits })),
  }
}
