import {
  FLUID_VOLUME_WARNING_RATIO,
  formatFluidVolume,
  formatVolumeDifference,
  type Discretization,
  type DiscretizedPart,
} from '../../../../../domain/discretization.ts'
import { formatCount } from '../../../../../domain/units.ts'
import { messagesOf, type DiscretizationSummary } from './discretizationModel.ts'

/** Role words of the summary's parts. */
const ROLE_LABELS: Record<DiscretizedPart['role'], string> = {
  fluid: 'Fluid',
  wall: 'Wall',
  open_boundary: 'Open boundary',
  none: 'No particles',
}

/**
 * A fluid part's volume: what its particles hold (particles × dp³) against its own volume below
 * the fill height, with the difference; flagged beyond 1 %. Empty for walls and older summaries.
 */
function FluidVolume({ part }: { part: DiscretizedPart }) {
  if (part.role !== 'fluid' || part.particleVolume === undefined) return null
  const own = part.geometricVolume
  const difference = part.volumeDifference
  const off = difference != null && Math.abs(difference) > FLUID_VOLUME_WARNING_RATIO
  return (
    <span className={off ? 'discretization__volume--off' : undefined}>
      {formatFluidVolume(part.particleVolume)}
      {own != null && ` of ${formatFluidVolume(own)}`}
      {difference != null && ` (${formatVolumeDifference(difference)})`}
    </span>
  )
}

/** Particles and fluid volume per part and in total, fluid and walls apart. */
export function DiscretizationSummaryView({ summary }: { summary: DiscretizationSummary }) {
  const fluidVolume = summary.fluidParticleVolume
  const ownVolume = summary.fluidMeshVolume
  return (
    <table className="discretization__table" aria-label="Particles per part">
      <thead>
        <tr>
          <th scope="col">Part</th>
          <th scope="col">Role</th>
          <th scope="col" title="Particles × particle diameter³, of the part's own volume">
            Fluid volume
          </th>
          <th scope="col">Particles</th>
        </tr>
      </thead>
      <tbody>
        {summary.parts.map((part) => (
          <tr key={part.partId}>
            <th scope="row">{part.name}</th>
            <td>{ROLE_LABELS[part.role]}</td>
            <td>
              <FluidVolume part={part} />
            </td>
            <td>{formatCount(part.particleCount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Fluid</th>
          <td />
          <td>
            {fluidVolume !== undefined && formatFluidVolume(fluidVolume)}
            {fluidVolume !== undefined &&
              ownVolume !== undefined &&
              ownVolume > 0 &&
              ` of ${formatFluidVolume(ownVolume)}`}
          </td>
          <td>{formatCount(summary.fluidCount)}</td>
        </tr>
        <tr>
          <th scope="row">Walls</th>
          <td />
          <td />
          <td>{formatCount(summary.wallCount)}</td>
        </tr>
        {summary.refinement && (
          <tr>
            <th scope="row">Refinement</th>
            <td />
            <td>
              {formatCount(summary.refinement.split)} split into{' '}
              {formatCount(summary.refinement.children)}
            </td>
            <td>+{formatCount(summary.refinement.children - summary.refinement.split)}</td>
          </tr>
        )}
        {(summary.openBoundaryCount ?? 0) > 0 && (
          <tr>
            <th scope="row">Open boundaries</th>
            <td />
            <td />
            <td>{formatCount(summary.openBoundaryCount!)}</td>
          </tr>
        )}
        <tr className="discretization__total">
          <th scope="row">Total</th>
          <td />
          <td />
          <td>{formatCount(summary.particleCount)}</td>
        </tr>
      </tfoot>
    </table>
  )
}

/** The record's errors and warnings, each with its part's name when it concerns one. */
export function DiscretizationMessages(props: {
  record: Discretization
  partNames: ReadonlyMap<number, string>
}) {
  const messages = messagesOf(props.record)
  if (messages.length === 0) return null
  return (
    <ul className="discretization__messages" aria-label="Discretization messages">
      {messages.map((message, index) => {
        const part =
          typeof message.partId === 'number' ? props.partNames.get(message.partId) : undefined
        return (
          <li key={index} className={`discretization__message--${message.level}`}>
            <span className="discretization__level">
              {message.level === 'error' ? 'Error' : 'Warning'}
            </span>
            {part && <span className="discretization__part">{part}:</span>} {message.description}
          </li>
        )
      })}
    </ul>
  )
}
