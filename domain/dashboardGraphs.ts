/**
 * Graphs uploaded to a dashboard (POST /graphs, spec/results.md §7): their schema and the CSV they
 * are read from. Part of domain/dashboards.ts, which re-exports it.
 */
import * as v from 'valibot'

/** An uploaded graph (POST /graphs, multipart: simulationId, name, a CSV file of x;y rows). */
export const UploadedGraphSchema = v.object({
  id: v.number(),
  simulationId: v.number(),
  name: v.string(),
  xLabel: v.string(),
  yLabel: v.string(),
  x: v.array(v.number()),
  y: v.array(v.number()),
})
/** An uploaded graph. */
export type UploadedGraph = v.InferOutput<typeof UploadedGraphSchema>
/** The path of the graph upload. */
export const GRAPH_UPLOAD_PATH = '/graphs'
/** Most rows of an uploaded graph. */
export const UPLOADED_GRAPH_MAX_POINTS = 100_000
/** Refusal of a graph file that is not two columns of numbers. */
export const GRAPH_FILE_MESSAGE =
  'The graph file must be a CSV of two columns (x and y) with numbers, separated by ; or ,.'

/**
 * Reads an uploaded graph's CSV: an optional header row (its two cells label the axes), then rows of
 * two numbers separated by ';' or ','. Null when it is not such a file.
 */
export function parseGraphCsv(
  text: string,
): { xLabel: string; yLabel: string; x: number[]; y: number[] } | null {
  const rows = text
    .split(/\r?\n/)
    .map((row) => row.trim())
    .filter((row) => row !== '')
  let xLabel = 'x'
  let yLabel = 'y'
  const x: number[] = []
  const y: number[] = []
  for (const [index, row] of rows.entries()) {
    const cells = row.split(/[;,\t]/).map((cell) => cell.trim())
    if (cells.length !== 2) return null
    const [a = '', b = ''] = cells
    const xv = Number(a)
    const yv = Number(b)
    if (a === '' || b === '' || !Number.isFinite(xv) || !Number.isFinite(yv)) {
      if (index !== 0) return null
      xLabel = a || 'x'
      yLabel = b || 'y'
      continue
    }
    x.push(xv)
    y.push(yv)
  }
  if (x.length === 0 || x.length > UPLOADED_GRAPH_MAX_POINTS) return null
  return { xLabel, yLabel, x, y }
}
