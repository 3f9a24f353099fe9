import type { Permission, User } from '../../../domain/account.ts'
import { userCan } from '../../lib/currentUser.ts'

/** A settings page the profile menu links to, and the permission it needs. */
export interface AccountMenuItem {
  label: string
  to: string
  permission?: Permission
}

const ITEMS: readonly AccountMenuItem[] = [
  { label: 'Settings', to: '/settings/profile' },
  { label: 'Team', to: '/settings/team', permission: 'USERS_VIEW' },
  { label: 'Subscription', to: '/settings/subscription', permission: 'SUBSCRIPTION_VIEW' },
]

/** The profile menu's settings items the user may open: Team needs USERS_VIEW, Subscription SUBSCRIPTION_VIEW. */
export function accountMenuItems(user: Pick<User, 'permissions'>): AccountMenuItem[] {
  return ITEMS.filter((item) => !item.permission || userCan(user, item.permission))
}
