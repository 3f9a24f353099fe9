import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { LOGOUT_CONFIRM_REDIRECT_MS, LOGOUT_REDIRECT_DELAY_MS } from '../../domain/constants.ts'
import { api, useAuthTokens } from '../api/index.ts'
import { Spinner } from '../components/Spinner.tsx'
import { usePageTitle } from '../lib/usePageTitle.ts'
import { CenteredCard } from './CenteredCard.tsx'

/** /logout revokes the session; /logout?confirm=true confirms and goes to / after 2 s. */
export function LogoutPage() {
  usePageTitle('Logout')
  const [params] = useSearchParams()
  return params.get('confirm') === 'true' ? <LogoutConfirmation /> : <LoggingOut />
}

function LoggingOut() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()

  useEffect(() => {
    let cancelled = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const startedMs = Date.now()
    void api.logout().then(() => {
      queryClient.clear()
      const waitMs = Math.max(0, LOGOUT_REDIRECT_DELAY_MS - (Date.now() - startedMs))
      timer = setTimeout(() => {
        if (!cancelled) void navigate('/logout?confirm=true', { replace: true })
      }, waitMs)
    })
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [navigate, queryClient])

  return (
    <CenteredCard>
      <div className="centered-card__status">
        <Spinner label="Logging out" size={22} />
        <h1 className="centered-card__title">Logging out…</h1>
      </div>
    </CenteredCard>
  )
}

function LogoutConfirmation() {
  const navigate = useNavigate()
  const tokens = useAuthTokens()

  useEffect(() => {
    // Still authenticated (e.g. another tab logged in meanwhile): log out again.
    if (tokens) {
      void navigate('/logout', { replace: true })
      return
    }
    const timer = setTimeout(
      () => void navigate('/', { replace: true }),
      LOGOUT_CONFIRM_REDIRECT_MS,
    )
    return () => clearTimeout(timer)
  }, [tokens, navigate])

  return (
    <CenteredCard>
      <h1 className="centered-card__title">You have been logged out</h1>
      <p className="centered-card__text">See you soon. You will be redirected in a moment.</p>
      <Link to="/login" className="button button--secondary button--block">
        Log in again
      </Link>
    </CenteredCard>
  )
}
