import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import {
  INVITABLE_ROLES,
  ROLE_LABELS,
  TYPE_NAME_TO_CONFIRM,
  checkInvite,
  isNameConfirmed,
  type InvitableRole,
} from '../../../domain/account.ts'
import { SECURITY_MESSAGES } from '../../../domain/accountSecurity.ts'
import type { RouteResponse } from '../../../domain/rest.ts'
import { isApiError, messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { Dialog, DialogForm } from '../../components/Dialog.tsx'
import { TextField } from '../../components/Field.tsx'
import { usePushToast } from '../../components/Toasts.tsx'
import { routeKey } from '../../queries/queries.ts'

/** A row of GET /mgmt/users. */
export type TeamUser = RouteResponse<'teamUsers'>[number]

/** Toasts of the team page (spec/account.md §8). */
export const TEAM_MESSAGES = {
  addFailed: 'Could not add a new user!',
  editFailed: 'Editing user failed',
  deleteFailed: 'Error while deleting the user',
  invited: 'Invitation sent',
} as const

function RoleSelect({
  value,
  onChange,
}: {
  value: InvitableRole
  onChange: (role: InvitableRole) => void
}) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        Role
      </label>
      <select
        id={id}
        className="select"
        value={value}
        onChange={(event) => onChange(event.target.value as InvitableRole)}
      >
        {INVITABLE_ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
    </div>
  )
}

function useRefreshTeam() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: routeKey('teamUsers') })
}

/** New User: e-mail, first name, surname, role; the server e-mails the invitation. */
export function NewUserDialog({
  teamEmails,
  onClose,
}: {
  teamEmails: readonly string[]
  onClose: () => void
}) {
  const pushToast = usePushToast()
  const refresh = useRefreshTeam()
  const [form, setForm] = useState({ email: '', firstName: '', lastName: '' })
  const [role, setRole] = useState<InvitableRole>('contributor')
  const [submitted, setSubmitted] = useState(false)
  const issues = checkInvite({ ...form, role }, teamEmails)
  const errorOf = (field: string) =>
    submitted ? (issues.find((i) => i.field === field)?.message ?? null) : null
  const add = useMutation({
    mutationFn: () => callApi('createTeamUser', { body: { ...form, role } }),
    onSuccess: (member) => {
      void refresh()
      pushToast({
        kind: 'success',
        title: TEAM_MESSAGES.invited,
        description: `${member.fullName} (${member.email})`,
      })
      onClose()
    },
    onError: (failure) => {
      const mailFailed =
        isApiError(failure) && failure.message === SECURITY_MESSAGES.inviteSendFailed
      pushToast({
        kind: 'error',
        title: mailFailed ? SECURITY_MESSAGES.inviteSendFailed : TEAM_MESSAGES.addFailed,
        description: mailFailed ? undefined : messageOf(failure),
      })
    },
  })
  const set = (field: keyof typeof form) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }))
  return (
    <Dialog title="New User" onClose={onClose} variant="side">
      <DialogForm
        onSubmit={() => {
          setSubmitted(true)
          if (issues.length === 0) add.mutate()
        }}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={add.isPending}>
              Invite
            </button>
          </>
        }
      >
        <TextField
          label="Email"
          value={form.email}
          onChange={set('email')}
          error={errorOf('email')}
          autoComplete="off"
        />
        <TextField
          label="First name"
          value={form.firstName}
          onChange={set('firstName')}
          error={errorOf('firstName')}
        />
        <TextField
          label="Surname"
          value={form.lastName}
          onChange={set('lastName')}
          error={errorOf('lastName')}
        />
        <RoleSelect value={role} onChange={setRole} />
        <p className="dialog__text muted">They get an e-mail with a link to set their password.</p>
      </DialogForm>
    </Dialog>
  )
}

