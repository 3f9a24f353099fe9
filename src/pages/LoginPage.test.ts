import { describe, expect, it } from 'vitest'
import { LOGIN_FAILED_MESSAGE, tooManyLoginAttemptsMessage } from '../../domain/auth.ts'
import { ApiError } from '../api/ApiError.ts'
import { loginErrorMessage, safeRedirectTarget } from './LoginPage.tsx'

describe('safeRedirectTarget', () => {
  it('returns to a path of this app', () => {
    expect(safeRedirectTarget('/projects?view=all')).toBe('/projects?view=all')
  })

  it('refuses other hosts, the auth pages and nothing at all', () => {
    expect(safeRedirectTarget('//evil.example/x')).toBe('/')
    expect(safeRedirectTarget('https://evil.example')).toBe('/')
    expect(safeRedirectTarget('/logout?confirm=true')).toBe('/')
    expect(safeRedirectTarget(null)).toBe('/')
  })
})

describe('loginErrorMessage', () => {
  it("shows the server's message for wrong credentials", () => {
    const error = new ApiError(401, {
      code: 'authentication_failed',
      title: 'Authentication Failed',
      description: 'Wrong e-mail or password.',
    })
    expect(loginErrorMessage(error)).toBe('Wrong e-mail or password.')
  })

  it('asks for the authenticator code when two-factor sign-in needs it (403)', () => {
    const error = new ApiError(403, {
      code: 'forbidden',
      title: 'Forbidden',
      description: 'Enter the code of your authenticator app.',
    })
    expect(loginErrorMessage(error)).toBe('Enter the code of your authenticator app.')
  })

  it('shows how long to wait when log-ins are throttled', () => {
    const error = new ApiError(429, {
      code: 'too_many_requests',
      title: 'Too many requests',
      description: tooManyLoginAttemptsMessage(840),
    })
    expect(loginErrorMessage(error)).toBe(
      'Too many failed log-in attempts. Try again in 14 minutes.',
    )
  })

  it('shows the generic login failure for anything else', () => {
    expect(loginErrorMessage(new ApiError(500, undefined))).toBe(LOGIN_FAILED_MESSAGE)
    expect(loginErrorMessage(new ApiError(0, undefined))).toBe(LOGIN_FAILED_MESSAGE)
    expect(loginErrorMessage(new TypeError('boom'))).toBe(LOGIN_FAILED_MESSAGE)
  })
})
