import { useEffect } from 'react'
import { TOAST_DURATION_MS } from '../../../domain/constants.ts'
import { postprocessorAvailability } from '../../../domain/simulationState.ts'
import { usePushToast } from '../../components/Toasts.tsx'
import { useSimulationContext } from './SimulationLayout.tsx'
import { Unavailable } from './Unavailable.tsx'

/** Results: the availability gate now; the 3D results viewer comes with a later issue. */
export function PostprocessorPage() {
  const { simulation } = useSimulationContext()
  const availability = postprocessorAvailability(simulation)
  const toast = availability.available ? undefined : availability.toast
  const pushToast = usePushToast()

  useEffect(() => {
    if (!toast) return
    pushToast({
      id: `results-unavailable-${simulation.id}`,
      kind: 'warning',
      title: toast,
      durationMs: TOAST_DURATION_MS.simulation,
    })
  }, [toast, simulation.id, pushToast])

  if (!availability.available)
    return <Unavailable message={availability.message} simulationId={simulation.id} />
  return (
    <section className="card card--padded placeholder" aria-labelledby="viewer-heading">
      <h2 id="viewer-heading" className="card__title">
        Results viewer
      </h2>
      <p className="placeholder__text">
        The 3D results viewer will appear here: play back the outputs over the timeline, colour
        particles by velocity, pressure or density, clip the domain, read sensors and volume clips,
        compute statistics, plot charts and export files.
      </p>
    </section>
  )
}
