import type { RESULTS_ROUTES } from '../../../domain/rest/resultsRoutes.ts'
import type { AreaHandlers } from '../context.ts'

/** Handlers of RESULTS_ROUTES, one per route. */
export const resultsHandlers: AreaHandlers<typeof RESULTS_ROUTES> = {}
