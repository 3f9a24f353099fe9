import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  InviteSchema,
  canDeleteUser,
  canEditUser,
  checkInvite,
  checkProfile,
  isNameConfirmed,
  isTestTokenUsable,
  isValidPhoneNumber,
  permissionsForRole,
} from './account.ts'
import {
  AccessGrantSchema,
  accessGrantExpiryMs,
  accessGrantState,
  isRecentAccessRequest,
} from './accountAccess.ts'
import { CreditSequenceSchema, creditPeriodStartMs } from './accountBudget.ts'
import {
  VirtualMachineSchema,
  autoShutdownTime,
  autoShutdownToggle,
  checkVmLaunch,
  launchableSimulations,
  storageLevel,
  vmButton,
  vmStateChangeToast,
} from './accountVm.ts'

const hour = 3600_000
const messages = (issues: { message: string }[]) => issues.map((i) => i.message)

describe('existing exports', () => {
  it('still gives managers every permission but access-grant selection', () => {
    expect(permissionsForRole('manager')).toHaveLength(7)
    expect(permissionsForRole('manager')).not.toContain('ACCESS_GRANT_SELECTION')
  })
})

describe('profile', () => {
  const profile = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    phoneNumber: '',
    department: '',
    location: '',
  }

  it('requires first name and surname', () => {
    expect(checkProfile(profile)).toEqual([])
    expect(messages(checkProfile({ ...profile, firstName: ' ', lastName: '' }))).toEqual([
      'First name is required',
      'Surname is required',
    ])
  })

  it("rejects a malformed phone: 'Invalid phone number format'", () => {
    expect(checkProfile({ ...profile, phoneNumber: '+49 170 1234567' })).toEqual([])
    expect(checkProfile({ ...profile, phoneNumber: 'call me' })).toEqual([
      { level: 'error', field: 'phoneNumber', message: 'Invalid phone number format' },
    ])
    expect(isValidPhoneNumber('')).toBe(true)
    expect(isValidPhoneNumber('12')).toBe(false)
  })
})

describe('new user', () => {
  const invite = { email: 'New@Example.com', firstName: 'N', lastName: 'U' }

  it('defaults the role to contributor and lower-cases the e-mail', () => {
    expect(v.parse(InviteSchema, invite)).toEqual({
      email: 'new@example.com',
      firstName: 'N',
      lastName: 'U',
      role: 'contributor',
    })
  })

  it('allows only contributor or manager', () => {
    expect(v.safeParse(InviteSchema, { ...invite, role: 'manager' }).success).toBe(true)
    expect(v.safeParse(InviteSchema, { ...invite, role: 'admin' }).success).toBe(false)
  })

  it('requires a valid e-mail and the names', () => {
    expect(messages(checkInvite({ ...invite, email: '' }, []))).toEqual(['E-mail is required'])
    expect(messages(checkInvite({ ...invite, email: 'nope' }, []))).toEqual([
      'Enter a valid e-mail address',
    ])
    expect(messages(checkInvite({ ...invite, firstName: '', lastName: '' }, []))).toEqual([
      'First name is required',
      'Surname is required',
    ])
  })

  it('refuses an e-mail already in the team, ignoring case', () => {
    expect(checkInvite(invite, ['other@example.com'])).toEqual([])
    expect(checkInvite(invite, [' NEW@example.com'])).toEqual([
      { level: 'error', field: 'email', message: 'A user with this e-mail already exists' },
    ])
  })
})

