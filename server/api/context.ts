import type { Kysely } from 'kysely'
import type { Role } from '../../domain/account.ts'
import type { ROUTES, RouteName, RouteRequest, RouteResponse } from '../../domain/rest.ts'
import type { Clock } from '../clock.ts'
import type { Database, UserRow } from '../db/schema.ts'

/** What every handler gets. */
export interface PublicContext {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
  version: string
}

/** The logged-in user, as read with the session that authenticated the request. */
export type SessionUser = Omit<UserRow, 'role'> & { role: Role }

/** What a handler of a route with `auth: true` gets. */
export interface AuthedContext extends PublicContext {
  user: SessionUser
  sessionId: number
}

export type RouteContext<N extends RouteName> = (typeof ROUTES)[N]['auth'] extends true
  ? AuthedContext
  : PublicContext

/** One handler per ROUTES entry, typed by the route's schemas. */
export type RouteHandler<N extends RouteName> = (
  request: RouteRequest<N>,
  context: RouteContext<N>,
) => Promise<RouteResponse<N>>

export type RouteHandlers = { [N in RouteName]: RouteHandler<N> }

/** The handlers of one area's routes (e.g. `typeof SETUP_ROUTES`). */
export type AreaHandlers<Routes> = { [N in keyof Routes & RouteName]: RouteHandler<N> }
