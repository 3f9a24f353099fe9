import { useEffect } from 'react'
import { useRouteError } from 'react-router'
import { SUPPORT_EMAIL } from '../components/shell/helpLinks.ts'
import { usePageTitle } from '../lib/usePageTitle.ts'
import { CenteredCard } from './CenteredCard.tsx'

/** The error boundary's fallback. */
export function ErrorPage() {
  usePageTitle('Error')
  const error = useRouteError()
  useEffect(() => {
    console.error(error)
  }, [error])
  return (
    <CenteredCard>
      <h1 className="centered-card__title">Something went wrong!</h1>
      <p className="centered-card__text">
        An unexpected error occurred. Refreshing the page usually helps. If it keeps happening,
        write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
      <button
        type="button"
        className="button button--primary button--block"
        onClick={() => window.location.reload()}
      >
        Refresh
      </button>
    </CenteredCard>
  )
}
