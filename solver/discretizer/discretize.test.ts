import { describe, expect, it } from 'vitest'
import { buildBoxMesh, type TriangleMesh } from '../geometry/mesh.ts'
import { encodeBinaryStl, parseStl } from '../geometry/stl.ts'
import { densityFromPressure } from '../sph/equationOfState.ts'
import { discretize } from './discretize.ts'
import { boxShape, fillingPart, makePart, makeSetup, planeShape, stlShape } from './testSetup.ts'
import { DiscretizationCanceledError, type Discretization } from './types.ts'

const dp = 0.02

function codes(d: Discretization, level: 'errors' | 'warnings' = 'warnings'): string[] {
  return d[level].map((issue) => issue.code)
}

/** A mesh of an axis-aligned box from min to max (outward normals). */
function boxMesh(min: [number, number, number], max: [number, number, number]): TriangleMesh {
  const mesh = buildBoxMesh([max[0] - min[0], max[1] - min[1], max[2] - min[2]])
  const positions = mesh.positions.map((v, i) => v + (min[i % 3]! + max[i % 3]!) / 2)
  return { positions, indices: mesh.indices }
}

function withoutTriangles(mesh: TriangleMesh, triangles: number[]): TriangleMesh {
  const indices = [...mesh.indices].filter((_, i) => !triangles.includes(Math.floor(i / 3)))
  return { positions: mesh.positions, indices: Uint32Array.from(indices) }
}

/** An open-top tank from min to max: the box without its z+ face. */
function tankMesh(min: [number, number, number], max: [number, number, number]): TriangleMesh {
  return withoutTriangles(boxMesh(min, max), [2, 3])
}

function positionKeys(d: Discretization): Set<string> {
  const keys = new Set<string>()
  for (let i = 0; i < d.count; i++)
    keys.add(
      [0, 1, 2]
        .map((c) => Math.round(d.positions[i * 3 + c]! / d.particleDiameter - 0.5))
        .join(','),
    )
  return keys
}

