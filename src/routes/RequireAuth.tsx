import { Navigate, Outlet, useLocation } from 'react-router'
import { isApiError } from '../api/ApiError.ts'
import { useAuthTokens } from '../api/index.ts'
import { LoadingBlock } from '../components/Spinner.tsx'
import { CurrentUserContext } from '../lib/currentUser.ts'
import { useCurrentUserQuery } from '../queries/queries.ts'

/** /login?redirect=… for the page the visitor wanted. */
export function loginPathFor(location: { pathname: string; search: string }): string {
  const target = `${location.pathname}${location.search}`
  return target === '/' ? '/login' : `/login?redirect=${encodeURIComponent(target)}`
}

/**
 * Every route below needs a login: no tokens → login (and back afterwards); the user cannot be
 * fetched → /unauthorized; otherwise the user is provided to the pages.
 */
export function RequireAuth() {
  const location = useLocation()
  const tokens = useAuthTokens()
  const userQuery = useCurrentUserQuery(tokens !== null)

  if (!tokens) return <Navigate to={loginPathFor(location)} replace />
  if (userQuery.isError) {
    const lostSession = isApiError(userQuery.error) && userQuery.error.status === 401
    return <Navigate to={lostSession ? loginPathFor(location) : '/unauthorized'} replace />
  }
  if (!userQuery.data) return <LoadingBlock label="Loading your workspace" />
  return (
    <CurrentUserContext value={userQuery.data}>
      <Outlet />
    </CurrentUserContext>
  )
}
