import { describe, expect, it } from 'vitest'
import { permissionsForRole } from '../../../domain/account.ts'
import { accountMenuItems } from './accountMenu.ts'

const labels = (role: Parameters<typeof permissionsForRole>[0]) =>
  accountMenuItems({ permissions: [...permissionsForRole(role)] }).map((item) => item.label)

describe('accountMenuItems', () => {
  it('offers Team and Subscription only with USERS_VIEW and SUBSCRIPTION_VIEW', () => {
    expect(labels('contributor')).toEqual(['Settings'])
    expect(labels('manager')).toEqual(['Settings', 'Team', 'Subscription'])
    expect(accountMenuItems({ permissions: ['USERS_VIEW'] }).map((i) => i.to)).toEqual([
      '/settings/profile',
      '/settings/team',
    ])
  })
})
