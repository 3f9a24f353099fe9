import { useEffect } from 'react'
import { TOAST_DURATION_MS } from '../../../domain/constants.ts'
import { postprocessorAvailability } from '../../../domain/simulationState.ts'
import { usePushToast } from '../../components/Toasts.tsx'
import { useSimulationContext } from './SimulationLayout.tsx'
import { ResultsViewer } from './results/ResultsViewer.tsx'
import { Unavailable } from './Unavailable.tsx'

/** Results: the availability gate, then the results viewport (the full Results screen comes later). */
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
  return <ResultsViewer simulation={simulation} />
}