describe('team restrictions', () => {
  const manager = { id: 1, role: 'manager' as const }

  it('never edits or deletes admin users', () => {
    const admin = { id: 2, role: 'admin' as const }
    expect(canEditUser(manager, admin)).toBe(false)
    expect(canDeleteUser(manager, admin)).toBe(false)
  })

  it('lets nobody delete themselves', () => {
    expect(canDeleteUser(manager, manager)).toBe(false)
    expect(canEditUser(manager, manager)).toBe(true)
    expect(canDeleteUser(manager, { id: 3, role: 'contributor' })).toBe(true)
  })

  it('needs USERS_EDIT to edit anyone', () => {
    const contributor = { id: 4, role: 'contributor' as const }
    expect(canEditUser(contributor, { id: 5, role: 'contributor' })).toBe(false)
  })

  it('confirms a deletion only for the exact typed name', () => {
    expect(isNameConfirmed('Ada Lovelace', 'Ada Lovelace')).toBe(true)
    expect(isNameConfirmed('ada lovelace', 'Ada Lovelace')).toBe(false)
    expect(isNameConfirmed('Ada Lovelace ', 'Ada Lovelace')).toBe(false)
    expect(isNameConfirmed('', '')).toBe(false)
  })
})

describe('access grants', () => {
  const grant = {
    id: 1,
    requesterId: 9,
    requester: { fullName: 'Support', avatarId: 0 },
    organization: { id: 1, name: 'Org' },
    state: 'active',
    expiry: new Date(24 * hour).toISOString(),
    reason: 'support',
    createdAt: new Date(0).toISOString(),
  }

  it('parses reasons and refuses unknown ones', () => {
    expect(v.safeParse(AccessGrantSchema, grant).success).toBe(true)
    expect(v.safeParse(AccessGrantSchema, { ...grant, reason: 'curiosity' }).success).toBe(false)
  })

  it('lasts 24 hours', () => {
    expect(accessGrantExpiryMs(0)).toBe(24 * hour)
    expect(accessGrantState({ state: 'active', expiry: grant.expiry }, 24 * hour - 1)).toBe(
      'active',
    )
    expect(accessGrantState({ state: 'active', expiry: grant.expiry }, 24 * hour)).toBe('expired')
    expect(accessGrantState({ state: 'revoked', expiry: grant.expiry }, 0)).toBe('revoked')
  })

  it('marks requests of the last 24 hours', () => {
    expect(isRecentAccessRequest(0, 24 * hour - 1)).toBe(true)
    expect(isRecentAccessRequest(0, 24 * hour)).toBe(false)
  })
})

describe('credits and storage', () => {
  it('parses transactions of every kind and refuses unknown kinds', () => {
    const sequence = {
      id: 1,
      kind: 'credits_bought_one_off',
      updatedAt: '2024-01-01T00:00:00Z',
      credits: 100,
      simulationHours: 0,
      simulationName: null,
      note: null,
      issuer: null,
      issuerId: null,
    }
    expect(v.safeParse(CreditSequenceSchema, sequence).success).toBe(true)
    expect(v.safeParse(CreditSequenceSchema, { ...sequence, kind: 'gift' }).success).toBe(false)
  })

  it('starts a period days before now, or at the subscription start for the billing year', () => {
    expect(creditPeriodStartMs(7, 10 * 24 * hour, null)).toBe(3 * 24 * hour)
    expect(creditPeriodStartMs(-1, 1000 * 24 * hour, 5)).toBe(5)
    expect(creditPeriodStartMs(-1, 1000 * 24 * hour, null)).toBe(635 * 24 * hour)
  })

  it('turns the storage bar to warning at 90 % and error at 100 %', () => {
    expect(storageLevel(89, 100)).toBe('ok')
    expect(storageLevel(90, 100)).toBe('warning')
    expect(storageLevel(100, 100)).toBe('error')
    expect(storageLevel(1, 0)).toBe('error')
    expect(storageLevel(0, 0)).toBe('ok')
  })
})

