/**
 * Viewport state calls (spec/results.md §7): the viewport state is saved per simulation, separately
 * for the preprocessor (`/simulations/{id}/viewport_state`) and the postprocessor
 * (`/simulations/{id}/runs/viewport_state`, the results of its runs).
 */
import * as v from 'valibot'
import { IdParamSchema } from '../projects.ts'
import { VIEWPORT_MODES, ViewportStateSchema } from '../results.ts'
import type { RouteDef } from '../rest.ts'

/** A saved viewport state, or none yet (state null). */
export const SavedViewportStateSchema = v.object({
  simulationId: v.number(),
  mode: v.picklist(VIEWPORT_MODES),
  state: v.nullable(ViewportStateSchema),
  /** When it was last saved (ISO), null when never. */
  updatedAt: v.nullable(v.string()),
})
/** A saved viewport state, or none yet. */
export type SavedViewportState = v.InferOutput<typeof SavedViewportStateSchema>

/** Viewport state calls of the setup (pre) and results (post) viewports. */
export const VIEWPORT_ROUTES = {
  getViewportState: {
    method: 'GET',
    path: '/simulations/{id}/viewport_state',
    summary: 'The saved viewport state of the setup view (state null: none saved)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SavedViewportStateSchema,
  },
  updateViewportState: {
    method: 'PUT',
    path: '/simulations/{id}/viewport_state',
    summary: 'Saves the viewport state of the setup view (camera up must be normalized)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: ViewportStateSchema,
    response: SavedViewportStateSchema,
  },
  deleteViewportState: {
    method: 'DELETE',
    path: '/simulations/{id}/viewport_state',
    summary: 'Forgets the saved viewport state of the setup view (the view starts fitted again)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SavedViewportStateSchema,
  },
  getRunViewportState: {
    method: 'GET',
    path: '/simulations/{id}/runs/viewport_state',
    summary: 'The saved viewport state of the results view (state null: none saved)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SavedViewportStateSchema,
  },
  updateRunViewportState: {
    method: 'PUT',
    path: '/simulations/{id}/runs/viewport_state',
    summary: 'Saves the viewport state of the results view (camera up must be normalized)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: ViewportStateSchema,
    response: SavedViewportStateSchema,
  },
  deleteRunViewportState: {
    method: 'DELETE',
    path: '/simulations/{id}/runs/viewport_state',
    summary: 'Forgets the saved viewport state of the results view (the view starts fitted again)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SavedViewportStateSchema,
  },
} as const satisfies Record<string, RouteDef>
