import { Link } from 'react-router'
import { IconInfo } from '../../components/icons.tsx'
import { simulationPageLink } from '../projects/projectLinks.ts'

/** A simulation page that cannot be used for this simulation, with the reason. */
export function Unavailable({ message, simulationId }: { message: string; simulationId: number }) {
  return (
    <div className="card card--padded unavailable">
      <IconInfo className="unavailable__icon" width={28} height={28} />
      <p className="unavailable__message">{message}</p>
      <Link to={simulationPageLink(simulationId, 'dashboard')} className="button button--secondary">
        Go to Monitor
      </Link>
    </div>
  )
}
