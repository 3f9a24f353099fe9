/** Sensor rules of the results screen. */
import type { SimulationState } from '../simulationState.ts'

/** A sensor is in post mode when the current output is among its outputs, else pre mode. */
export function sensorMode(
  sensorOutputs: readonly number[],
  currentOutput: number | null,
): 'pre' | 'post' {
  return currentOutput !== null && sensorOutputs.includes(currentOutput) ? 'post' : 'pre'
}

/** Sensors cannot be added or edited while the simulation is running or scheduled. */
export function canEditSensors(state: SimulationState): boolean {
  return state !== 'running' && state !== 'scheduled'
}
