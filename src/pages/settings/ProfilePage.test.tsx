import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ProfilePage, SSO_BADGE } from './ProfilePage.tsx'
import {
  json,
  renderSettingsPage,
  resetSettingsApi,
  settingsUser,
  stubSettingsApi,
} from './settingsTestKit.tsx'

afterEach(resetSettingsApi)

function serveBudget(ssoConnection: string | null) {
  stubSettingsApi(({ path }) => {
    if (path === '/api/credits/budget')
      return json({
        credits: 100,
        simulationHours: 100 / 120,
        vmHours: 0,
        activeSubscription: null,
        ssoConnection,
      })
    if (path === '/api/auth/mfa/authenticators') return json([])
    if (path === '/api/analytics/preference') return json({ optOut: false })
    return undefined
  })
}

describe('ProfilePage', () => {
  it('shows the SSO badge and no password or two-factor controls to a user of an identity provider', async () => {
    serveBudget('okta-acme')
    renderSettingsPage('/settings/profile', <ProfilePage />, settingsUser('contributor'))
    expect(await screen.findByText(SSO_BADGE)).toBeTruthy()
    expect(screen.getByText(/okta-acme/)).toBeTruthy()
    expect(screen.queryByRole('heading', { name: /Password/ })).toBeNull()
    expect(screen.queryByRole('heading', { name: /Two-factor/i })).toBeNull()
  })

  it('shows the password and two-factor controls to a user who signs in with a password', async () => {
    serveBudget(null)
    renderSettingsPage('/settings/profile', <ProfilePage />, settingsUser('contributor'))
    expect(await screen.findByRole('heading', { name: /Password/ })).toBeTruthy()
    expect(screen.getByRole('heading', { name: /Two-factor/i })).toBeTruthy()
    expect(screen.queryByText(SSO_BADGE)).toBeNull()
  })
})
