import { afterEach, describe, expect, it } from 'vitest'
import { buildBoxMesh, type TriangleMesh } from '../geometry/mesh.ts'
import { createSolver, type Solver } from '../sph/SphSolver.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { buildTankParticles, supportedSettings, WATER } from '../sph/scenarios.ts'
import { discretize } from './discretize.ts'
import { boxShape, makePart, makeSetup, stlShape } from './testSetup.ts'

const dp = 0.025
const tankSize: [number, number, number] = [0.4, 0.1, 0.2]

/** The open-top tank of solver/sph/scenarios.ts as a mesh: inner faces from 0 to tankSize. */
function openTank(): TriangleMesh {
  const box = buildBoxMesh(tankSize)
  const positions = box.positions.map((v, i) => v + tankSize[i % 3]! / 2)
  const indices = [...box.indices].filter((_, i) => ![2, 3].includes(Math.floor(i / 3)))
  return { positions, indices: Uint32Array.from(indices) }
}

function damBreak() {
  return discretize(
    makeSetup(
      [
        makePart(1, 'flow', boxShape([0, 0, 0], [0.1, 0.1, 0.15])),
        makePart(2, 'rigid', stlShape()),
      ],
      dp,
      { 2: openTank() },
      supportedSettings(dp),
    ),
  )
}

function keysOf(positions: ArrayLike<number>, kinds: ArrayLike<number>, kind: number): Set<string> {
  const keys = new Set<string>()
  for (let i = 0; i < kinds.length; i++)
    if (kinds[i] === kind)
      keys.add([0, 1, 2].map((c) => Math.round(positions[i * 3 + c]! / dp - 0.5)).join(','))
  return keys
}

const solvers: Solver[] = []
afterEach(async () => {
  await Promise.all(solvers.splice(0).map((solver) => solver.dispose()))
})

describe('discretization as solver input', () => {
  it('places fluid exactly where the solver scenarios do and every wall particle they need', () => {
    const d = damBreak()
    const scenario = buildTankParticles({
      dp,
      tank: tankSize,
      fluidMin: [0, 0, 0],
      fluidMax: [0.1, 0.1, 0.15],
      closed: false,
      wallLayers: 3,
    })
    expect(keysOf(d.positions, d.kinds, 0)).toEqual(keysOf(scenario.positions, scenario.kinds, 0))
    const walls = keysOf(d.positions, d.kinds, 1)
    let needed = 0
    for (let i = 0; i < scenario.kinds.length; i++) {
      if (scenario.kinds[i] !== PARTICLE_KIND.wall) continue
      const p = [0, 1, 2].map((c) => scenario.positions[i * 3 + c]!)
      // distance from the tank's inner volume: within the kernel support 2h = 3 dp it matters
      const gap = Math.hypot(...p.map((v, c) => Math.max(0, -v, c === 2 ? 0 : v - tankSize[c]!)))
      if (gap >= 3 * dp) continue
      needed++
      expect(walls.has(p.map((v) => Math.round(v / dp - 0.5)).join(','))).toBe(true)
    }
    expect(needed).toBeGreaterThan(100)
  })

  it('runs in the SPH solver as it comes: the fluid falls and stays inside the tank', async () => {
    const d = damBreak()
    const solver = await createSolver({
      settings: supportedSettings(dp),
      materials: [{ ...WATER, id: 0 }],
      particles: d,
      options: { integrator: 'symplectic' },
    })
    solvers.push(solver)
    solver.runUntil(0.05)
    const snapshot = solver.snapshot()
    expect(snapshot.count).toBe(d.count)
    let fluid = 0
    let falling = 0
    for (let i = 0; i < snapshot.count; i++) {
      if (snapshot.kind[i] !== PARTICLE_KIND.fluid) continue
      fluid++
      if (snapshot.velocities[i * 3 + 2]! < -0.01) falling++
      expect(snapshot.positions[i * 3]).toBeGreaterThan(-dp / 2)
      expect(snapshot.positions[i * 3 + 2]).toBeGreaterThan(-dp / 2)
    }
    expect(fluid).toBe(d.fluidCount)
    expect(falling).toBeGreaterThan(0)
    expect(snapshot.timeS).toBeCloseTo(0.05, 9)
  })
})