describe('discretize: fluid', () => {
  it('fills a box to its fill height with one particle per lattice site', () => {
    const d = discretize(makeSetup([fillingPart(1, boxShape([0, 0, 0], [0.4, 0.3, 0.5]), 0.3)], dp))
    expect(d.errors).toEqual([])
    // 20 × 15 sites per layer, 15 layers below 0.3 m (±1 layer)
    expect(d.fluidCount).toBeGreaterThanOrEqual(20 * 15 * 14)
    expect(d.fluidCount).toBeLessThanOrEqual(20 * 15 * 16)
    let top = 0
    for (let i = 0; i < d.count; i++) top = Math.max(top, d.positions[i * 3 + 2]!)
    expect(top).toBeCloseTo(0.29, 6)
    expect(d.summary.fluidParticleVolume).toBeCloseTo(d.summary.fluidMeshVolume, 6)
  })

  it('starts the fluid at hydrostatic pressure and the Tait density of it', () => {
    const d = discretize(makeSetup([fillingPart(1, boxShape([0, 0, 0], [0.4, 0.3, 0.5]), 0.3)], dp))
    const tait = { referenceDensity: 1000, speedOfSound: d.speedOfSound, gamma: 7 }
    let checked = 0
    for (let i = 0; i < d.fluidCount; i++) {
      const depth = 0.3 - d.positions[i * 3 + 2]!
      expect(d.pressures[i]).toBeCloseTo(1000 * 9.81 * depth, 6)
      expect(d.densities[i]).toBeCloseTo(densityFromPressure(tait, d.pressures[i]!), 9)
      checked++
    }
    expect(checked).toBe(d.fluidCount)
    // the bottom layer is denser than the top one
    expect(Math.max(...d.densities)).toBeGreaterThan(1000.2)
    // the material says 10 m/s (the default): the solver's 10 √(g H) of the 0.3 m fill rules
    expect(d.speedOfSound).toBeCloseTo(10 * Math.sqrt(9.81 * 0.3), 6)
  })

  it('gives fluid parts stacked on each other one free surface, and a shallow layer its own', () => {
    const d = discretize(
      makeSetup(
        [
          makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.2, 0.1])),
          makePart(2, 'flow', boxShape([0, 0, 0.1], [0.2, 0.2, 0.3])),
          makePart(3, 'flow', boxShape([0.2, 0, 0], [0.6, 0.2, 0.04])),
        ],
        dp,
      ),
    )
    for (let i = 0; i < d.fluidCount; i++) {
      const surface = d.partIds[i] === 3 ? 0.04 : 0.3
      expect(d.pressures[i]).toBeCloseTo(1000 * 9.81 * (surface - d.positions[i * 3 + 2]!), 6)
    }
  })

  it('measures depth against gravity in any axis direction', () => {
    const d = discretize(
      makeSetup(
        [makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.1, 0.1]))],
        dp,
        {},
        {
          gravity: [9.81, 0, 0],
        },
      ),
    )
    for (let i = 0; i < d.fluidCount; i++)
      expect(d.pressures[i]).toBeCloseTo(1000 * 9.81 * d.positions[i * 3]!, 6)
    expect(d.up).toEqual([-1, 0, 0])
  })

  it('fills an open (holed) mesh like the closed one and warns about the holes', () => {
    const closed = boxMesh([0, 0, 0], [0.3, 0.3, 0.3])
    const full = discretize(makeSetup([makePart(1, 'flow', stlShape())], dp, { 1: closed }))
    const holed = discretize(
      makeSetup([makePart(1, 'flow', stlShape())], dp, { 1: withoutTriangles(closed, [2]) }),
    )
    expect(full.warnings).toEqual([])
    expect(holed.fluidCount).toBe(full.fluidCount)
    expect(full.fluidCount).toBe(15 ** 3)
    expect(codes(holed)).toContain('holes')
    expect(holed.warnings.find((w) => w.code === 'holes')?.partId).toBe(1)
  })

  it('never puts two particles on one site where fluid parts overlap', () => {
    const d = discretize(
      makeSetup(
        [
          makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.2, 0.2])),
          makePart(2, 'flow', boxShape([0.1, 0, 0], [0.3, 0.2, 0.2])),
        ],
        dp,
      ),
    )
    expect(d.fluidCount).toBe(15 * 10 * 10)
    expect(positionKeys(d).size).toBe(d.count)
  })

  it('fills only the region around the seed point and warns about a seed point outside', () => {
    const two = [boxMesh([0, 0, 0], [0.2, 0.2, 0.2]), boxMesh([0.4, 0, 0], [0.6, 0.2, 0.2])]
    const mesh: TriangleMesh = {
      positions: Float32Array.from([...two[0]!.positions, ...two[1]!.positions]),
      indices: Uint32Array.from([...two[0]!.indices, ...[...two[1]!.indices].map((i) => i + 8)]),
    }
    const seeded = discretize(
      makeSetup([makePart(1, 'flow', stlShape(), { seedPoint: [0.5, 0.1, 0.1] })], dp, { 1: mesh }),
    )
    expect(seeded.fluidCount).toBe(1000)
    for (let i = 0; i < seeded.count; i++) expect(seeded.positions[i * 3]).toBeGreaterThan(0.4)
    const outside = discretize(
      makeSetup([makePart(1, 'flow', stlShape(), { seedPoint: [0.3, 0.1, 0.1] })], dp, { 1: mesh }),
    )
    expect(outside.fluidCount).toBe(2000)
    expect(codes(outside)).toContain('seed_point_outside')
  })

  it('fills a rotated box with about its volume in particles', () => {
    const d = discretize(
      makeSetup([makePart(1, 'flow', boxShape([0, 0, 0], [0.4, 0.4, 0.4], [30, 45, 10]))], dp),
    )
    expect(Math.abs(d.fluidCount - 0.4 ** 3 / dp ** 3) / (0.4 ** 3 / dp ** 3)).toBeLessThan(0.03)
  })

  it('warns about a fill height above the part and fills all of it', () => {
    const d = discretize(makeSetup([fillingPart(1, boxShape([0, 0, 0], [0.2, 0.2, 0.2]), 0.5)], dp))
    expect(codes(d)).toContain('fill_height_above_part')
    expect(d.fluidCount).toBe(1000)
  })

  it('carries the initial velocity and material of the part', () => {
    const part = makePart(1, 'flow', boxShape([0, 0, 0], [0.1, 0.1, 0.1]))
    if (part.component.type === 'flow') part.component.initialVelocity = [1, 0, -2]
    const d = discretize(makeSetup([part], dp))
    expect([...d.velocities.subarray(0, 3)]).toEqual([1, 0, -2])
    expect(d.materialIds[0]).toBe(0)
    expect(d.summary.materials).toEqual([
      { materialId: 0, particleCount: 125, volume: 125 * dp ** 3 },
    ])
  })
})

