import { describe, expect, it } from 'vitest'
import {
  creditHistoryChart,
  creditTransactionsCsv,
  searchCreditSequences,
  sortCreditSequences,
  type CreditSequence,
} from './accountBudget.ts'

const mia = { id: 2, fullName: 'Mia Manager', avatarId: 0 }
const carl = { id: 3, fullName: 'Carl Contributor', avatarId: 5 }

function sequence(overrides: Partial<CreditSequence>): CreditSequence {
  return {
    id: 1,
    kind: 'simulation',
    updatedAt: '2026-11-20T10:00:00.000Z',
    credits: -10,
    simulationHours: 1 / 6,
    simulationName: 'Dam break',
    note: 'Run 1',
    issuer: mia,
    issuerId: mia.id,
    ...overrides,
  }
}

const rows = [
  sequence({ id: 1 }),
  sequence({
    id: 2,
    updatedAt: '2026-11-21T10:00:00.000Z',
    credits: -2.5,
    simulationName: 'Sloshing, "tank"',
    issuer: carl,
    issuerId: carl.id,
  }),
  sequence({
    id: 3,
    kind: 'credits_bought',
    updatedAt: '2026-11-01T08:00:00.000Z',
    credits: 1000,
    simulationName: null,
    note: null,
    issuer: null,
    issuerId: null,
  }),
]

describe('credit transactions', () => {
  it('searches the title, type and user', () => {
    expect(searchCreditSequences(rows, 'slosh').map((r) => r.id)).toEqual([2])
    expect(searchCreditSequences(rows, 'BOUGHT').map((r) => r.id)).toEqual([3])
    expect(searchCreditSequences(rows, 'carl').map((r) => r.id)).toEqual([2])
    expect(searchCreditSequences(rows, '  ').map((r) => r.id)).toEqual([1, 2, 3])
  })

  it('sorts by date descending by default and by value or user on request', () => {
    expect(sortCreditSequences(rows, 'updatedAt', false).map((r) => r.id)).toEqual([2, 1, 3])
    expect(sortCreditSequences(rows, 'credits', true).map((r) => r.id)).toEqual([1, 2, 3])
    expect(sortCreditSequences(rows, 'user', true).map((r) => r.id)).toEqual([3, 2, 1])
  })

  it('writes the CSV with the table columns, quoting where needed, values with 2 decimals', () => {
    const csv = creditTransactionsCsv(rows, true).split('\r\n')
    expect(csv[0]).toBe('Transaction,Type,Date,User,Value')
    expect(csv[1]).toMatch(
      /^Dam break,Simulation,"\d\d\.\d\d\.2026, \d\d:\d\d",Mia Manager,-10\.00$/,
    )
    expect(csv[2]).toMatch(/^"Sloshing, ""tank""",Simulation,.*,Carl Contributor,-2\.50$/)
    expect(csv[3]).toMatch(/^Credits bought,Credits bought,.*,,1000\.00$/)
    expect(creditTransactionsCsv(rows, false).split('\r\n')[0]).toBe('Transaction,Type,Date,Value')
  })
})

describe('credit history chart', () => {
  const entries = [
    { credits: 10, simulationHours: 0.2, date: '2026-11-21', sequenceId: 1, issuer: mia },
    { credits: 5, simulationHours: 0.1, date: '2026-11-20', sequenceId: 2, issuer: carl },
    { credits: 1, simulationHours: 0.1, date: '2026-11-21', sequenceId: 3, issuer: mia },
  ]

  it('stacks one series per team member over the days with consumption', () => {
    expect(creditHistoryChart(entries, true)).toEqual({
      days: ['2026-11-20', '2026-11-21'],
      series: [
        { label: 'Carl Contributor', credits: [5, 0] },
        { label: 'Mia Manager', credits: [0, 11] },
      ],
    })
  })

  it('sums everyone into one series when not grouped', () => {
    expect(creditHistoryChart(entries, false).series).toEqual([
      { label: 'Credits', credits: [5, 11] },
    ])
  })
})