describe('virtual machines', () => {
  const ready = { vmHours: 5, simulationState: 'completed' as const }

  it('names the button after the VM state', () => {
    expect(vmButton({ ...ready, vmState: null })).toEqual({
      text: 'Launch VM',
      disabled: false,
      action: 'launch',
    })
    expect(vmButton({ ...ready, vmState: 'stopped' }).action).toBe('launch')
    expect(vmButton({ ...ready, vmState: 'launching' })).toEqual({
      text: 'Launching VM...',
      disabled: true,
      action: 'none',
    })
    expect(vmButton({ ...ready, vmState: 'running' })).toEqual({
      text: 'Open VM',
      disabled: false,
      action: 'open',
    })
    expect(vmButton({ ...ready, vmState: 'stopping' }).text).toBe('Stopping VM...')
    expect(vmButton({ ...ready, vmState: 'stopping' }).disabled).toBe(true)
    expect(vmButton({ ...ready, vmState: 'failed' }).action).toBe('relaunch')
  })

  it('disables the button without VM hours or before the simulation started', () => {
    expect(vmButton({ ...ready, vmState: null, vmHours: 0 }).disabled).toBe(true)
    expect(vmButton({ ...ready, vmState: null, vmHours: -1 }).disabled).toBe(true)
    expect(vmButton({ ...ready, vmState: null, vmHours: Number.NaN }).disabled).toBe(true)
    expect(vmButton({ ...ready, vmState: null, simulationState: 'not started' }).disabled).toBe(
      true,
    )
  })

  it('toasts started on running and could-not-start on failed or stopped', () => {
    expect(vmStateChangeToast('launching', 'running')).toEqual({
      kind: 'success',
      title: 'The Virtual Machine is started!',
    })
    expect(vmStateChangeToast('launching', 'failed')).toEqual({
      kind: 'error',
      title: 'Could not start the VM.',
      message: 'Please try to start it again',
    })
    expect(vmStateChangeToast('launching', 'stopped')?.title).toBe('Could not start the VM.')
    expect(vmStateChangeToast('stopping', 'stopped')).toBeNull()
    expect(vmStateChangeToast('running', 'running')).toBeNull()
  })

  it('enables the auto shutdown toggle only while running, 24 h ahead', () => {
    expect(autoShutdownToggle({ state: 'running', shutdownTime: null })).toEqual({
      disabled: false,
      checked: false,
      label: null,
    })
    expect(autoShutdownToggle({ state: 'launching', shutdownTime: null })).toEqual({
      disabled: true,
      checked: true,
      label: 'Auto shutdown is enabled',
    })
    expect(autoShutdownTime(0)).toBe(new Date(24 * hour).toISOString())
  })

  it('parses a VM record and refuses unknown states', () => {
    const vm = {
      id: 1,
      name: 'vm',
      state: 'running',
      hoursConsumed: 1,
      runningSince: null,
      shutdownTime: null,
      createdAt: '2024-01-01T00:00:00Z',
      sftpUrl: null,
      websocketUrl: null,
      password: null,
      simulation: { id: 2, name: 's', projectName: 'p' },
    }
    expect(v.safeParse(VirtualMachineSchema, vm).success).toBe(true)
    expect(v.safeParse(VirtualMachineSchema, { ...vm, state: 'paused' }).success).toBe(false)
  })

  it('offers only simulations without a VM that are neither launching nor not started', () => {
    const sims = [
      { id: 1, state: 'completed' as const },
      { id: 2, state: 'launching' as const },
      { id: 3, state: 'not started' as const },
      { id: 4, state: 'running' as const },
    ]
    expect(launchableSimulations(sims, [4]).map((s) => s.id)).toEqual([1])
  })

  it('needs a project, a simulation and VM hours to launch', () => {
    expect(checkVmLaunch({ projectId: 1, simulationId: 2 }, 3)).toEqual([])
    expect(checkVmLaunch({ projectId: null, simulationId: null }, 3).map((i) => i.field)).toEqual([
      'projectId',
      'simulationId',
    ])
    expect(checkVmLaunch({ projectId: 1, simulationId: 2 }, 0)[0]?.level).toBe('error')
  })
})

describe('test token', () => {
  it('is never usable in production', () => {
    expect(isTestTokenUsable('production', 0, 1)).toBe(false)
  })

  it('is valid for 3600 s', () => {
    expect(isTestTokenUsable('development', 0, 3600_000 - 1)).toBe(true)
    expect(isTestTokenUsable('development', 0, 3600_000)).toBe(false)
  })
})
