import type { RouteDef } from '../rest.ts'

/** Setup calls of spec/setup.md §7: settings, materials, parts, movements, calculation domain, uploads, discretizations. */
export const SETUP_ROUTES = {} as const satisfies Record<string, RouteDef>