/** A closed UV sphere of `radius` centred at `center`, outward normals. */
function sphereMesh(radius: number, center: [number, number, number], segments = 48): TriangleMesh {
  const positions: number[] = [center[0], center[1], center[2] + radius]
  const rings = segments / 2
  for (let r = 1; r < rings; r++) {
    const theta = (Math.PI * r) / rings
    for (let s = 0; s < segments; s++) {
      const phi = (2 * Math.PI * s) / segments
      positions.push(
        center[0] + radius * Math.sin(theta) * Math.cos(phi),
        center[1] + radius * Math.sin(theta) * Math.sin(phi),
        center[2] + radius * Math.cos(theta),
      )
    }
  }
  positions.push(center[0], center[1], center[2] - radius)
  const south = positions.length / 3 - 1
  const at = (r: number, s: number) => 1 + (r - 1) * segments + (s % segments)
  const indices: number[] = []
  for (let s = 0; s < segments; s++) indices.push(0, at(1, s), at(1, s + 1))
  for (let r = 1; r < rings - 1; r++)
    for (let s = 0; s < segments; s++)
      indices.push(
        at(r, s),
        at(r + 1, s),
        at(r + 1, s + 1),
        at(r, s),
        at(r + 1, s + 1),
        at(r, s + 1),
      )
  for (let s = 0; s < segments; s++) indices.push(at(rings - 1, s), south, at(rings - 1, s + 1))
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) }
}

describe('discretize: curved and uploaded geometry', () => {
  it('fills a sphere with its volume in particles within 3 %', () => {
    const sphere = sphereMesh(0.2, [0.013, -0.007, 0.3])
    const d = discretize(makeSetup([makePart(1, 'flow', stlShape())], 0.01, { 1: sphere }))
    expect(d.warnings).toEqual([])
    const expected = ((4 / 3) * Math.PI * 0.2 ** 3) / 0.01 ** 3
    expect(Math.abs(d.fluidCount - expected) / expected).toBeLessThan(0.03)
    expect(d.summary.fluidParticleVolume / d.summary.fluidMeshVolume).toBeCloseTo(1, 1)
  })

  it('fills a sphere given with inward normals the same way', () => {
    const sphere = sphereMesh(0.1, [0, 0, 0.2])
    const inward = Uint32Array.from(sphere.indices)
    for (let i = 0; i < inward.length; i += 3)
      [inward[i + 1], inward[i + 2]] = [inward[i + 2]!, inward[i + 1]!]
    const out = discretize(makeSetup([makePart(1, 'flow', stlShape())], 0.01, { 1: sphere }))
    const inv = discretize(
      makeSetup([makePart(1, 'flow', stlShape())], 0.01, {
        1: { positions: sphere.positions, indices: inward },
      }),
    )
    expect(inv.fluidCount).toBe(out.fluidCount)
  })
})

