import { useNavigate } from 'react-router'
import { AUTH_FAILED_TITLE } from '../../domain/auth.ts'
import { usePageTitle } from '../lib/usePageTitle.ts'
import { CenteredCard } from './CenteredCard.tsx'

/** Where a visitor lands when their user could not be fetched. */
export function UnauthorizedPage() {
  usePageTitle(AUTH_FAILED_TITLE)
  const navigate = useNavigate()
  return (
    <CenteredCard>
      <h1 className="centered-card__title">{AUTH_FAILED_TITLE}</h1>
      <p className="centered-card__text">
        We could not load your account. Please log in again to continue.
      </p>
      <button
        type="button"
        className="button button--primary button--block"
        onClick={() => void navigate('/logout')}
      >
        Login
      </button>
    </CenteredCard>
  )
}
