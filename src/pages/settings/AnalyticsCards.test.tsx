import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { formatNumber } from '../../../domain/units.ts'
import { analyticsTracker } from '../../analytics/analytics.ts'
import { AccessGrantSelector } from '../../components/shell/MenuBarItems.tsx'
import { AnalyticsPreferenceCard, AnalyticsReportCard } from './AnalyticsCards.tsx'
import {
  json,
  renderSettingsPage,
  resetSettingsApi,
  settingsUser,
  stubSettingsApi,
} from './settingsTestKit.tsx'

afterEach(() => {
  analyticsTracker.setEnabled(false)
  resetSettingsApi()
})

describe('AnalyticsPreferenceCard', () => {
  it('opts out: saves the choice and the app sends no more events', async () => {
    let optOut = false
    const sent = stubSettingsApi(({ method, path, body }) => {
      if (path === '/api/analytics/preference' && method === 'PUT') {
        optOut = (body as { optOut: boolean }).optOut
        return json({ optOut })
      }
      if (path === '/api/analytics/preference') return json({ optOut })
      if (path === '/api/analytics/events') return json({ stored: 1 })
      return undefined
    })
    analyticsTracker.setEnabled(true)
    renderSettingsPage('/settings/profile', <AnalyticsPreferenceCard />, settingsUser('manager'))
    const box = await screen.findByRole<HTMLInputElement>('checkbox', {
      name: 'Send usage analytics',
    })
    expect(box.checked).toBe(true)
    fireEvent.click(box)
    await waitFor(() => expect(optOut).toBe(true))
    await waitFor(() => expect(box.checked).toBe(false))
    analyticsTracker.track('ui_project-view_changed', { view: 'all' })
    await analyticsTracker.flush()
    expect(sent.filter((request) => request.path === '/api/analytics/events')).toEqual([])
  })
})

describe('AnalyticsReportCard', () => {
  it('lists each event with how often and by how many users', async () => {
    stubSettingsApi(({ path }) =>
      path === '/api/admin/analytics/summary'
        ? json([{ name: 'ui_simulation_started', count: 1234, users: 3 }])
        : undefined,
    )
    renderSettingsPage('/settings/overview', <AnalyticsReportCard />, settingsUser('admin'))
    const row = await screen.findByRole('row', { name: /ui_simulation_started/ })
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['ui_simulation_started', formatNumber(1234), '3'])
  })
})

describe('AccessGrantSelector', () => {
  const GRANT = {
    id: 5,
    requesterId: 1,
    requester: { fullName: 'Ada Admin', avatarId: 9 },
    organization: { id: 7, name: 'Other Organization' },
    state: 'active',
    expiry: '2099-01-01T10:00:00.000Z',
    reason: 'support',
    createdAt: '2026-11-27T10:00:00.000Z',
  }

  it('offers the own organization and the active grants, and acts through the one chosen', async () => {
    const admin = settingsUser('admin')
    const sent = stubSettingsApi(({ method, path, body }) => {
      if (path === '/api/admin/access_grants')
        return json({ results: [GRANT], resultCount: 1, pageCount: 1 })
      if (path === '/api/users' && method === 'PUT')
        return json({
          ...admin,
          activeAccessGrantId: (body as { activeAccessGrantId: number }).activeAccessGrantId,
          organization: GRANT.organization,
        })
      return undefined
    })
    renderSettingsPage('/projects', <AccessGrantSelector user={admin} />, admin)
    const select = screen.getByLabelText<HTMLSelectElement>('Organization')
    await screen.findByRole('option', { name: /^Other Organization \(until 01\.01\.2099/ })
    expect([...select.options].map((option) => option.value)).toEqual(['', '5'])
    fireEvent.change(select, { target: { value: '5' } })
    await waitFor(() =>
      expect(sent.find((request) => request.method === 'PUT')?.body).toEqual({
        activeAccessGrantId: 5,
      }),
    )
    const query = sent.find((request) => request.path === '/api/admin/access_grants')?.url
    expect(query?.searchParams.get('onlySelf')).toBe('true')
    expect(query?.searchParams.get('state')).toBe('active')
  })
})
