/**
 * Which simulation page a path is (its own module, so that the menu bar knows without loading the
 * simulation's layout).
 */

/** The three simulation pages and their breadcrumb labels, in navigation order. */
export const SIMULATION_MODES = {
  preprocessor: 'Setup',
  dashboard: 'Monitor',
  postprocessor: 'Results',
} as const
export type SimulationMode = keyof typeof SIMULATION_MODES

function isSimulationMode(segment: string | undefined): segment is SimulationMode {
  return segment !== undefined && Object.hasOwn(SIMULATION_MODES, segment)
}

/**
 * The mode of a simulation path: /simulation/{id}/{mode} exactly. Anything longer
 * (/simulation/1/preprocessor/geometry) or another last segment is not a simulation page.
 */
export function simulationModeOf(pathname: string): SimulationMode | null {
  const segments = pathname.split('/').filter(Boolean)
  if (segments.length !== 3 || segments[0] !== 'simulation') return null
  if (!/^\d{1,12}$/.test(segments[1] ?? '')) return null
  return isSimulationMode(segments[2]) ? segments[2] : null
}
