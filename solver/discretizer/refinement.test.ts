import { describe, expect, it } from 'vitest'
import { defaultMesh, type Mesh } from '../../domain/meshes.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import {
  refineParticles,
  refinementDivisions,
  refinementZoneProblem,
  zoneContains,
} from './refinement.ts'

const DP = 0.01

/** A block of 10 × 10 × 10 fluid cells of DP from the origin, over one layer of wall cells. */
function block() {
  const positions: number[] = []
  const kinds: number[] = []
  for (let k = -1; k < 10; k++)
    for (let j = 0; j < 10; j++)
      for (let i = 0; i < 10; i++) {
        positions.push((i + 0.5) * DP, (j + 0.5) * DP, (k + 0.5) * DP)
        kinds.push(k < 0 ? PARTICLE_KIND.wall : PARTICLE_KIND.fluid)
      }
  const n = kinds.length
  return {
    positions: Float64Array.from(positions),
    kinds: Uint8Array.from(kinds),
    partIds: Int32Array.from(kinds, (kind) => (kind === PARTICLE_KIND.wall ? 2 : 1)),
    pressures: Float64Array.from({ length: n }, (_, i) => i),
    velocities: new Float64Array(3 * n).fill(0.5),
  }
}

/** A cube zone 0.042 × 1 × 0.031 m from x = −0.5 to 0.021 and z = −0.5 to 0.0155 (cuts cells). */
const zone = (level: number) => ({
  name: 'Corner',
  level,
  mesh: {
    ...defaultMesh('cube'),
    center: [-0.2395, 0.05, -0.24225],
    dimensions: [0.521, 1, 0.5155],
  } as Mesh,
})

describe('refinement zones', () => {
  it('reads the level as the spacing ratio, rounded to 1/2, 1/3 or 1/4', () => {
    expect([0.5, 0.3, 0.25, 0.6].map(refinementDivisions)).toEqual([2, 3, 4, 2])
    expect([0.7, 1, 2, 0.2, 0, null].map(refinementDivisions)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ])
    expect(refinementZoneProblem(zone(0.3))).toBeNull()
    expect(refinementZoneProblem(zone(1))).toBe(
      'refinement zone "Corner" (level 1: the level is the spacing ratio and must round to 1/2, 1/3 or 1/4, from 0.23 to 0.66)',
    )
    expect(refinementZoneProblem({ ...zone(0.3), mesh: defaultMesh('plane') })).toBe(
      'refinement zone "Corner" (a plane mesh: zones need a cube, sphere or cylinder)',
    )
  })

  it('splits each particle inside a zone into n³ on its own cell, conserving mass and volume exactly', () => {
    for (const level of [0.5, 0.3]) {
      const n = refinementDivisions(level)!
      const input = block()
      const { particles, report } = refineParticles(input, [zone(level)], DP)
      // cells with centre x < 0.021 (i = 0, 1) and z < 0.0155 (k = −1, 0, 1): 2 × 10 × 3
      expect(report.split).toBe(60)
      expect(particles.kinds.length).toBe(input.kinds.length - 60 + 60 * n ** 3)
      expect(report.children).toBe(60 * n ** 3)
      // the volume (and so the mass ρ dp_i³ the solver gives) before and after, per kind
      for (const kind of [PARTICLE_KIND.fluid, PARTICLE_KIND.wall]) {
        let before = 0
        let after = 0
        for (let i = 0; i < input.kinds.length; i++) if (input.kinds[i] === kind) before += DP ** 3
        for (let i = 0; i < particles.kinds.length; i++)
          if (particles.kinds[i] === kind) after += particles.spacings![i]! ** 3
        expect(Math.abs(after - before)).toBeLessThan(1e-12 * before)
      }
      // no particle lost or doubled at the border: every site of a fine lattice of DP/n over the
      // block holds exactly one child or lies in the cell of exactly one kept particle
      const cover = new Map<string, number>()
      const key = (x: number, y: number, z: number) =>
        [x, y, z].map((v) => Math.floor((v / DP) * n + 1e-6)).join(',')
      for (let i = 0; i < particles.kinds.length; i++) {
        const [x, y, z] = [0, 1, 2].map((c) => particles.positions[3 * i + c]!) as [
          number,
          number,
          number,
        ]
        const s = particles.spacings![i]!
        const m = Math.round(s / (DP / n))
        for (let a = 0; a < m; a++)
          for (let b = 0; b < m; b++)
            for (let c = 0; c < m; c++) {
              const k = key(
                x - s / 2 + (a + 0.5) * (DP / n),
                y - s / 2 + (b + 0.5) * (DP / n),
                z - s / 2 + (c + 0.5) * (DP / n),
              )
              cover.set(k, (cover.get(k) ?? 0) + 1)
            }
      }
      expect(cover.size).toBe(1100 * n ** 3)
      expect([...cover.values()].every((count) => count === 1)).toBe(true)
      // children keep their parent's state
      const first = particles.kinds.length - 1
      expect(particles.velocities![3 * first]).toBe(0.5)
      expect(particles.pressures![0]).toBe(0)
    }
  })

  it('leaves the particles alone when none lies in a zone', () => {
    const input = block()
    const far = { ...zone(0.5), mesh: { ...zone(0.5).mesh, center: [5, 5, 5] } as Mesh }
    expect(refineParticles(input, [far], DP).particles).toBe(input)
  })

  it('places cube, sphere and cylinder zones as the viewport draws them', () => {
    const cube = zoneContains({
      ...defaultMesh('cube'),
      center: [1, 0, 0],
      rotation: [0, 0, 90],
      dimensions: [2, 0.2, 0.2],
    } as Mesh)!
    // turned 90° about z: its long side runs along y
    expect(cube(1, 0.9, 0)).toBe(true)
    expect(cube(1.9, 0, 0)).toBe(false)
    const sphere = zoneContains({
      ...defaultMesh('sphere'),
      translation: [0, 0, 1],
      scale: [2, 1, 1],
      radius: 0.5,
    } as Mesh)!
    expect(sphere(0.9, 0, 1)).toBe(true)
    expect(sphere(0, 0.6, 1)).toBe(false)
    const cylinder = zoneContains({
      ...defaultMesh('cylinder'),
      radius: 0.1,
      height: 1,
      axis: [1, 0, 0],
    } as Mesh)!
    expect(cylinder(0.45, 0.05, 0.05)).toBe(true)
    expect(cylinder(0.55, 0, 0)).toBe(false)
    expect(cylinder(0, 0.1, 0.1)).toBe(false)
    expect(zoneContains(defaultMesh('plane'))).toBeNull()
  })
})
