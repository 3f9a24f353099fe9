/**
 * A setup part's mesh made ready in a data worker (engine/data/setupGeometry.ts, what
 * loadSetupMesh does after the download): DMSH decode, crease normals, mesh-health edges and the
 * picking BVH of a 1M-triangle sphere, against a streaming read of the mesh's bytes; and what a
 * pick then costs (µs and triangles tested per ray over 4000 rays at the sphere).
 */
import { decodeMeshFile, encodeMeshFile } from '../../domain/meshFile.ts'
import { buildBvh, raycastBvh, readBvh, type RaycastStats } from '../../engine/data/bvh.ts'
import {
  buildSetupMesh,
  computeCreaseNormals,
  computeMeshDefects,
} from '../../engine/data/setupGeometry.ts'
import { judgeRatio, measureStreamingReadMs, timeRuns } from '../lib/measure.ts'
import { buildSphereMesh } from '../lib/sphereMesh.ts'
import { formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'

const RAYS = 4000

async function runSetupMesh(context: BenchContext): Promise<void> {
  const triangles = context.quick ? 100_000 : 1_000_000
  const mesh = buildSphereMesh(triangles)
  const bytes = encodeMeshFile(mesh)
  const count = mesh.indices.length / 3
  if (count < triangles) throw new Error(`The sphere has ${count} triangles, not ${triangles}.`)
  const label = formatCount(triangles)
  const readMs = measureStreamingReadMs(bytes.byteLength)
  const runs = context.quick ? 2 : 5
  const shaded = computeCreaseNormals(mesh)
  const report = (name: string, medianMs: number) =>
    context.report({
      case: `node/setupMesh.${label}.${name}`,
      value: medianMs,
      unit: 'ms',
      ...judgeRatio(medianMs, readMs, null, 'streaming read of the mesh'),
    })
  const phase = async (name: string, task: () => unknown) => {
    const cpuBefore = process.cpuUsage()
    const timing = await timeRuns(task, { runs, warmups: 1 })
    const cpu = process.cpuUsage(cpuBefore)
    context.log(
      `setupMesh.${name}: median ${timing.medianMs.toFixed(0)} ms, min ${timing.minMs.toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000 / (runs + 1)).toFixed(0)} ms per run`,
    )
    report(name, timing.medianMs)
  }
  await phase('decode', () => decodeMeshFile(bytes))
  await phase('creaseNormals', () => computeCreaseNormals(mesh))
  await phase('meshDefects', () => computeMeshDefects(mesh))
  await phase('bvh', () => buildBvh(shaded.positions, shaded.indices))
  await phase('total', () => buildSetupMesh(decodeMeshFile(bytes)))

  const built = buildBvh(shaded.positions, shaded.indices)
  const view = readBvh(built.buffer)
  let seed = 1
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  let tested = 0
  let hits = 0
  const startMs = performance.now()
  for (let ray = 0; ray < RAYS; ray++) {
    // From a plane in front of the sphere at a point inside it: every ray hits.
    const origin: [number, number, number] = [random() * 6 - 3, random() * 6 - 3, 5]
    const target = [random() - 0.5, random() - 0.5, random() - 0.5]
    const stats: RaycastStats = { nodesVisited: 0, trianglesTested: 0 }
    const direction: [number, number, number] = [
      target[0]! - origin[0],
      target[1]! - origin[1],
      target[2]! - origin[2],
    ]
    if (raycastBvh(view, shaded.positions, built.indices, { origin, direction }, null, stats))
      hits++
    tested += stats.trianglesTested
  }
  const rayUs = ((performance.now() - startMs) * 1000) / RAYS
  if (hits !== RAYS) throw new Error(`${RAYS - hits} rays missed the sphere.`)
  context.report({
    case: `node/setupMesh.${label}.rayUs`,
    value: rayUs,
    unit: 'us',
    ...judgeRatio(rayUs, 1e6 / 60, null, 'one 60 fps frame'),
  })
  context.report({
    case: `node/setupMesh.${label}.trianglesPerRay`,
    value: tested / RAYS,
    unit: 'count',
    ratio: tested / RAYS / count,
    target: null,
    ok: null,
  })
}

export const cases: BenchCase[] = [
  {
    name: 'node/setupMesh',
    description:
      'A 1M-triangle sphere made ready for the setup view in a data worker: decode, crease normals, mesh-health edges, BVH and the whole buildSetupMesh (reports, vs a streaming read of the mesh bytes); µs and triangles tested per pick ray.',
    run: runSetupMesh,
  },
]
