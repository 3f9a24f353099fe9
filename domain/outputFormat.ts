/**
 * The output format: the contract between the solver (writes), the results server (bundles) and the
 * engine (reads without copying). One output = one time step; it holds one Apache Arrow IPC stream
 * per object and dataset. Full description with byte layouts: docs/output-format.md.
 *
 * This module gathers the vocabulary (output/formatBase.ts: versions, kinds, datasets, columns,
 * units, metadata keys, errors) and the bundle header codec (output/bundleHeader.ts). The Arrow
 * writer and reader live in domain/output/ too. Datasets, the attribute catalogue, units and detail
 * levels are the ones of results.ts, units.ts, constants.ts.
 */
export * from './output/formatBase.ts'
export * from './output/bundleHeader.ts'
