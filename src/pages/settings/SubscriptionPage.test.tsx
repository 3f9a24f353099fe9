import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { subscriptionCoreHours, type Organization } from '../../../domain/account.ts'
import {
  json,
  renderSettingsPage,
  resetSettingsApi,
  settingsUser,
  stubSettingsApi,
} from './settingsTestKit.tsx'
import { SubscriptionPage } from './SubscriptionPage.tsx'

const MANAGER = settingsUser('manager')

const ORGANIZATION: Organization = {
  id: 1,
  name: 'Demo Organization',
  credits: 2500,
  features: ['cpu', 'vmHours'],
  activeSubscription: {
    kind: 'performance',
    startDate: '2026-01-01T00:00:00.000Z',
    endDate: '2099-01-01T00:00:00.000Z',
    coreHours: 1000,
    oneOffCoreHours: 50,
    vmHoursPerMonth: 20,
    maxCores: 16,
    freeInstance: true,
  },
  freeInstanceOccupied: true,
  maximumSimulationsExceeded: false,
}

let organization: Organization = ORGANIZATION
let historyStart: string | null = null

beforeEach(() => {
  organization = ORGANIZATION
  historyStart = null
  stubSettingsApi(({ url }) => {
    if (url.pathname === '/api/organizations') return json([organization])
    if (url.pathname === '/api/storage_consumption/organization')
      return json({ consumed: 2.5e9, available: 1e12, lastUpdated: '2026-11-20T10:00:00.000Z' })
    if (url.pathname === '/api/credits/history') {
      historyStart = url.searchParams.get('startDate')
      return json([
        { credits: 60, simulationHours: 1, date: '2026-11-20', sequenceId: 1, issuer: null },
        { credits: 90, simulationHours: 1.5, date: '2026-11-21', sequenceId: 2, issuer: null },
      ])
    }
    return undefined
  })
})

afterEach(resetSettingsApi)

function renderSubscription() {
  renderSettingsPage('/settings/subscription', <SubscriptionPage />, MANAGER)
}

/** The value next to a term of a facts list. */
const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling

describe('SubscriptionPage', () => {
  it('shows the plan, the core hours the runs used since its start, and its limits', async () => {
    renderSubscription()
    expect(await screen.findByText('Performance')).toBeTruthy()
    expect(fact('Start date')?.textContent).toBe('01.01.2026')
    expect(fact('Core hours')?.textContent).toBe('1,000 h')
    expect(fact('One-off core hours')?.textContent).toBe('50 h')
    expect(await screen.findByText('2.5 h')).toBeTruthy()
    expect(fact('Core hours left')?.textContent).toBe('1,047.5 h')
    expect(historyStart).toBe(ORGANIZATION.activeSubscription?.startDate)
    expect(fact('VM hours per month')?.textContent).toBe('20 h')
    expect(fact('Maximum cores per simulation')?.textContent).toBe('16')
    expect(fact('Free instance')?.textContent).toBe('Included, in use')
    expect(fact('Simulations')?.textContent).toBe('Within the limit')
    expect(fact('Storage')?.textContent).toBe('2.5 GB of 1.0 TB used')
    expect(screen.getByText('CPU solver choice')).toBeTruthy()
    expect(screen.getByText('Virtual machine hours')).toBeTruthy()
  })

  it('says when there is no subscription and when the simulation maximum is reached', async () => {
    organization = { ...ORGANIZATION, activeSubscription: null, maximumSimulationsExceeded: true }
    renderSubscription()
    expect(await screen.findByText('Your organization has no active subscription.')).toBeTruthy()
    expect(fact('Simulations')?.textContent).toBe('Maximum number of simulations reached')
    expect(fact('Free instance')?.textContent).toBe('Not included')
    expect(historyStart).toBeNull()
  })

  it('never counts more core hours left than none', () => {
    expect(subscriptionCoreHours({ coreHours: 10, oneOffCoreHours: 0 }, 12)).toEqual({
      total: 10,
      used: 12,
      left: 0,
    })
  })
})
