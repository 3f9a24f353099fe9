import type { SETUP_ROUTES } from '../../../domain/rest/setupRoutes.ts'
import type { AreaHandlers } from '../context.ts'

/** Handlers of SETUP_ROUTES, one per route. */
export const setupHandlers: AreaHandlers<typeof SETUP_ROUTES> = {}
