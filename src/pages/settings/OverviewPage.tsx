import { Link } from 'react-router'
import type { Permission } from '../../../domain/account.ts'
import { useCurrentUser, userCan } from '../../lib/currentUser.ts'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import { AnalyticsReportCard } from './AnalyticsCards.tsx'

interface Tile {
  to: string
  title: string
  text: string
  permission?: Permission
}

const TILES: readonly Tile[] = [
  {
    to: '/settings/profile',
    title: 'Profile',
    text: 'Your name, contact details, avatar and sign-in security.',
  },
  { to: '/settings/budget', title: 'Budget', text: 'Credits, usage history and transactions.' },
  {
    to: '/settings/team',
    title: 'Users',
    text: 'Team members, invitations and support access.',
    permission: 'USERS_VIEW',
  },
  {
    to: '/settings/subscription',
    title: 'Subscription',
    text: 'The active subscription of your organization.',
    permission: 'SUBSCRIPTION_VIEW',
  },
]

/** Headings of the overview; the admin one needs OVERVIEW_ADMIN_MESSAGE. */
export const OVERVIEW_HEADINGS = {
  admin: 'Manage your organization and your account',
  member: 'Manage your account',
} as const

/** /settings and /settings/overview: a tile per section the user may open. */
export function OverviewPage() {
  usePageTitle('Overview')
  const user = useCurrentUser()
  const tiles = TILES.filter((tile) => !tile.permission || userCan(user, tile.permission))
  const heading = userCan(user, 'OVERVIEW_ADMIN_MESSAGE')
    ? OVERVIEW_HEADINGS.admin
    : OVERVIEW_HEADINGS.member
  return (
    <div className="page">
      <header className="page__header">
        <div>
          <h1 className="page__title">Overview</h1>
          <p className="page__subtitle">
            {heading}, {user.firstName}.
          </p>
        </div>
      </header>
      <ul className="settings-tiles">
        {tiles.map((tile) => (
          <li key={tile.to}>
            <Link className="card card--padded settings-tile" to={tile.to}>
              <span className="card__title">{tile.title}</span>
              <span className="muted">{tile.text}</span>
            </Link>
          </li>
        ))}
      </ul>
      {userCan(user, 'ACCESS_GRANT_SELECTION') && <AnalyticsReportCard />}
    </div>
  )
}
