import { describe, expect, it } from 'vitest'
import { defaultMesh, type Mesh } from '../../domain/meshes.ts'
import type { Vec3 } from '../../domain/vector.ts'
import { buildBoxMesh, transformMesh, type TriangleMesh } from '../geometry/mesh.ts'
import { checkRunStart, createRunSolverConfig } from '../run/runConfig.ts'
import { unsupportedParts } from '../sph/support.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { discretize } from './discretize.ts'
import { zoneContains } from './refinement.ts'
import { meshContains, refinementPartProblem, refinementPartZones } from './refinementParts.ts'
import { boxShape, fillingPart, makePart, makeSetup, planeShape, stlShape } from './testSetup.ts'

const DP = 0.01

/** A seeded generator of numbers in [0, 1). */
function random(seed: number) {
  let s = seed
  return () => {
    s = (s * 1664525 + 1013904223) % 4294967296
    return s / 4294967296
  }
}

/** A box mesh of `dimensions`, turned by `rotation` (degrees) and moved to `centre`. */
function placedBox(dimensions: Vec3, rotation: Vec3, centre: Vec3): TriangleMesh {
  return transformMesh(buildBoxMesh(dimensions), {
    translation: centre,
    rotation,
    scale: [1, 1, 1],
    flipNormals: false,
  })
}

/** Two boxes that share a face (an L seen from the side): not convex, still closed. */
function lShape(): TriangleMesh {
  const a = placedBox([0.2, 0.1, 0.1], [0, 0, 0], [0.1, 0.05, 0.05])
  const b = placedBox([0.1, 0.1, 0.1], [0, 0, 0], [0.05, 0.05, 0.15])
  const positions = new Float32Array([...a.positions, ...b.positions])
  const offset = a.positions.length / 3
  const indices = new Uint32Array([...a.indices, ...[...b.indices].map((i) => i + offset)])
  return { positions, indices }
}

describe('refinement parts', () => {
  it('tells inside from outside of a closed mesh as the analytic zone does', () => {
    const dimensions: Vec3 = [0.3, 0.2, 0.1]
    const rotation: Vec3 = [20, 35, 50]
    const centre: Vec3 = [0.1, -0.2, 0.3]
    const inside = meshContains(placedBox(dimensions, rotation, centre))
    const cube: Mesh = {
      ...defaultMesh('cube'),
      center: [0, 0, 0],
      translation: centre,
      rotation,
      dimensions,
    } as Mesh
    const exact = zoneContains(cube)!
    const next = random(7)
    let agree = 0
    let hits = 0
    for (let i = 0; i < 4000; i++) {
      const p = [0, 1, 2].map((k) => centre[k]! + (next() - 0.5) * 0.4) as Vec3
      const expected = exact(...p)
      if (inside(...p) === expected) agree++
      if (expected) hits++
    }
    expect(hits).toBeGreaterThan(300)
    expect(agree).toBe(4000)
  })

  it('follows a mesh that is not convex, with points on the lattice', () => {
    const inside = meshContains(lShape())
    // lattice centres of DP: the L holds 0.2 × 0.1 × 0.1 below z = 0.1 and 0.1 × 0.1 × 0.1 above
    let count = 0
    for (let k = 0; k < 25; k++)
      for (let j = -2; j < 12; j++)
        for (let i = -2; i < 22; i++)
          if (inside((i + 0.5) * DP, (j + 0.5) * DP, (k + 0.5) * DP)) count++
    expect(count).toBe(20 * 10 * 10 + 10 * 10 * 10)
    expect(inside(0.15, 0.05, 0.15)).toBe(false)
    expect(inside(0.05, 0.05, 0.15)).toBe(true)
  })

  it('splits the particles inside a refinement part at the default level, and refuses an open mesh', () => {
    // water 0.1 m cube (10³ particles); a refinement part over its lower half
    const water = fillingPart(1, boxShape([0, 0, 0], [0.1, 0.1, 0.1]), null)
    const zone = makePart(2, 'refinement', boxShape([-0.05, -0.05, -0.05], [0.15, 0.15, 0.05]), {
      name: 'Fine bottom',
    })
    const setup = makeSetup([water, zone], DP)
    const particles = discretize(setup)
    expect(particles.errors).toEqual([])
    const fluid = particles.kinds.filter((k) => k === PARTICLE_KIND.fluid).length
    expect(fluid).toBe(1000)
    const options = { setup, particles, threads: 1 } as unknown as Parameters<
      typeof checkRunStart
    >[0]
    expect(checkRunStart(options)).toEqual([])
    const config = createRunSolverConfig(options)
    // the 500 particles below z = 0.05 become 27 each (level 0.3: dp/3)
    expect(config.particles.kinds.length).toBe(500 + 500 * 27)
    // the discretizer's summary counts what the run will hold
    expect(particles.summary.refinement).toEqual({ split: 500, children: 500 * 27 })
    expect(particles.summary.particleCount).toBe(config.particles.kinds.length)
    expect(particles.count).toBe(1000)
    const spacings = config.particles.spacings!
    let volume = 0
    for (let i = 0; i < spacings.length; i++) volume += spacings[i]! ** 3
    expect(volume).toBeCloseTo(1000 * DP ** 3, 12)
    expect(refinementPartZones([zone], {})).toHaveLength(1)

    // a plane has no inside; an STL box missing a triangle is open
    const plane = makePart(3, 'refinement', planeShape(0.1, 0), { name: 'Sheet' })
    expect(refinementPartProblem(plane, {})).toBe(
      'refinement part "Sheet" (its mesh is open: 1 hole(s), 0 non-manifold edge group(s); a refinement part needs a closed mesh)',
    )
    const box = placedBox([0.1, 0.1, 0.1], [0, 0, 0], [0, 0, 0])
    const open = { positions: box.positions, indices: box.indices.slice(3) }
    const stl = makePart(4, 'refinement', stlShape(), { name: 'Broken' })
    expect(unsupportedParts([stl], undefined, { 4: open })).toEqual([
      'refinement part "Broken" (its mesh is open: 1 hole(s), 0 non-manifold edge group(s); a refinement part needs a closed mesh)',
    ])
    expect(unsupportedParts([stl], undefined, { 4: box })).toEqual([])
    expect(refinementPartZones([plane, stl], { 4: open })).toEqual([])
    const refused = checkRunStart({
      ...options,
      setup: { ...setup, parts: [water, plane] },
    })
    expect(refused).toContain(
      'Unsupported parts: refinement part "Sheet" (its mesh is open: 1 hole(s), 0 non-manifold edge group(s); a refinement part needs a closed mesh).',
    )
  })
})
