/**
 * The results side (spec/results.md §3–§5): outputs and datasets, viewport state, colour ranges,
 * the attribute catalogue, statistics, chart windows, user export, playback and the scale bar.
 * Every rule here returns `Issue`s (validation.ts) with the spec's exact messages.
 */
export * from './results/outputs.ts'
export * from './results/attributes.ts'
export * from './results/colourRange.ts'
export * from './results/viewport.ts'
export * from './results/sensors.ts'
export * from './results/statistics.ts'
export * from './results/chartWindows.ts'
export * from './results/userExport.ts'
export * from './results/playback.ts'
export * from './results/scaleBar.ts'
