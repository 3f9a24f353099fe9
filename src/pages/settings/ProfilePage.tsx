import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { AVATARS, checkProfile, type User } from '../../../domain/account.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { TextField } from '../../components/Field.tsx'
import { usePushToast } from '../../components/Toasts.tsx'
import { useCurrentUser } from '../../lib/currentUser.ts'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import { routeKey } from '../../queries/queries.ts'
import { AnalyticsPreferenceCard } from './AnalyticsCards.tsx'
import { avatarOf } from './avatars.ts'
import { PasswordCard, TwoFactorCard } from './SecurityCards.tsx'

/** The badge of users who sign in through an identity provider (spec/account.md §2). */
export const SSO_BADGE = 'Single Sign-On Enabled'

/** Message of the profile save (spec/account.md §8). */
export const PROFILE_SAVED_MESSAGE = 'Successfully updated your profile'

function formOf(user: User) {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    phoneNumber: user.phoneNumber ?? '',
    department: user.department ?? '',
    location: user.location ?? '',
  }
}

/** /settings/profile: names, phone, job title, location, avatar; password and two-factor. */
export function ProfilePage() {
  usePageTitle('Profile')
  const user = useCurrentUser()
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  const budget = useQuery({
    queryKey: routeKey('budget'),
    queryFn: ({ signal }) => callApi('budget', {}, { signal }),
  })
  const ssoConnection = budget.data?.ssoConnection ?? null
  const [form, setForm] = useState(() => formOf(user))
  const [avatarId, setAvatarId] = useState(user.avatarId)
  const [submitted, setSubmitted] = useState(false)
  const issues = checkProfile(form)
  const errorOf = (field: string) =>
    submitted ? (issues.find((issue) => issue.field === field)?.message ?? null) : null

  const save = useMutation({
    mutationFn: () =>
      callApi('updateProfile', {
        body: {
          firstName: form.firstName,
          lastName: form.lastName,
          phoneNumber: form.phoneNumber,
          department: form.department,
          location: form.location,
          avatarId,
        },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(routeKey('currentUser'), updated)
      void queryClient.invalidateQueries({ queryKey: routeKey('teamUsers') })
      pushToast({ kind: 'success', title: PROFILE_SAVED_MESSAGE })
    },
    onError: (error) =>
      pushToast({
        kind: 'error',
        title: 'Could not update your profile',
        description: messageOf(error),
      }),
  })

  const set = (field: keyof typeof form) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }))

  return (
    <div className="page">
      <header className="page__header">
        <h1 className="page__title">Profile</h1>
      </header>
      <div className="settings-stack">
        {user.activeAccessGrantId !== null && (
          <div className="alert alert--error" role="alert">
            You are acting in another organization through an access grant. Select your default
            organization to edit your profile.
          </div>
        )}
        <section className="card card--padded" aria-labelledby="profile-details">
          <h2 id="profile-details" className="card__title">
            Personal details
          </h2>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault()
              setSubmitted(true)
              if (issues.length === 0) save.mutate()
            }}
          >
            <fieldset className="avatar-picker">
              <legend className="field__label">Avatar</legend>
              {AVATARS.map((_, id) => {
                const avatar = avatarOf(id)
                return (
                  <label key={id} className="avatar-picker__option" title={avatar.name}>
                    <input
                      type="radio"
                      name="avatar"
                      value={id}
                      checked={avatarId === id}
                      aria-label={avatar.name}
                      onChange={() => setAvatarId(id)}
                    />
                    <span className={`avatar-picker__face ${avatar.className}`} aria-hidden="true">
                      {avatar.initials}
                    </span>
                  </label>
                )
              })}
            </fieldset>
            <div className="settings-grid">
              <TextField
                label="First name"
                value={form.firstName}
                onChange={set('firstName')}
                error={errorOf('firstName')}
                autoComplete="given-name"
              />
              <TextField
                label="Surname"
                value={form.lastName}
                onChange={set('lastName')}
                error={errorOf('lastName')}
                autoComplete="family-name"
              />
              <TextField
                label="Phone"
                value={form.phoneNumber}
                onChange={set('phoneNumber')}
                error={errorOf('phoneNumber')}
                placeholder="+49 30 1234567"
                autoComplete="tel"
              />
              <TextField label="Job title" value={form.department} onChange={set('department')} />
              <TextField label="Location" value={form.location} onChange={set('location')} />
            </div>
            <p className="muted">E-mail (your login): {user.email}</p>
            <div className="settings-actions">
              <button type="submit" className="button button--primary" disabled={save.isPending}>
                {save.isPending ? 'Saving…' : 'Save'}
              </button>
            </div>
          </form>
        </section>
        {ssoConnection !== null && (
          <section className="card card--padded" aria-labelledby="profile-sign-in">
            <h2 id="profile-sign-in" className="card__title">
              Sign-in
            </h2>
            <p>
              <span className="badge badge--sso">{SSO_BADGE}</span>
            </p>
            <p className="muted">
              You sign in through your organization&apos;s identity provider ({ssoConnection}); it
              manages your password and two-factor authentication.
            </p>
          </section>
        )}
        {budget.data !== undefined && ssoConnection === null && (
          <>
            <PasswordCard />
            <TwoFactorCard />
          </>
        )}
        <AnalyticsPreferenceCard />
      </div>
    </div>
  )
}
