import { useParams } from 'react-router'
import type { Permission } from '../../domain/account.ts'
import { useCurrentUser, userCan } from '../lib/currentUser.ts'
import { ForbiddenPage } from './ForbiddenPage.tsx'
import { NotFoundPage } from './NotFoundPage.tsx'
import { NotYetPage } from './NotYetPage.tsx'

interface SettingsSection {
  title: string
  description: string
  permission?: Permission
}

const SECTIONS: Record<string, SettingsSection> = {
  '': { title: 'Overview', description: 'Your account, credits and organization at a glance.' },
  overview: {
    title: 'Overview',
    description: 'Your account, credits and organization at a glance.',
  },
  profile: {
    title: 'Profile',
    description: 'Edit your name, contact details and avatar, and manage sign-in security.',
  },
  budget: {
    title: 'Budget',
    description: 'Credit budget, usage history and the transactions of your organization.',
  },
  team: {
    title: 'Team',
    description: 'Users, invitations and support access grants of your organization.',
    permission: 'USERS_VIEW',
  },
  subscription: {
    title: 'Subscription',
    description: 'The active subscription of your organization.',
    permission: 'SUBSCRIPTION_VIEW',
  },
}

/** /settings/*: the sections exist as routes; their pages arrive in a later release. */
export function SettingsPage() {
  const user = useCurrentUser()
  const section = SECTIONS[(useParams()['*'] ?? '').replace(/\/$/, '')]
  if (!section) return <NotFoundPage />
  if (section.permission && !userCan(user, section.permission)) return <ForbiddenPage />
  return <NotYetPage title={section.title} description={section.description} />
}
