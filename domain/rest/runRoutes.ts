import type { RouteDef } from '../rest.ts'

/** Run calls of spec/results.md §7: jobs, solvers, logs, outputs, stop and warning conditions. */
export const RUN_ROUTES = {} as const satisfies Record<string, RouteDef>
