import { Link } from 'react-router'
import { usePageTitle } from '../lib/usePageTitle.ts'

/** Unknown routes, and resources the user may not see. */
export function NotFoundPage() {
  usePageTitle('Not found')
  return (
    <div className="message-page">
      <p className="message-page__code" aria-hidden="true">
        404
      </p>
      <h1 className="message-page__title">It&apos;s empty here!</h1>
      <p className="message-page__text">
        The page you are looking for does not exist or you do not have access to it.
      </p>
      <Link to="/projects" className="button button--secondary">
        Go to projects
      </Link>
    </div>
  )
}
