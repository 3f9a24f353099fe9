import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  json,
  renderSettingsPage,
  resetSettingsApi,
  settingsUser,
  stubSettingsApi,
  type SentRequest,
} from './settingsTestKit.tsx'
import { TeamPage } from './TeamPage.tsx'

const MANAGER = settingsUser('manager')

const TEAM = [
  {
    id: 1,
    fullName: 'Ada Admin',
    email: 'admin@dive.example',
    role: 'admin',
    avatarId: 3,
    department: null,
  },
  {
    id: 2,
    fullName: 'Mia Manager',
    email: 'manager@dive.example',
    role: 'manager',
    avatarId: 0,
    department: 'Lead',
  },
  {
    id: 3,
    fullName: 'Carl Contributor',
    email: 'contributor@dive.example',
    role: 'contributor',
    avatarId: 5,
    department: 'Hydraulics',
  },
]

const HOUR_MS = 3600_000
const GRANTS = [
  {
    id: 11,
    requesterId: 1,
    requester: { fullName: 'Sam Support', avatarId: 7 },
    organization: { id: 1, name: 'Demo Organization' },
    state: 'active',
    expiry: new Date(Date.now() + 23 * HOUR_MS).toISOString(),
    reason: 'support',
    createdAt: new Date(Date.now() - HOUR_MS).toISOString(),
  },
  {
    id: 10,
    requesterId: 1,
    requester: { fullName: 'Olga Older', avatarId: 2 },
    organization: { id: 1, name: 'Demo Organization' },
    state: 'expired',
    expiry: new Date(Date.now() - 2 * HOUR_MS).toISOString(),
    reason: 'onboarding',
    createdAt: new Date(Date.now() - 26 * HOUR_MS).toISOString(),
  },
]

let sent: SentRequest[] = []

beforeEach(() => {
  sent = stubSettingsApi(({ method, path }) => {
    if (path === '/api/mgmt/users' && method === 'GET') return json(TEAM)
    if (path === '/api/mgmt/access_grants' && method === 'GET')
      return json({ results: GRANTS, resultCount: 2, pageCount: 1 })
    if (path === '/api/mgmt/access_grants/11' && method === 'DELETE')
      return json({ ...GRANTS[0], state: 'revoked' })
    if (path === '/api/mgmt/users/3' && method === 'DELETE') return json({ id: 3 })
    return undefined
  })
})

afterEach(resetSettingsApi)

function renderTeam() {
  renderSettingsPage('/settings/team', <TeamPage />, MANAGER)
}

describe('TeamPage', () => {
  it('filters the users by text and role', async () => {
    renderTeam()
    await screen.findByText('contributor@dive.example')
    fireEvent.change(screen.getByLabelText('Filter users'), { target: { value: 'hydra' } })
    expect(screen.queryByText('manager@dive.example')).toBeNull()
    expect(screen.getByText('contributor@dive.example')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Filter users'), { target: { value: '' } })
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'admin' } })
    expect(screen.getByText('admin@dive.example')).toBeTruthy()
    expect(screen.queryByText('contributor@dive.example')).toBeNull()
  })

  it('offers no edit for an admin and no delete of oneself', async () => {
    renderTeam()
    await screen.findByText('contributor@dive.example')
    expect(screen.queryByRole('button', { name: 'Edit Ada Admin' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete Ada Admin' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete Mia Manager' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Edit Mia Manager' })).toBeTruthy()
  })

  it('deletes only once the full name is typed exactly', async () => {
    renderTeam()
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Carl Contributor' }))
    const confirm = screen.getByLabelText('Type the name to confirm')
    const remove = screen.getByRole<HTMLButtonElement>('button', { name: 'Delete' })
    fireEvent.change(confirm, { target: { value: 'Carl contributor' } })
    expect(remove.disabled).toBe(true)
    fireEvent.change(confirm, { target: { value: 'Carl Contributor' } })
    expect(remove.disabled).toBe(false)
    fireEvent.click(remove)
    await waitFor(() =>
      expect(sent.some((r) => r.method === 'DELETE' && r.path === '/api/mgmt/users/3')).toBe(true),
    )
  })

  it('marks a support member who requested access in the last 24 h and revokes the grant', async () => {
    renderTeam()
    const table = await screen.findByRole('table', { name: 'Support access' })
    const recent = await within(table).findByRole('row', { name: /Sam Support/ })
    expect(within(recent).getByText('New')).toBeTruthy()
    const older = within(table).getByRole('row', { name: /Olga Older/ })
    expect(within(older).queryByText('New')).toBeNull()
    expect(older.textContent).toContain('Expired')
    expect(within(older).queryByRole('button', { name: /Revoke/ })).toBeNull()
    fireEvent.click(within(recent).getByRole('button', { name: 'Revoke access of Sam Support' }))
    await waitFor(() =>
      expect(
        sent.some((r) => r.method === 'DELETE' && r.path === '/api/mgmt/access_grants/11'),
      ).toBe(true),
    )
  })

  it('cuts a name longer than 80 characters', async () => {
    const long = `Maximiliane ${'Wolkenstein-'.repeat(8)}Rodenegg`
    stubSettingsApi(({ method, path }) => {
      if (path === '/api/mgmt/users' && method === 'GET')
        return json([{ ...TEAM[2], fullName: long }])
      if (path === '/api/mgmt/access_grants')
        return json({ results: [], resultCount: 0, pageCount: 0 })
      return undefined
    })
    renderTeam()
    const cell = await screen.findByRole('cell', { name: /Maximiliane/ })
    expect(long.length).toBeGreaterThan(80)
    expect(cell.textContent).toMatch(/…$/)
    expect((cell.textContent ?? '').replace(/^\S*\s/, '').length).toBeLessThanOrEqual(81)
  })
})
