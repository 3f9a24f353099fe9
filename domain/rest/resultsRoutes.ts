/**
 * Results calls: the output manifests of a simulation's run (JSON, in ROUTES) and the binary output
 * bundle (registered beside ROUTES by server/results/, described here so the UI and the server
 * build the same URL). Manifests are the files the solver writes (domain/output/layout.ts).
 */
import * as v from 'valibot'
import { idParamSchema } from '../ids.ts'
import { FORMAT_OBJECT_KINDS, WRITTEN_DATASETS, type WrittenDataset } from '../outputFormat.ts'
import { IdParamSchema } from '../projects.ts'
import type { RouteDef } from '../rest.ts'

const count = v.pipe(v.number(), v.integer(), v.minValue(0))

/** One object of an output as its manifest.json lists it (layout.ts ManifestObject). */
export const ManifestObjectSchema = v.object({
  objectId: v.pipe(v.string(), v.regex(/^[\w-]+$/, 'objectId must be a file-name-safe id')),
  kind: v.picklist(FORMAT_OBJECT_KINDS),
  name: v.string(),
  sourceId: v.number(),
  columns: v.array(v.string()),
  particleCount: v.object({ full: count, fast: count }),
  triangleCount: count,
  sizeBytes: v.object({ full: count, fast: count }),
})

/** manifest.json of one output (layout.ts OutputManifest); read from disk, so checked. */
export const OutputManifestSchema = v.object({
  formatVersion: v.string(),
  simulationId: v.number(),
  runId: v.number(),
  outputNo: count,
  timeS: v.pipe(v.number(), v.finite()),
  objects: v.array(ManifestObjectSchema),
})
/** manifest.json of one output. */
export type OutputManifestInfo = v.InferOutput<typeof OutputManifestSchema>

/** The complete outputs of one run, in output order; runId null: the simulation has no run yet. */
export const OutputManifestListSchema = v.object({
  simulationId: v.number(),
  runId: v.nullable(v.number()),
  outputs: v.array(OutputManifestSchema),
})
/** The complete outputs of one run. */
export type OutputManifestList = v.InferOutput<typeof OutputManifestListSchema>

/** Query of the manifest list: a run of the simulation (default: its active run). */
export const OutputManifestQuerySchema = v.object({
  runId: v.optional(idParamSchema('runId')),
})

/** Results calls: output bundles over HTTP, viewport state, sensors, volume clips, statistics, exports. */
export const RESULTS_ROUTES = {
  listOutputManifests: {
    method: 'GET',
    path: '/simulations/{id}/output_manifests',
    summary: 'Manifests of the complete outputs of the active run (or runId), in output order',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: OutputManifestQuerySchema,
    response: OutputManifestListSchema,
  },
} as const satisfies Record<string, RouteDef>

/** Path of the binary bundle call (Fastify syntax is derived from it in server/results/). */
export const OUTPUT_BUNDLE_PATH = '/simulations/{id}/runs/{runId}/outputs/{outputNo}/bundle'

/**
 * rest.ts API_PREFIX, repeated: importing a value from rest.ts here would be a cycle (rest.ts
 * spreads RESULTS_ROUTES), and a module that loads this file first would see RESULTS_ROUTES empty.
 */
const BUNDLE_API_PREFIX = '/api'

/** Media type of a DIVB bundle. */
export const OUTPUT_BUNDLE_CONTENT_TYPE = 'application/octet-stream'

/** Datasets the bundle call serves (the written ones). */
export const BundleDatasetSchema = v.picklist(WRITTEN_DATASETS, 'dataset must be full or fast')

/**
 * Same-origin URL of one output's bundle. Without options the server sends every object of the
 * `full` dataset; `dataset` and the object ids (file-name safe, so comma-separated) narrow it.
 */
export function outputBundleUrl(
  simulationId: number,
  runId: number,
  outputNo: number,
  options: { dataset?: WrittenDataset; objectIds?: readonly string[] } = {},
): string {
  const path = OUTPUT_BUNDLE_PATH.replace('{id}', String(simulationId))
    .replace('{runId}', String(runId))
    .replace('{outputNo}', String(outputNo))
  const query = new URLSearchParams()
  if (options.dataset) query.set('dataset', options.dataset)
  if (options.objectIds && options.objectIds.length > 0)
    query.set('objects', options.objectIds.join(','))
  const search = query.toString()
  return `${BUNDLE_API_PREFIX}${path}${search ? `?${search}` : ''}`
}
