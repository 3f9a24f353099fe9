import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import {
  SECURITY_MESSAGES,
  checkNewPassword,
  type MfaEnrolment,
} from '../../../domain/accountSecurity.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { Dialog, DialogForm } from '../../components/Dialog.tsx'
import { usePushToast } from '../../components/Toasts.tsx'
import { routeKey } from '../../queries/queries.ts'
import { formatDate } from '../../lib/format.ts'

function PasswordInput({
  label,
  value,
  onChange,
  autoComplete,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  autoComplete: string
}) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="password"
        autoComplete={autoComplete}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  )
}

/** Password: a reset link by e-mail, or a change with the current password. */
export function PasswordCard() {
  const pushToast = usePushToast()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [repeated, setRepeated] = useState('')
  const [error, setError] = useState<string | null>(null)
  const requestReset = useMutation({
    mutationFn: () => callApi('requestPasswordReset', { body: {} }),
    onSuccess: () =>
      pushToast({
        kind: 'success',
        title: SECURITY_MESSAGES.resetRequested,
        description: SECURITY_MESSAGES.resetRequestedHint,
      }),
    onError: (failure) =>
      pushToast({
        kind: 'error',
        title: 'Could not send the e-mail',
        description: messageOf(failure),
      }),
  })
  const change = useMutation({
    mutationFn: () =>
      callApi('changePassword', { body: { currentPassword: current, newPassword: next } }),
    onSuccess: () => {
      setCurrent('')
      setNext('')
      setRepeated('')
      pushToast({ kind: 'success', title: SECURITY_MESSAGES.passwordChanged })
    },
    onError: (failure) => setError(messageOf(failure)),
  })
  return (
    <section className="card card--padded" aria-labelledby="profile-password">
      <h2 id="profile-password" className="card__title">
        Password
      </h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          const problem =
            current === ''
              ? SECURITY_MESSAGES.currentPasswordWrong
              : checkNewPassword(next, repeated)
          setError(problem)
          if (!problem) change.mutate()
        }}
      >
        {error && (
          <div className="alert alert--error" role="alert">
            {error}
          </div>
        )}
        <div className="settings-grid">
          <PasswordInput
            label="Current password"
            value={current}
            onChange={setCurrent}
            autoComplete="current-password"
          />
          <span />
          <PasswordInput
            label="New password"
            value={next}
            onChange={setNext}
            autoComplete="new-password"
          />
          <PasswordInput
            label="Repeat the new password"
            value={repeated}
            onChange={setRepeated}
            autoComplete="new-password"
          />
        </div>
        <div className="settings-actions">
          <button
            type="button"
            className="button button--secondary"
            disabled={requestReset.isPending}
            onClick={() => requestReset.mutate()}
          >
            Send me a reset link
          </button>
          <button type="submit" className="button button--primary" disabled={change.isPending}>
            Change password
          </button>
        </div>
      </form>
    </section>
  )
}

/** Two-factor authentication: the authenticators, enrolment with a QR code, deletion. */
export function TwoFactorCard() {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  const [enrolment, setEnrolment] = useState<MfaEnrolment | null>(null)
  const authenticators = useQuery({
    queryKey: routeKey('listAuthenticators'),
    queryFn: ({ signal }) => callApi('listAuthenticators', {}, { signal }),
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: routeKey('listAuthenticators') })
  const enrol = useMutation({
    mutationFn: () => callApi('enrolAuthenticator', { body: { name: 'Authenticator app' } }),
    onSuccess: (ticket) => {
      setEnrolment(ticket)
      void refresh()
    },
    onError: (failure) =>
      pushToast({
        kind: 'error',
        title: 'Could not start the enrolment',
        description: messageOf(failure),
      }),
  })
  const remove = useMutation({
    mutationFn: (id: number) => callApi('deleteAuthenticator', { params: { id: String(id) } }),
    onSuccess: () => {
      void refresh()
      pushToast({
        kind: 'success',
        title: SECURITY_MESSAGES.mfaDisabled,
        description: SECURITY_MESSAGES.mfaDisabledHint,
      })
    },
    onError: (failure) =>
      pushToast({
        kind: 'error',
        title: SECURITY_MESSAGES.mfaDisableFailed,
        description: messageOf(failure),
      }),
  })
  const confirmed = (authenticators.data ?? []).filter((a) => a.confirmed)
  return (
    <section className="card card--padded" aria-labelledby="profile-mfa">
      <h2 id="profile-mfa" className="card__title">
        Two-Factor Authentication
      </h2>
      <p className="muted">
        {confirmed.length > 0
          ? `${SECURITY_MESSAGES.mfaEnabled}: login asks for a code from your authenticator app.`
          : 'Add an authenticator app (such as Google Authenticator, Microsoft Authenticator or FreeOTP) to ask for a code at login.'}
      </p>
      {confirmed.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Authenticators</caption>
            <thead>
              <tr>
                <th scope="col">Authenticator</th>
                <th scope="col">Added</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {confirmed.map((authenticator) => (
                <tr key={authenticator.id}>
                  <td>{authenticator.name}</td>
                  <td>{formatDate(authenticator.createdAt)}</td>
                  <td className="table__actions">
                    <button
                      type="button"
                      className="button button--danger-text button--small"
                      aria-label={`Delete ${authenticator.name}`}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(authenticator.id)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="settings-actions">
        <button
          type="button"
          className="button button--primary"
          disabled={enrol.isPending}
          onClick={() => enrol.mutate()}
        >
          Add authenticator
        </button>
      </div>
      {enrolment && (
        <EnrolDialog
          enrolment={enrolment}
          onClose={() => setEnrolment(null)}
          onVerified={() => {
            setEnrolment(null)
            void refresh()
            pushToast({ kind: 'success', title: SECURITY_MESSAGES.mfaEnabled })
          }}
        />
      )}
    </section>
  )
}

function EnrolDialog({
  enrolment,
  onClose,
  onVerified,
}: {
  enrolment: MfaEnrolment
  onClose: () => void
  onVerified: () => void
}) {
  const codeId = useId()
  const errorId = useId()
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const verify = useMutation({
    mutationFn: () =>
      callApi('verifyAuthenticator', {
        params: { id: String(enrolment.authenticator.id) },
        body: { code: code.trim() },
      }),
    onSuccess: onVerified,
    onError: (failure) => setError(messageOf(failure)),
  })
  const qrSrc = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`
  return (
    <Dialog title="Add authenticator" onClose={onClose} size="small">
      <DialogForm
        onSubmit={() => {
          if (!/^\d{6}$/.test(code.trim())) setError(SECURITY_MESSAGES.codeWrong)
          else verify.mutate()
        }}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={verify.isPending}>
              Verify
            </button>
          </>
        }
      >
        <p className="dialog__text">
          Scan the QR code with your authenticator app, then enter the six-digit code it shows.
        </p>
        <img className="settings-qr" src={qrSrc} alt="QR code of the authenticator secret" />
        <p className="dialog__text">
          Or enter this key by hand:{' '}
          <span className="settings-secret" data-testid="totp-secret">
            {enrolment.secret}
          </span>
        </p>
        <div className="field">
          <label htmlFor={codeId} className="field__label">
            Code from the app
          </label>
          <input
            id={codeId}
            className={`input${error ? ' input--invalid' : ''}`}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => setCode(event.target.value)}
          />
          {error && (
            <p id={errorId} className="field__error">
              {error}
            </p>
          )}
        </div>
      </DialogForm>
    </Dialog>
  )
}