describe('discretize: walls', () => {
  it('samples an open tank with three wall layers outside the fluid, never on a fluid site', () => {
    const tank = tankMesh([0, 0, 0], [0.4, 0.2, 0.3])
    const d = discretize(
      makeSetup(
        [
          makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.2, 0.2])),
          makePart(2, 'rigid', stlShape()),
        ],
        dp,
        { 2: tank },
      ),
    )
    expect(d.errors).toEqual([])
    expect(d.fluidCount).toBe(10 * 10 * 10)
    expect(positionKeys(d).size).toBe(d.count)
    let minZ = Infinity
    for (let i = d.fluidCount; i < d.count; i++) {
      expect(d.kinds[i]).toBe(1)
      expect(d.partIds[i]).toBe(2)
      const [x, y, z] = [0, 1, 2].map((c) => d.positions[i * 3 + c]!) as [number, number, number]
      // every wall particle is outside the tank's inner volume
      expect(x < 0 || x > 0.4 || y < 0 || y > 0.2 || z < 0).toBe(true)
      minZ = Math.min(minZ, z)
    }
    expect(minZ).toBeCloseTo(-2.5 * dp, 9)
    // bottom: all 3 layers under the whole floor
    let floor = 0
    for (let i = d.fluidCount; i < d.count; i++) {
      const [x, y, z] = [0, 1, 2].map((c) => d.positions[i * 3 + c]!) as [number, number, number]
      if (z < 0 && x > 0 && x < 0.4 && y > 0 && y < 0.2) floor++
    }
    expect(floor).toBe(3 * 20 * 10)
    // floor particles point up at the fluid, side-wall particles sideways into the tank
    for (let i = d.fluidCount; i < d.count; i++) {
      const [x, y, z] = [0, 1, 2].map((c) => d.positions[i * 3 + c]!) as [number, number, number]
      const n = [0, 1, 2].map((c) => d.wallNormals[i * 3 + c]!)
      expect(Math.hypot(...n)).toBeCloseTo(1, 5)
      if (z < 0 && x > 0 && x < 0.4 && y > 0 && y < 0.2) expect(n[2]).toBeCloseTo(1, 6)
      if (x < 0 && z > 0 && z < 0.3 && y > 0 && y < 0.2) expect(n[0]).toBeCloseTo(1, 6)
    }
    expect([...d.wallNormals.subarray(0, d.fluidCount * 3)].every((v) => v === 0)).toBe(true)
    expect(d.summary.parts.find((p) => p.partId === 2)?.wallLayers).toBe(3)
  })

  it('puts the walls of a plane under the fluid above it', () => {
    const d = discretize(
      makeSetup(
        [
          makePart(1, 'flow', boxShape([-0.1, -0.1, 0], [0.1, 0.1, 0.1])),
          makePart(2, 'rigid', planeShape(0.4, 0)),
        ],
        dp,
      ),
    )
    const zs = new Set<number>()
    let underFloor = 0
    for (let i = d.fluidCount; i < d.count; i++) {
      const [x, y, z] = [0, 1, 2].map((c) => d.positions[i * 3 + c]!) as [number, number, number]
      expect(z).toBeLessThan(0)
      zs.add(Number(z.toFixed(6)))
      if (Math.abs(x) < 0.2 && Math.abs(y) < 0.2) underFloor++
    }
    expect([...zs].sort((a, b) => a - b)).toEqual([-0.05, -0.03, -0.01])
    // three full layers under the plane, plus a rounded rim around its edges
    expect(underFloor).toBe(3 * 20 * 20)
  })

  it('keeps fluid out of a closed solid inside it and walls the solid from within', () => {
    const d = discretize(
      makeSetup(
        [
          makePart(1, 'flow', boxShape([0, 0, 0], [0.4, 0.4, 0.4])),
          makePart(2, 'rigid', boxShape([0.1, 0.1, 0.1], [0.3, 0.3, 0.3])),
        ],
        dp,
      ),
    )
    for (let i = 0; i < d.fluidCount; i++) {
      const inside = [0, 1, 2].every(
        (c) => d.positions[i * 3 + c]! > 0.1 && d.positions[i * 3 + c]! < 0.3,
      )
      expect(inside).toBe(false)
    }
    for (let i = d.fluidCount; i < d.count; i++) {
      const inside = [0, 1, 2].every(
        (c) => d.positions[i * 3 + c]! > 0.1 && d.positions[i * 3 + c]! < 0.3,
      )
      expect(inside).toBe(true)
    }
    expect(d.fluidCount).toBe(20 ** 3 - 10 ** 3)
    expect(positionKeys(d).size).toBe(d.count)
  })

  it('walls a closed tank from outside when the fluid is inside it', () => {
    const d = discretize(
      makeSetup(
        [
          makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.2, 0.2])),
          makePart(2, 'rigid', boxShape([0, 0, 0], [0.2, 0.2, 0.4])),
        ],
        dp,
      ),
    )
    expect(d.fluidCount).toBe(1000)
    for (let i = d.fluidCount; i < d.count; i++) {
      const [x, y, z] = [0, 1, 2].map((c) => d.positions[i * 3 + c]!) as [number, number, number]
      expect(x < 0 || x > 0.2 || y < 0 || y > 0.2 || z < 0 || z > 0.4).toBe(true)
    }
  })

  it('warns about a closed wall thinner than two particles and not about a thick one', () => {
    const fluid = makePart(1, 'flow', boxShape([0, 0, 0.1], [0.2, 0.2, 0.2]))
    const thin = discretize(
      makeSetup([fluid, makePart(2, 'rigid', boxShape([0, 0, 0.07], [0.2, 0.2, 0.1]))], dp),
    )
    expect(thin.warnings.find((w) => w.code === 'thin_wall')?.partId).toBe(2)
    const thick = discretize(
      makeSetup([fluid, makePart(2, 'rigid', boxShape([0, 0, 0], [0.2, 0.2, 0.1]))], dp),
    )
    expect(codes(thick)).not.toContain('thin_wall')
  })
})

