import type { ReactNode } from 'react'
import { useParams } from 'react-router'
import type { Permission } from '../../domain/account.ts'
import { useCurrentUser, userCan } from '../lib/currentUser.ts'
import { ForbiddenPage } from './ForbiddenPage.tsx'
import { NotFoundPage } from './NotFoundPage.tsx'
import { BudgetPage } from './settings/BudgetPage.tsx'
import { OverviewPage } from './settings/OverviewPage.tsx'
import { ProfilePage } from './settings/ProfilePage.tsx'
import { SubscriptionPage } from './settings/SubscriptionPage.tsx'
import { TeamPage } from './settings/TeamPage.tsx'
import './settings/settings.css'

interface SettingsSection {
  page: () => ReactNode
  permission?: Permission
}

const SECTIONS: Record<string, SettingsSection> = {
  '': { page: () => <OverviewPage /> },
  overview: { page: () => <OverviewPage /> },
  profile: { page: () => <ProfilePage /> },
  budget: { page: () => <BudgetPage /> },
  team: { page: () => <TeamPage />, permission: 'USERS_VIEW' },
  subscription: { page: () => <SubscriptionPage />, permission: 'SUBSCRIPTION_VIEW' },
}

/** /settings/*: overview, profile, budget, team (USERS_VIEW), subscription (SUBSCRIPTION_VIEW). */
export function SettingsPage() {
  const user = useCurrentUser()
  const section = SECTIONS[(useParams()['*'] ?? '').replace(/\/$/, '')]
  if (!section) return <NotFoundPage />
  if (section.permission && !userCan(user, section.permission)) return <ForbiddenPage />
  return section.page()
}
