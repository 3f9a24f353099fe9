/**
 * For tests and checks that compare two runs' outputs (the CPU against the GPU backend): the
 * positions of an output object as written, and how far apart two such point sets lie. Rows are
 * written in a spatial order with no particle id, so the sets are compared point by point to the
 * nearest point of the other (unambiguous while the distance is far below a particle spacing).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { objectFile } from '../../domain/output/layout.ts'
import { readObjectStream } from '../../domain/output/reader.ts'

/** x, y, z of an output object's full dataset, interleaved. */
export async function readOutputPositions(
  dataDir: string,
  at: { simulationId: number; runId: number; outputNo: number; objectId: string },
): Promise<Float64Array> {
  const path = join(
    dataDir,
    objectFile(at.simulationId, at.runId, at.outputNo, at.objectId, 'full'),
  )
  const view = readObjectStream(new Uint8Array(await readFile(path)))
  const { x, y, z } = view.columns
  const positions = new Float64Array(3 * view.rowCount)
  for (let i = 0; i < view.rowCount; i++) positions.set([x![i]!, y![i]!, z![i]!], 3 * i)
  return positions
}

/**
 * The largest distance from a point of either set to the nearest point of the other (the
 * Hausdorff distance), by brute force: for the few thousand particles of a test.
 */
export function largestPositionDifference(a: Float64Array, b: Float64Array): number {
  const farthest = (from: Float64Array, to: Float64Array) => {
    let worst = 0
    for (let i = 0; i < from.length; i += 3) {
      let best = Infinity
      for (let j = 0; j < to.length; j += 3) {
        const d =
          (from[i]! - to[j]!) ** 2 +
          (from[i + 1]! - to[j + 1]!) ** 2 +
          (from[i + 2]! - to[j + 2]!) ** 2
        if (d < best) best = d
      }
      worst = Math.max(worst, best)
    }
    return Math.sqrt(worst)
  }
  if (a.length !== b.length) return Infinity
  return Math.max(farthest(a, b), farthest(b, a))
}
