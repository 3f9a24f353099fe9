import { useId, useState, type FormEvent } from 'react'
import { Link, useSearchParams } from 'react-router'
import { SECURITY_MESSAGES, checkNewPassword } from '../../../domain/accountSecurity.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import { CenteredCard } from '../CenteredCard.tsx'

/** /set-password?token=…: the link of an invitation or reset e-mail sets the password. */
export function SetPasswordPage() {
  usePageTitle('Set password')
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [password, setPassword] = useState('')
  const [repeated, setRepeated] = useState('')
  const [error, setError] = useState<string | null>(token ? null : SECURITY_MESSAGES.linkInvalid)
  const [state, setState] = useState<'editing' | 'saving' | 'done'>('editing')
  const passwordId = useId()
  const repeatId = useId()

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    const problem = token ? checkNewPassword(password, repeated) : SECURITY_MESSAGES.linkInvalid
    setError(problem)
    if (problem) return
    setState('saving')
    try {
      await callApi(
        'resetPassword',
        { body: { token, password } },
        { redirectOnAuthFailure: false },
      )
      setState('done')
    } catch (failure) {
      setError(messageOf(failure))
      setState('editing')
    }
  }

  return (
    <CenteredCard>
      <h1 className="centered-card__title">Set your password</h1>
      {state === 'done' ? (
        <>
          <p className="centered-card__text" role="status">
            {SECURITY_MESSAGES.passwordSet}
          </p>
          <Link className="button button--primary button--block" to="/login">
            Log in
          </Link>
        </>
      ) : (
        <form className="form" onSubmit={(event) => void handleSubmit(event)} noValidate>
          {error && (
            <div className="alert alert--error" role="alert">
              {error}
            </div>
          )}
          <div className="field">
            <label htmlFor={passwordId} className="field__label">
              New password
            </label>
            <input
              id={passwordId}
              className="input"
              type="password"
              autoComplete="new-password"
              autoFocus
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={repeatId} className="field__label">
              Repeat the password
            </label>
            <input
              id={repeatId}
              className="input"
              type="password"
              autoComplete="new-password"
              value={repeated}
              onChange={(event) => setRepeated(event.target.value)}
            />
          </div>
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={state === 'saving' || !token}
          >
            {state === 'saving' ? 'Saving…' : 'Set password'}
          </button>
        </form>
      )}
    </CenteredCard>
  )
}
