import type { ReactNode } from 'react'
import { preprocessorAvailability } from '../../../domain/simulationState.ts'
import type { SimulationSettings } from '../../../domain/settings.ts'
import { formatDateTime } from '../../lib/format.ts'
import { useSimulationContext } from './SimulationLayout.tsx'
import { Unavailable } from './Unavailable.tsx'

const onOff = (value: boolean) => (value ? 'On' : 'Off')
const numberOr = (value: number | null, unit: string) =>
  value === null ? 'Not set' : `${value} ${unit}`.trim()
const vectorText = (vector: readonly (number | null)[] | null, unit: string) =>
  vector ? `(${vector.map((c) => (c === null ? '–' : c)).join(', ')}) ${unit}` : 'Not set'

const SCHEME_LABELS: Record<SimulationSettings['integrationScheme'], string> = {
  dual_timestep_rk_4: 'Dual time step RK4',
  runge_kutta_4: 'Runge–Kutta 4',
}

/** Number of outputs the settings produce: end time ÷ output interval. */
export function outputCount(settings: SimulationSettings): number | null {
  const { endTime, outputTimeInterval } = settings
  if (endTime === null || outputTimeInterval === null || outputTimeInterval <= 0) return null
  return Math.round(endTime / outputTimeInterval)
}

/** Setup: the settings summary now; the 3D setup editor comes with a later issue. */
export function PreprocessorPage() {
  const { simulation } = useSimulationContext()
  const availability = preprocessorAvailability(simulation)
  if (!availability.available)
    return <Unavailable message={availability.message} simulationId={simulation.id} />
  const settings = simulation.settings
  const outputs = outputCount(settings)
  return (
    <div className="sim-grid">
      <section className="card card--padded" aria-labelledby="settings-heading">
        <h2 id="settings-heading" className="card__title">
          Simulation settings
        </h2>
        <dl className="facts">
          <Fact term="Particle diameter">{numberOr(settings.particleDiameter, 'm')}</Fact>
          <Fact term="End time">{numberOr(settings.endTime, 's')}</Fact>
          <Fact term="Output interval">{numberOr(settings.outputTimeInterval, 's')}</Fact>
          <Fact term="Outputs">{outputs === null ? 'Not set' : outputs}</Fact>
          <Fact term="Gravity">{vectorText(settings.gravity, 'm/s²')}</Fact>
          <Fact term="Integration scheme">{SCHEME_LABELS[settings.integrationScheme]}</Fact>
          <Fact term="Particle shifting">{settings.shifting}</Fact>
          <Fact term="Dynamic time step">{onOff(settings.dynamicTimeStep)}</Fact>
          <Fact term="Density limiter">
            {settings.densityLimiter && settings.densityThreshold !== null
              ? `On (${Math.round(settings.densityThreshold * 100)} %)`
              : onOff(settings.densityLimiter)}
          </Fact>
          <Fact term="Multiphase">{onOff(settings.multiphase)}</Fact>
          <Fact term="Surface tension">{onOff(settings.surfaceTension)}</Fact>
          <Fact term="Thermodynamics">{onOff(settings.thermodynamics)}</Fact>
          <Fact term="Air drag">{onOff(settings.airDrag)}</Fact>
          <Fact term="Rotating system">{onOff(settings.rotatingSystem)}</Fact>
          <Fact term="Calculation domain">
            {settings.calcDomainActive
              ? `${vectorText(settings.calcDomainMin, '')} to ${vectorText(settings.calcDomainMax, 'm')}`
              : 'Automatic'}
          </Fact>
        </dl>
      </section>
      <section className="card card--padded placeholder" aria-labelledby="editor-heading">
        <h2 id="editor-heading" className="card__title">
          Geometry and materials
        </h2>
        <p className="placeholder__text">
          The 3D setup editor will appear here: import STL and STEP parts, assign fluids and wall
          boundaries, place sensors and volume clips, and validate the setup before running.
        </p>
        <p className="placeholder__meta">Last edited {formatDateTime(simulation.updatedAt)}</p>
      </section>
    </div>
  )
}

export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  )
}