describe('discretize: errors and warnings', () => {
  it('warns about a part far from the origin', () => {
    const far = discretize(
      makeSetup([makePart(1, 'flow', boxShape([400, 0, 0], [400.1, 0.1, 0.1]))], dp),
    )
    expect(far.warnings.find((w) => w.code === 'far_from_origin')?.partId).toBe(1)
    const near = discretize(
      makeSetup([makePart(1, 'flow', boxShape([0, 0, 0], [0.1, 0.1, 0.1]))], dp),
    )
    expect(codes(near)).not.toContain('far_from_origin')
  })

  it('warns about a fill that yields almost no particles', () => {
    const d = discretize(
      makeSetup([makePart(1, 'flow', boxShape([0, 0, 0], [0.06, 0.06, 0.06]))], dp),
    )
    expect(d.fluidCount).toBe(27)
    expect(d.warnings.find((w) => w.code === 'few_particles')?.message).toContain(
      'only 27 fluid particles',
    )
  })

  it('refuses a too fine particle diameter from the estimate, without allocating', () => {
    const d = discretize(makeSetup([makePart(1, 'flow', boxShape([0, 0, 0], [1, 1, 1]))], 1e-5))
    expect(codes(d, 'errors')).toEqual(['too_many_particles'])
    expect(d.errors[0]!.message).toContain('about 1,000,000,000,000,000 particles')
    expect(d.summary.estimatedParticleCount).toBeCloseTo(1e15, -12)
    expect(d.count).toBe(0)
    expect(d.positions.length).toBe(0)
    expect(d.summary.durationMs).toBeLessThan(1000)
  })

  it('refuses a particle count over an explicit limit with the estimate in the message', () => {
    const d = discretize(
      makeSetup([makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.2, 0.2]))], dp),
      {
        maxParticles: 500,
      },
    )
    expect(d.errors[0]!.message).toBe(
      'The particle diameter of 0.02 m would give about 1,000 particles, more than the 500 that fit in memory. Increase the particle diameter.',
    )
  })

  it('reports empty geometry, a missing material and a missing particle diameter', () => {
    const empty = discretize(
      makeSetup(
        [
          makePart(1, 'flow', boxShape([0, 0, 0], [0.1, 0.1, 0.1])),
          makePart(2, 'rigid', stlShape()),
        ],
        dp,
      ),
    )
    expect(empty.errors).toEqual([
      {
        code: 'empty_geometry',
        partId: 2,
        message:
          'Part "Part 2": No geometry found. Please assign a geometry to the part or delete it.',
      },
    ])
    const noMaterial = discretize(
      makeSetup([makePart(1, 'flow', boxShape([0, 0, 0], [0.1, 0.1, 0.1]), { materialId: 7 })], dp),
    )
    expect(noMaterial.errors[0]?.message).toBe('Part "Part 1": Material is required')
    const noDiameter = discretize({
      ...makeSetup([], dp),
      settings: { ...makeSetup([], dp).settings, particleDiameter: null },
    })
    expect(noDiameter.errors[0]?.message).toBe('Particle diameter is required')
  })

  it('gives nothing for an empty shape and refuses a setup without fluid', () => {
    const emptyShape = makePart(2, 'flow', { ...stlShape(), type: 'empty' } as never)
    const d = discretize(makeSetup([emptyShape], dp))
    expect(codes(d)).toContain('empty_geometry')
    expect(codes(d, 'errors')).toEqual(['no_fluid'])
  })

  it('warns about parts beyond an active calculation domain, initial presets and the legacy switch', () => {
    const part = makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.2, 0.2]))
    if (part.component.type === 'flow') part.component.initialPreset = 'preset'
    const d = discretize(
      makeSetup(
        [part],
        dp,
        {},
        {
          calcDomainActive: true,
          calcDomainMin: [-1, -1, -1],
          calcDomainMax: [0.1, 1, 1],
          discretizerLegacy: true,
        },
      ),
    )
    expect(codes(d).sort()).toEqual([
      'initial_conditions_not_applied',
      'legacy_discretizer',
      'outside_domain',
    ])
    const inside = discretize(
      makeSetup(
        [makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.2, 0.2]))],
        dp,
        {},
        {
          calcDomainActive: true,
          calcDomainMin: [-1, -1, -1],
          calcDomainMax: [1, 1, 1],
        },
      ),
    )
    expect(inside.warnings).toEqual([])
  })

  it('catches an STL uploaded in the wrong unit: mm read as m is refused, m read as mm is flagged', () => {
    // a 300 mm cube exported in millimetres
    const millimetres = encodeBinaryStl(boxMesh([0, 0, 0], [300, 300, 300]))
    const asMetres = discretize(
      makeSetup([makePart(1, 'flow', stlShape())], dp, { 1: parseStl(millimetres, 'm') }),
    )
    expect(codes(asMetres, 'errors')).toEqual(['too_many_particles'])
    expect(asMetres.errors[0]!.message).toContain('about 3,375,000,000,000 particles')
    const right = discretize(
      makeSetup([makePart(1, 'flow', stlShape())], dp, { 1: parseStl(millimetres, 'mm') }),
    )
    expect(right.fluidCount).toBe(15 ** 3)
    // a 0.3 m cube exported in metres but read as millimetres: 0.3 mm, below one particle
    const metres = encodeBinaryStl(boxMesh([0, 0, 0], [0.3, 0.3, 0.3]))
    const asMillimetres = discretize(
      makeSetup([makePart(1, 'flow', stlShape())], dp, { 1: parseStl(metres, 'mm') }),
    )
    expect(codes(asMillimetres)).toContain('few_particles')
    expect(codes(asMillimetres, 'errors')).toEqual(['no_fluid'])
  })

  it('stops with DiscretizationCanceledError once isCanceled turns true, reporting progress until then', () => {
    const fractions: number[] = []
    const setup = makeSetup(
      [
        makePart(1, 'flow', boxShape([0, 0, 0], [0.2, 0.2, 0.2])),
        makePart(2, 'rigid', planeShape(1, 0)),
      ],
      dp,
    )
    expect(() =>
      discretize(setup, {
        onProgress: (f) => fractions.push(f),
        isCanceled: () => fractions.length >= 2,
      }),
    ).toThrow(DiscretizationCanceledError)
    expect(fractions).toEqual([0.05, 0.55])
    const done: number[] = []
    discretize(setup, { onProgress: (f) => done.push(f) })
    expect(done.at(-1)).toBe(1)
  })

  it('refuses a part whose placement is not a number', () => {
    const shape = boxShape([0, 0, 0], [0.1, 0.1, 0.1])
    const part = makePart(1, 'flow', { ...shape, translation: [Number.NaN, 0, 0] })
    const d = discretize(makeSetup([part], dp))
    expect(codes(d, 'errors')).toEqual(['invalid_placement'])
  })
})