/** Edit User: names, job title, role; sends the changed fields only. */
export function EditUserDialog({
  member,
  canChangeRole,
  onClose,
}: {
  member: TeamUser
  canChangeRole: boolean
  onClose: () => void
}) {
  const pushToast = usePushToast()
  const refresh = useRefreshTeam()
  const [first, last] = splitName(member.fullName)
  const initial = { firstName: first, lastName: last, department: member.department ?? '' }
  const [form, setForm] = useState(initial)
  const [role, setRole] = useState<InvitableRole>(
    member.role === 'manager' ? 'manager' : 'contributor',
  )
  const firstError = form.firstName.trim() === '' ? 'First name is required' : null
  const lastError = form.lastName.trim() === '' ? 'Surname is required' : null
  const edit = useMutation({
    mutationFn: () => {
      const body: Record<string, string> = {}
      if (form.firstName !== initial.firstName) body.firstName = form.firstName
      if (form.lastName !== initial.lastName) body.lastName = form.lastName
      if (form.department !== initial.department) body.department = form.department
      if (canChangeRole && role !== member.role) body.role = role
      return callApi('updateTeamUser', { params: { id: String(member.id) }, body })
    },
    onSuccess: () => {
      void refresh()
      onClose()
    },
    onError: (failure) =>
      pushToast({
        kind: 'error',
        title: TEAM_MESSAGES.editFailed,
        description: messageOf(failure),
      }),
  })
  const set = (field: keyof typeof form) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }))
  return (
    <Dialog title="Edit User" subtitle={member.email} onClose={onClose} variant="side">
      <DialogForm
        onSubmit={() => {
          if (!firstError && !lastError) edit.mutate()
        }}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button
              type="submit"
              className="button button--primary"
              disabled={edit.isPending || Boolean(firstError ?? lastError)}
            >
              Save
            </button>
          </>
        }
      >
        <TextField
          label="First name"
          value={form.firstName}
          onChange={set('firstName')}
          error={firstError}
        />
        <TextField
          label="Surname"
          value={form.lastName}
          onChange={set('lastName')}
          error={lastError}
        />
        <TextField label="Job title" value={form.department} onChange={set('department')} />
        {canChangeRole && <RoleSelect value={role} onChange={setRole} />}
      </DialogForm>
    </Dialog>
  )
}

/** First name and surname of a full name ("Mia Manager"); the server keeps them apart too. */
function splitName(fullName: string): [string, string] {
  const at = fullName.indexOf(' ')
  return at < 0 ? [fullName, ''] : [fullName.slice(0, at), fullName.slice(at + 1)]
}

/** Delete User: the user's full name must be typed exactly. */
export function DeleteUserDialog({ member, onClose }: { member: TeamUser; onClose: () => void }) {
  const pushToast = usePushToast()
  const refresh = useRefreshTeam()
  const id = useId()
  const [typed, setTyped] = useState('')
  const confirmed = isNameConfirmed(typed, member.fullName)
  const remove = useMutation({
    mutationFn: () => callApi('deleteTeamUser', { params: { id: String(member.id) } }),
    onSuccess: () => {
      void refresh()
      onClose()
    },
    onError: (failure) =>
      pushToast({
        kind: 'error',
        title: TEAM_MESSAGES.deleteFailed,
        description: messageOf(failure),
      }),
  })
  return (
    <Dialog title="Delete User" onClose={onClose} size="small">
      <DialogForm
        onSubmit={() => {
          if (confirmed) remove.mutate()
        }}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button
              type="submit"
              className="button button--danger"
              disabled={!confirmed || remove.isPending}
            >
              Delete
            </button>
          </>
        }
      >
        <p className="dialog__text">
          Delete <strong>{member.fullName}</strong>? Their projects and simulations pass to you.
        </p>
        <div className="field">
          <label htmlFor={id} className="field__label">
            {TYPE_NAME_TO_CONFIRM}
          </label>
          <input
            id={id}
            className="input"
            value={typed}
            placeholder={member.fullName}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
      </DialogForm>
    </Dialog>
  )
}
