import { useMutation } from '@tanstack/react-query'
import { useId, useState } from 'react'
import {
  ROLES,
  ROLE_LABELS,
  canDeleteUser,
  canEditUser,
  type Role,
} from '../../../domain/account.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { usePushToast } from '../../components/Toasts.tsx'
import { useCurrentUser, userCan } from '../../lib/currentUser.ts'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import { useTeamUsersQuery } from '../../queries/queries.ts'
import { avatarOf } from './avatars.ts'
import { SupportAccessTable } from './SupportAccessTable.tsx'
import { DeleteUserDialog, EditUserDialog, NewUserDialog, type TeamUser } from './TeamDialogs.tsx'
import { cutName } from '../../components/shell/accessGrantOptions.ts'

type OpenDialog = { kind: 'new' } | { kind: 'edit' | 'delete'; member: TeamUser } | null

/** Rows matching the filter text (name, e-mail or job title) and the role filter. */
export function filterTeam(
  members: readonly TeamUser[],
  text: string,
  role: Role | 'all',
): TeamUser[] {
  const needle = text.trim().toLowerCase()
  return members.filter(
    (member) =>
      (role === 'all' || member.role === role) &&
      (needle === '' ||
        [member.fullName, member.email, member.department ?? ''].some((value) =>
          value.toLowerCase().includes(needle),
        )),
  )
}

/** /settings/team (USERS_VIEW): the active users, New User, edit and delete. */
export function TeamPage() {
  usePageTitle('Team')
  const user = useCurrentUser()
  const pushToast = usePushToast()
  const team = useTeamUsersQuery(true)
  const [text, setText] = useState('')
  const [role, setRole] = useState<Role | 'all'>('all')
  const [dialog, setDialog] = useState<OpenDialog>(null)
  const searchId = useId()
  const roleId = useId()
  const sendReset = useMutation({
    mutationFn: (member: TeamUser) =>
      callApi('sendUserPasswordMail', { params: { id: String(member.id) } }),
    onSuccess: (_reply, member) =>
      pushToast({
        kind: 'success',
        title: 'E-mail sent',
        description: `${member.fullName} got a link to set a new password.`,
      }),
    onError: (failure) =>
      pushToast({ kind: 'error', title: 'Could not edit user', description: messageOf(failure) }),
  })
  const members = team.data ?? []
  const rows = filterTeam(members, text, role)
  const actor = { id: user.id, role: user.role }
  const asMember = (member: TeamUser) => ({ id: member.id, role: member.role as Role })

  return (
    <div className="page">
      <header className="page__header">
        <h1 className="page__title">Team</h1>
        {userCan(user, 'USERS_ADD') && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => setDialog({ kind: 'new' })}
          >
            New User
          </button>
        )}
      </header>
      <section className="card card--padded" aria-labelledby="team-active">
        <h2 id="team-active" className="card__title">
          Active users
        </h2>
        <div className="control-bar">
          <div className="field">
            <label htmlFor={searchId} className="visually-hidden">
              Filter users
            </label>
            <input
              id={searchId}
              className="input settings-filter"
              type="search"
              placeholder="Filter by name, e-mail or job title"
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={roleId} className="visually-hidden">
              Role
            </label>
            <select
              id={roleId}
              className="select"
              value={role}
              onChange={(event) => setRole(event.target.value as Role | 'all')}
            >
              <option value="all">All roles</option>
              {ROLES.map((value) => (
                <option key={value} value={value}>
                  {ROLE_LABELS[value]}
                </option>
              ))}
            </select>
          </div>
        </div>
        {team.isError ? (
          <div className="alert alert--error" role="alert">
            {messageOf(team.error)}
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Active users</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Job Title</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((member) => {
                  const avatar = avatarOf(member.avatarId)
                  const editable = canEditUser(actor, asMember(member))
                  const deletable = canDeleteUser(actor, asMember(member))
                  return (
                    <tr key={member.id}>
                      <td className="table__primary">
                        <span className={avatar.className} aria-hidden="true" title={avatar.name}>
                          {avatar.initials}
                        </span>{' '}
                        {cutName(member.fullName)}
                      </td>
                      <td>{member.email}</td>
                      <td>{ROLE_LABELS[member.role as Role] ?? member.role}</td>
                      <td>{member.department ?? ''}</td>
                      <td className="table__actions">
                        {editable && (
                          <>
                            <button
                              type="button"
                              className="button button--ghost button--small"
                              aria-label={`Edit ${member.fullName}`}
                              onClick={() => setDialog({ kind: 'edit', member })}
                            >
                              Edit
                            </button>
                            <button
                              type="button"
                              className="button button--ghost button--small"
                              aria-label={`Send ${member.fullName} a password link`}
                              disabled={sendReset.isPending}
                              onClick={() => sendReset.mutate(member)}
                            >
                              Reset password
                            </button>
                          </>
                        )}
                        {deletable && (
                          <button
                            type="button"
                            className="button button--danger-text button--small"
                            aria-label={`Delete ${member.fullName}`}
                            onClick={() => setDialog({ kind: 'delete', member })}
                          >
                            Delete
                          </button>
                        )}
                      </td>
                    </tr>
                  )
                })}
                {!team.isPending && rows.length === 0 && (
                  <tr>
                    <td colSpan={5} className="muted">
                      No users match the filter.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <SupportAccessTable canRevoke={userCan(user, 'USERS_EDIT')} />
      {dialog?.kind === 'new' && (
        <NewUserDialog teamEmails={members.map((m) => m.email)} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'edit' && (
        <EditUserDialog
          member={dialog.member}
          canChangeRole={dialog.member.id !== user.id}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteUserDialog member={dialog.member} onClose={() => setDialog(null)} />
      )}
    </div>
  )
}
