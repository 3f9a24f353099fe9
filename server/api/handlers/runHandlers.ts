import type { RUN_ROUTES } from '../../../domain/rest/runRoutes.ts'
import type { AreaHandlers } from '../context.ts'

/** Handlers of RUN_ROUTES, one per route. */
export const runHandlers: AreaHandlers<typeof RUN_ROUTES> = {}
