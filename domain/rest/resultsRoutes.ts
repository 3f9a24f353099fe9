import type { RouteDef } from '../rest.ts'

/** Results calls: output bundles over HTTP, viewport state, sensors, volume clips, statistics, exports. */
export const RESULTS_ROUTES = {} as const satisfies Record<string, RouteDef>
