import { useNavigate } from 'react-router'
import { HELP_LINKS } from '../components/shell/helpLinks.ts'
import { usePageTitle } from '../lib/usePageTitle.ts'

const SUBMIT_TICKET = HELP_LINKS.find((link) => link.label === 'Submit Ticket')

/** A page the user lacks the permission for. */
export function ForbiddenPage() {
  usePageTitle('No access')
  const navigate = useNavigate()
  return (
    <div className="message-page">
      <h1 className="message-page__title">What are you doing here?</h1>
      <p className="message-page__text">
        You do not have permission to see this page. If you think you should,{' '}
        <a href={SUBMIT_TICKET?.href} target="_blank" rel="noopener noreferrer">
          submit a ticket
        </a>
        .
      </p>
      <button type="button" className="button button--secondary" onClick={() => void navigate(-1)}>
        Go back
      </button>
    </div>
  )
}
