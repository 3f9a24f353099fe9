import { NavLink, Outlet, useNavigate } from 'react-router'
import { ROLE_LABELS } from '../../../domain/account.ts'
import { initialsOf } from '../../lib/format.ts'
import { useCurrentUser } from '../../lib/currentUser.ts'
import { accountMenuItems } from '../../pages/settings/accountMenu.ts'
import { useAnalyticsConsent } from '../../pages/settings/AnalyticsCards.tsx'
import { IconChevronDown, IconExternal, IconHelp, IconWave } from '../icons.tsx'
import { Menu } from '../Menu.tsx'
import { StorageBar } from '../StorageBar.tsx'
import { cutName } from './accessGrantOptions.ts'
import { HELP_LINKS } from './helpLinks.ts'
import {
  AccessGrantSelector,
  canSelectAccessGrant,
  CopyIdButton,
  VmHoursLeft,
} from './MenuBarItems.tsx'
import {
  NewVersionModal,
  RELEASE_NOTES_VERSION,
  ReleaseNotesModal,
  useReleaseNotes,
} from './ReleaseNotices.tsx'
import { MAIN_CONTENT_ID, SkipLinks } from './SkipLinks.tsx'
import { VmMenuButton } from '../../pages/machines/VmMenuButton.tsx'

/** The menu bar over every logged-in page. */
export function AppShell() {
  return (
    <div className="app">
      <SkipLinks />
      <MenuBar />
      <NewVersionModal />
      <main className="app__main" id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  )
}

function MenuBar() {
  const user = useCurrentUser()
  const navigate = useNavigate()
  const releaseNotes = useReleaseNotes(user.id)
  useAnalyticsConsent()
  return (
    <header className="menubar">
      {releaseNotes.open && <ReleaseNotesModal onClose={releaseNotes.close} />}
      <div className="menubar__left">
        <NavLink to="/projects" className="brand" aria-label="Dive home">
          <span className="brand__mark" aria-hidden="true">
            <IconWave width={16} height={16} />
          </span>
          <span className="brand__name">Dive</span>
        </NavLink>
        <nav className="menubar__nav" aria-label="Main">
          <NavLink to="/projects" className="menubar__link">
            Projects
          </NavLink>
          <NavLink to="/machines" className="menubar__link">
            Machines
          </NavLink>
        </nav>
      </div>
      <div className="menubar__right">
        {canSelectAccessGrant(user) && <AccessGrantSelector user={user} />}
        <VmHoursLeft />
        <VmMenuButton />
        <CopyIdButton />
        <StorageBar />
        <Menu
          label="Help"
          triggerClassName="icon-button icon-button--menubar"
          trigger={<IconHelp width={18} height={18} />}
          entries={[
            ...HELP_LINKS.map((link) => ({
              kind: 'link' as const,
              label: link.label,
              href: link.href,
              external: true,
              icon: <IconExternal className="menu__icon" />,
            })),
            { kind: 'separator' as const },
            {
              kind: 'action' as const,
              label: `What's new in ${RELEASE_NOTES_VERSION}`,
              onSelect: releaseNotes.show,
            },
          ]}
        />
        <Menu
          label="Profile"
          namedByContent
          triggerClassName="profile-trigger"
          trigger={
            <>
              <span className="avatar" aria-hidden="true">
                {initialsOf(user.fullName)}
              </span>
              <span className="profile-trigger__name">{cutName(user.fullName)}</span>
              <IconChevronDown className="profile-trigger__chevron" />
            </>
          }
          header={
            <div className="profile-summary">
              <span className="avatar avatar--large" aria-hidden="true">
                {initialsOf(user.fullName)}
              </span>
              <div>
                <p className="profile-summary__name">{cutName(user.fullName)}</p>
                <p className="profile-summary__meta">{user.email}</p>
                <p className="profile-summary__meta">
                  <span className="role-badge">{ROLE_LABELS[user.role]}</span>
                  {cutName(user.organization.name)}
                </p>
              </div>
            </div>
          }
          entries={[
            ...accountMenuItems(user).map((item) => ({
              kind: 'action' as const,
              label: item.label,
              onSelect: () => void navigate(item.to),
            })),
            { kind: 'separator' },
            { kind: 'action', label: 'Logout', onSelect: () => void navigate('/logout') },
          ]}
        />
      </div>
    </header>
  )
}
