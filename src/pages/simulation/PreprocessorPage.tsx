import { preprocessorAvailability } from '../../../domain/simulationState.ts'
import { SetupEditor } from './setup/SetupEditor.tsx'
import { useSimulationContext } from './SimulationLayout.tsx'
import { Unavailable } from './Unavailable.tsx'

/** Setup: the availability gate (uploaded setups), then the Setup editor. */
export function PreprocessorPage() {
  const { simulation, project } = useSimulationContext()
  const availability = preprocessorAvailability(simulation)
  if (!availability.available)
    return <Unavailable message={availability.message} simulationId={simulation.id} />
  return <SetupEditor simulation={simulation} project={project} />
}
