/**
 * Discretizer timing on a dam break (a 0.4 × 0.6 × 0.3 m water column in an open 1.6 × 0.6 × 0.6 m
 * tank given as an STL-like mesh), the particle diameter chosen for about `fluidParticles` fluid
 * particles. Run directly: `npx tsx solver/discretizer/benchmark.ts [fluidParticles] [runs]`.
 */
import { pathToFileURL } from 'node:url'
import { buildBoxMesh, type TriangleMesh } from '../geometry/mesh.ts'
import { discretize } from './discretize.ts'
import { boxShape, makePart, makeSetup, stlShape } from './testSetup.ts'

/** One measured discretization. */
export interface DiscretizeBenchmark {
  particleDiameter: number
  fluidCount: number
  wallCount: number
  durationMs: number
  /** CPU time of this process (user + system) during the call, ms. */
  cpuMs: number
}

function openTank(size: [number, number, number]): TriangleMesh {
  const box = buildBoxMesh(size)
  const positions = box.positions.map((v, i) => v + size[i % 3]! / 2)
  const indices = [...box.indices].filter((_, i) => ![2, 3].includes(Math.floor(i / 3)))
  return { positions, indices: Uint32Array.from(indices) }
}

/** Discretizes the dam break once and measures it. */
export function benchmarkDiscretize(fluidParticles: number): DiscretizeBenchmark {
  const dp = Math.cbrt((0.4 * 0.6 * 0.3) / fluidParticles)
  const setup = makeSetup(
    [makePart(1, 'flow', boxShape([0, 0, 0], [0.4, 0.6, 0.3])), makePart(2, 'rigid', stlShape())],
    dp,
    { 2: openTank([1.6, 0.6, 0.6]) },
  )
  const cpu = process.cpuUsage()
  const start = performance.now()
  const result = discretize(setup)
  const durationMs = performance.now() - start
  const used = process.cpuUsage(cpu)
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.message).join(' '))
  return {
    particleDiameter: dp,
    fluidCount: result.fluidCount,
    wallCount: result.wallCount,
    durationMs,
    cpuMs: (used.user + used.system) / 1000,
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fluidParticles = Number(process.argv[2] ?? 1_000_000)
  const runs = Number(process.argv[3] ?? 3)
  const results = Array.from({ length: runs }, () => benchmarkDiscretize(fluidParticles))
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const first = results[0]!
  console.log(
    `discretize fluid=${(first.fluidCount / 1e6).toFixed(2)}M walls=${(first.wallCount / 1e6).toFixed(2)}M dp=${first.particleDiameter.toPrecision(3)}m runs=${runs} median=${median(results.map((r) => r.durationMs)).toFixed(0)}ms cpu=${median(results.map((r) => r.cpuMs)).toFixed(0)}ms`,
  )
}
