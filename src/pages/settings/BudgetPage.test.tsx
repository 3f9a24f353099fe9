import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Role } from '../../../domain/account.ts'
import type { CreditSequence } from '../../../domain/accountBudget.ts'
import { BudgetPage } from './BudgetPage.tsx'
import {
  json,
  renderSettingsPage,
  resetSettingsApi,
  settingsUser,
  stubSettingsApi,
} from './settingsTestKit.tsx'

const SUBSCRIPTION = {
  kind: 'engineering',
  startDate: '2026-01-01T00:00:00.000Z',
  endDate: '2027-01-01T00:00:00.000Z',
  coreHours: 1000,
  oneOffCoreHours: 0,
  vmHoursPerMonth: 20,
  maxCores: 2,
  freeInstance: false,
}

const RUN: CreditSequence = {
  id: 7,
  kind: 'simulation',
  updatedAt: '2026-11-20T10:00:00.000Z',
  credits: -1234.5,
  simulationHours: 20.575,
  simulationName: 'Dam break',
  note: 'Run 3',
  issuer: { id: 3, fullName: 'Carl Contributor', avatarId: 5 },
  issuerId: 3,
}

let requests: URL[] = []
let credits = 2500
let sequences: CreditSequence[] = [RUN]

beforeEach(() => {
  requests = []
  credits = 2500
  sequences = [RUN]
  stubSettingsApi(({ url }) => {
    requests.push(url)
    if (url.pathname === '/api/credits/budget')
      return json({
        credits,
        simulationHours: credits / 120,
        vmHours: 20,
        activeSubscription: SUBSCRIPTION,
        ssoConnection: null,
      })
    if (url.pathname === '/api/credits/history')
      return json(
        sequences.map((s) => ({
          credits: -s.credits,
          simulationHours: s.simulationHours,
          date: s.updatedAt.slice(0, 10),
          sequenceId: s.id,
          issuer: s.issuer,
        })),
      )
    if (url.pathname === '/api/credits/sequences') {
      const found = url.searchParams.get('q') ? [] : sequences
      return json({ results: found, resultCount: found.length, pageCount: found.length ? 1 : 0 })
    }
    return undefined
  })
})

afterEach(resetSettingsApi)

function renderBudget(role: Role) {
  renderSettingsPage('/settings/budget', <BudgetPage />, settingsUser(role))
}

const lastSequencesQuery = () =>
  requests.filter((url) => url.pathname === '/api/credits/sequences').at(-1)?.searchParams

describe('BudgetPage', () => {
  it('shows the credits, the hours they buy and a run with its user for a manager', async () => {
    renderBudget('manager')
    expect(await screen.findByText('2,500.00 credits')).toBeTruthy()
    expect(screen.getByText('20.8 h')).toBeTruthy()
    expect(screen.getByText('20 h 0 min')).toBeTruthy()
    const table = screen.getByRole('table', { name: 'Credit transactions' })
    const row = await within(table).findByRole('row', { name: /Dam break/ })
    expect(row.textContent).toContain('Carl Contributor')
    expect(row.textContent).toContain('-1,234.50')
    expect(within(table).getByRole('columnheader', { name: 'User' })).toBeTruthy()
    expect(await screen.findByText('Credit history by team member')).toBeTruthy()
    // Default: last 365 days, newest first, 10 a page.
    expect(lastSequencesQuery()?.get('orderBy')).toBe('updatedAt')
    expect(lastSequencesQuery()?.get('asc')).toBe('false')
    expect(lastSequencesQuery()?.get('pageLimit')).toBe('10')
  })

  it('has no user column for a contributor', async () => {
    renderBudget('contributor')
    const table = screen.getByRole('table', { name: 'Credit transactions' })
    await within(table).findByRole('row', { name: /Dam break/ })
    expect(within(table).queryByRole('columnheader', { name: 'User' })).toBeNull()
    expect(screen.getByText('Credit history')).toBeTruthy()
  })

  it('sorts by a column and asks for the period chosen', async () => {
    renderBudget('manager')
    await screen.findByRole('row', { name: /Dam break/ })
    fireEvent.click(screen.getByRole('button', { name: 'Value' }))
    await waitFor(() => expect(lastSequencesQuery()?.get('orderBy')).toBe('credits'))
    expect(screen.getByRole('columnheader', { name: /Value/ }).getAttribute('aria-sort')).toBe(
      'descending',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Value' }))
    await waitFor(() => expect(lastSequencesQuery()?.get('asc')).toBe('true'))
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: '7' } })
    await waitFor(() => {
      const start = Date.parse(lastSequencesQuery()?.get('startDate') ?? '')
      expect(Math.abs(Date.now() - 7 * 86_400_000 - start)).toBeLessThan(60_000)
    })
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: '-1' } })
    await waitFor(() => expect(lastSequencesQuery()?.get('startDate')).toBe(SUBSCRIPTION.startDate))
  })

  it('says so when nothing was spent, when a search finds nothing, and when credits ran out', async () => {
    sequences = []
    credits = 0
    renderBudget('manager')
    expect(await screen.findByText('No transactions found. Start some simulations!')).toBeTruthy()
    expect(screen.getByText('No data to display in the selected timeframe.')).toBeTruthy()
    expect(screen.getByText('Not enough credits left...')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Search transactions'), { target: { value: 'x' } })
    expect(await screen.findByText('Try to adjust your search.')).toBeTruthy()
  })
})
