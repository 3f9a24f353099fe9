/**
 * Refinement zones, the air drag domain and periodic boundaries (spec/setup.md §7 "Refinements",
 * "Air drag", "Periodic boundary"). A refinement zone points at a mesh made first with
 * POST /simulations/{id}/meshes. The air drag domain is one per simulation: GET answers the stored
 * one or, before the first PUT, the default (id 0); whether it is used is settings.airDrag.
 */
import * as v from 'valibot'
import { AirDragDomainSchema, AirDragDomainUpdateSchema } from '../airDrag.ts'
import { idSchema } from '../ids.ts'
import { RefinementCreateSchema, RefinementSchema, RefinementUpdateSchema } from '../meshes.ts'
import {
  PeriodicBoundaryCreateSchema,
  PeriodicBoundarySchema,
  PeriodicBoundaryUpdateSchema,
} from '../periodic.ts'
import { IdParamSchema } from '../projects.ts'
import type { RouteDef } from '../rest.ts'

const DeletedSchema = v.object({ id: v.number() })

/** Mesh kinds a refinement zone can refine inside (closed volumes). */
export const REFINEMENT_MESH_KINDS = ['cube', 'cylinder', 'sphere', 'complex'] as const
/** A refinement zone needs one of REFINEMENT_MESH_KINDS. */
export const REFINEMENT_MESH_MESSAGE =
  'A refinement zone needs a cube, cylinder, sphere or complex mesh.'
/** Refusal of a second periodic boundary (spec/setup.md §2: disabled if one exists). */
export const PERIODIC_EXISTS_MESSAGE = 'A periodic boundary already exists.'
/** Refusal of an air drag reference simulation the user cannot see. */
export const REFERENCE_NOT_FOUND_MESSAGE = 'Reference simulation not found.'
/** Refusal of an air drag table that is not one of the simulation's datatables. */
export const AIR_DRAG_TABLE_NOT_FOUND_MESSAGE = 'Table does not exist.'

/** Refusal of a start while the setup holds objects the solver cannot run yet (named). */
export const unsupportedObjectsMessage = (names: readonly string[]) =>
  `The solver cannot run these setup objects yet: ${names.join(', ')}. Remove them to start the simulation.`

/** PUT /simulations/{id}/refinements: several zones at once (all or nothing). */
export const RefinementBulkUpdateSchema = v.array(
  v.strictObject({ id: idSchema('id'), ...RefinementUpdateSchema.entries }),
)
export type RefinementBulkUpdate = v.InferOutput<typeof RefinementBulkUpdateSchema>

const airDragQuery = v.object({ cache: v.optional(v.picklist(['true', 'false'])) })

/** Setup object calls: refinement zones, the air drag domain, periodic boundaries. */
export const SETUP_OBJECT_ROUTES = {
  listRefinements: {
    method: 'GET',
    path: '/simulations/{id}/refinements',
    summary: 'Refinement zones with their meshes',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(RefinementSchema),
  },
  createRefinement: {
    method: 'POST',
    path: '/simulations/{id}/refinements',
    summary: 'Add a refinement zone around a cube, cylinder, sphere or complex mesh',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: RefinementCreateSchema,
    response: RefinementSchema,
  },
  updateRefinements: {
    method: 'PUT',
    path: '/simulations/{id}/refinements',
    summary: 'Change several refinement zones at once (all or nothing)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: RefinementBulkUpdateSchema,
    response: v.array(RefinementSchema),
  },
  updateRefinement: {
    method: 'PUT',
    path: '/refinements/{id}',
    summary: 'Change a refinement zone',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: RefinementUpdateSchema,
    response: RefinementSchema,
  },
  deleteRefinement: {
    method: 'DELETE',
    path: '/refinements/{id}',
    summary: 'Delete a refinement zone (and its mesh when nothing else uses it)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  getAirDragDomain: {
    method: 'GET',
    path: '/simulations/{id}/air_drag_domain',
    summary: 'The air drag domain (the default, id 0, before the first PUT)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: airDragQuery,
    response: AirDragDomainSchema,
  },
  updateAirDragDomain: {
    method: 'PUT',
    path: '/simulations/{id}/air_drag_domain',
    summary: 'Define or change the air drag domain and its grid',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: AirDragDomainUpdateSchema,
    response: AirDragDomainSchema,
  },
  listPeriodics: {
    method: 'GET',
    path: '/simulations/{id}/periodics',
    summary: 'The periodic boundary (a list of at most one)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(PeriodicBoundarySchema),
  },
  createPeriodic: {
    method: 'POST',
    path: '/simulations/{id}/periodics',
    summary: 'Add the periodic boundary (a rotational slice)',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: PeriodicBoundaryCreateSchema,
    response: PeriodicBoundarySchema,
  },
  updatePeriodic: {
    method: 'PUT',
    path: '/periodics/{id}',
    summary: 'Change the periodic boundary',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: PeriodicBoundaryUpdateSchema,
    response: PeriodicBoundarySchema,
  },
  deletePeriodic: {
    method: 'DELETE',
    path: '/periodics/{id}',
    summary: 'Delete the periodic boundary',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
} as const satisfies Record<string, RouteDef>
