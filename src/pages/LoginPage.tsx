import { useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { Navigate, useSearchParams } from 'react-router'
import * as v from 'valibot'
import { LOGIN_FAILED_MESSAGE, LoginRequestSchema } from '../../domain/auth.ts'
import { isApiError } from '../api/ApiError.ts'
import { api, useAuthTokens } from '../api/index.ts'
import { usePageTitle } from '../lib/usePageTitle.ts'
import { CenteredCard } from './CenteredCard.tsx'

/** Where to go after login: a path of this app from ?redirect=, else '/'. */
export function safeRedirectTarget(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return '/'
  if (/^\/(login|logout|unauthorized)(\/|\?|$)/.test(value)) return '/'
  return value
}

/**
 * The server's wrong-credentials or throttling message (429: too many attempts, with the wait),
 * or the generic login failure for anything else.
 */
export function loginErrorMessage(error: unknown): string {
  if (isApiError(error) && (error.status === 401 || error.status === 429)) return error.message
  // 403: two-factor sign-in is on and the authenticator's code is needed.
  if (isApiError(error) && error.status === 403) return error.message
  if (isApiError(error) && error.body?.code === 'validation_error') return error.message
  return LOGIN_FAILED_MESSAGE
}

export function LoginPage() {
  usePageTitle('Log in')
  const [params] = useSearchParams()
  const redirectTo = safeRedirectTarget(params.get('redirect'))
  const tokens = useAuthTokens()
  const queryClient = useQueryClient()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const [code, setCode] = useState<string | null>(null)
  const emailId = useId()
  const passwordId = useId()
  const codeId = useId()

  if (tokens) return <Navigate to={redirectTo} replace />

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    const checked = v.safeParse(LoginRequestSchema, { email, password })
    if (!checked.success) {
      setError(checked.issues[0]?.message ?? LOGIN_FAILED_MESSAGE)
      return
    }
    setSubmitting(true)
    setError(null)
    try {
      // Whatever was cached belongs to the previous session.
      queryClient.clear()
      await api.login(checked.output.email, checked.output.password, code?.trim() || undefined)
    } catch (failure) {
      if (isApiError(failure) && failure.status === 403 && code === null) setCode('')
      setError(loginErrorMessage(failure))
      setSubmitting(false)
    }
  }

  return (
    <CenteredCard>
      <h1 className="centered-card__title">Log in</h1>
      <p className="centered-card__text">Welcome back. Log in to your workspace.</p>
      <form className="form" onSubmit={(event) => void handleSubmit(event)} noValidate>
        {error && (
          <div className="alert alert--error" role="alert">
            {error}
          </div>
        )}
        <div className="field">
          <label htmlFor={emailId} className="field__label">
            Email
          </label>
          <input
            id={emailId}
            className="input"
            type="email"
            autoComplete="username"
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={passwordId} className="field__label">
            Password
          </label>
          <input
            id={passwordId}
            className="input"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        {code !== null && (
          <div className="field">
            <label htmlFor={codeId} className="field__label">
              Authentication code
            </label>
            <input
              id={codeId}
              className="input"
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </div>
        )}
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={submitting}
        >
          {submitting ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </CenteredCard>
  )
}
