import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { SolverConfig } from './config.ts'
import { findNeighbours } from './neighbours.ts'
import { allocateParticleBuffers, PARTICLE_KIND, viewParticleArrays } from './particles.ts'
import {
  angleFromBisector,
  insideSlice,
  rotationMatrix,
  sliceCount,
  wrapIntoSlice,
  type RotationalSlice,
} from './rotationalSlice.ts'
import { createSolver, solverInternals } from './SphSolver.ts'
import { sectorConfig as sector, sectorSlice } from './testScenarios.ts'
import { probePressure } from './probes.ts'
import { probeVelocity } from './velocityProbe.ts'
import type { SimulationSettings } from '../../domain/settings.ts'
import type { Vec3 } from '../../domain/vector.ts'

const dp = 0.01

const slice = sectorSlice

/** Water 5 layers deep in the sector, its sites jittered across; with `spin` in solid-body rotation. */
function sectorConfig(
  s: RotationalSlice,
  spin = 0,
  threads = 1,
  shifting: SimulationSettings['shifting'] = 'lyu21',
): SolverConfig {
  return sector(s, { dp, layers: 5, seed: 7, jitterZ: false, spin, threads, shifting })
}

describe('rotational periodic boundary', () => {
  it('wraps a particle that left the slice back, turned: radius, |u| and angular momentum kept', () => {
    const s = slice(90, 30)
    const a = viewParticleArrays(allocateParticleBuffers(3))
    const at = (deg: number, r: number, i: number) => {
      const t = s.start + (deg * Math.PI) / 180
      for (const [c, field] of (['posX', 'posY', 'posZ'] as const).entries())
        a[field][i] = s.center[c]! + r * (Math.cos(t) * s.e1[c]! + Math.sin(t) * s.e2[c]!)
      a.posZ[i] = 0.01 * i
      a.velX[i] = 0.3 - i
      a.velY[i] = 0.7 * i
      a.velZ[i] = 0.2
      a.kind[i] = PARTICLE_KIND.fluid
    }
    at(-2, 0.05, 0) // just before the first face
    at(91, 0.04, 1) // just past the second
    at(45, 0.03, 2) // inside
    const before = [0, 1, 2].map((i) => ({
      r: Math.hypot(a.posX[i]! - s.center[0], a.posY[i]! - s.center[1]),
      speed: Math.hypot(a.velX[i]!, a.velY[i]!, a.velZ[i]!),
      lz: (a.posX[i]! - s.center[0]) * a.velY[i]! - (a.posY[i]! - s.center[1]) * a.velX[i]!,
      z: a.posZ[i]!,
      vz: a.velZ[i]!,
      x: a.posX[i]!,
    }))
    expect(wrapIntoSlice(a, 3, s)).toBe(2)
    for (const i of [0, 1, 2]) {
      expect(insideSlice(s, a.posX[i]!, a.posY[i]!, a.posZ[i]!)).toBe(true)
      const b = before[i]!
      expect(Math.hypot(a.posX[i]! - s.center[0], a.posY[i]! - s.center[1])).toBeCloseTo(b.r, 12)
      expect(Math.hypot(a.velX[i]!, a.velY[i]!, a.velZ[i]!)).toBeCloseTo(b.speed, 12)
      const lz = (a.posX[i]! - s.center[0]) * a.velY[i]! - (a.posY[i]! - s.center[1]) * a.velX[i]!
      expect(lz).toBeCloseTo(b.lz, 12)
      expect(a.posZ[i]).toBe(b.z)
      expect(a.velZ[i]).toBe(b.vz)
    }
    // the one inside is untouched; the others moved by the slice angle
    expect(a.posX[2]).toBe(before[2]!.x)
    const angle = (i: number) => angleFromBisector(s, a.posX[i]!, a.posY[i]!, a.posZ[i]!).psi
    expect((angle(0) * 180) / Math.PI).toBeCloseTo(43, 9)
    expect((angle(1) * 180) / Math.PI).toBeCloseTo(-44, 9)
  })

  // 120° the spec's widest; 30° narrow: near the axis a particle sees images turned by several k·angle
  for (const angle of [90, 60, 120, 30]) {
    it(`finds every neighbour across the cut faces turned (${angle}° slice, against brute force)`, async () => {
      const s = slice(angle, 10)
      const config = sectorConfig(s)
      const solver = await createSolver(config)
      try {
        const internals = solverInternals(solver)
        const { arrays: a, grid, constants } = internals
        const n = internals.count()
        const support = constants.support
        const real: number[] = []
        for (let i = 0; i < n; i++) if (a.particleId[i]! >= 0) real.push(i)
        expect(real).toHaveLength(config.particles.kinds.length)
        expect(n).toBeGreaterThan(real.length)
        const turns = Array.from({ length: sliceCount(s) }, (_, k) =>
          rotationMatrix(s.axis, k * s.angle),
        )
        const key = (x: number, y: number, z: number) =>
          `${x.toFixed(9)},${y.toFixed(9)},${z.toFixed(9)}`
        let checked = 0
        let across = 0
        // neighbours through a slice that is not next to this one (only near the axis)
        let farTurn = 0
        for (const i of real) {
          if (a.kind[i] !== PARTICLE_KIND.fluid) continue
          const found = findNeighbours(a, grid, i, support)
            .map((j) => key(a.posX[j]!, a.posY[j]!, a.posZ[j]!))
            .sort()
          const expected: string[] = []
          for (const j of real)
            for (const [k, m] of turns.entries()) {
              if (k === 0 && j === i) continue
              const rx = a.posX[j]! - s.center[0]
              const ry = a.posY[j]! - s.center[1]
              const rz = a.posZ[j]! - s.center[2]
              const x = s.center[0] + m[0]! * rx + m[1]! * ry + m[2]! * rz
              const y = s.center[1] + m[3]! * rx + m[4]! * ry + m[5]! * rz
              const z = s.center[2] + m[6]! * rx + m[7]! * ry + m[8]! * rz
              const d = Math.hypot(x - a.posX[i]!, y - a.posY[i]!, z - a.posZ[i]!)
              if (d < support) {
                expected.push(key(x, y, z))
                if (k > 0) across++
                if (k > 1 && k < turns.length - 1) farTurn++
              }
            }
          expect(found).toEqual(expected.sort())
          checked++
        }
        expect(checked).toBeGreaterThan(20)
        expect(across).toBeGreaterThan(100)
        if (turns.length > 3) expect(farTurn).toBeGreaterThan(0)
      } finally {
        await solver.dispose()
      }
    })
  }

  it('runs a sector in solid-body rotation: fluid stays in the slice, none lost, 1 and 2 threads alike', async () => {
    const s = slice(90)
    const hashes: string[] = []
    for (const threads of [1, 2]) {
      const config = sectorConfig(s, 3, threads)
      const solver = await createSolver(config)
      try {
        const fluid = Array.from(config.particles.kinds).filter((k) => k === 0).length
        for (let step = 0; step < 30; step++) solver.step()
        const snap = solver.snapshot()
        expect(snap.count).toBe(config.particles.kinds.length)
        expect(solver.report().fluidCount).toBe(fluid)
        expect(solver.report().deletedInvalid).toBe(0)
        let lz = 0
        for (let i = 0; i < snap.count; i++) {
          if (snap.kind[i] !== PARTICLE_KIND.fluid) continue
          const p = snap.positions
          expect(insideSlice(s, p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!)).toBe(true)
          const v = snap.velocities
          lz +=
            (p[3 * i]! - s.center[0]) * v[3 * i + 1]! - (p[3 * i + 1]! - s.center[1]) * v[3 * i]!
        }
        // fluid crossed the faces (the rim moves 0.18 m/s) and kept turning: the floor's
        // no-slip brakes it a little
        expect(lz / fluid).toBeGreaterThan(0.8 * 3 * 0.0018)
        hashes.push(
          createHash('sha256')
            .update(snap.positions)
            .update(snap.velocities)
            .update(snap.density)
            .digest('hex'),
        )
      } finally {
        await solver.dispose()
      }
    }
    expect(hashes[1]).toBe(hashes[0])
  })

  // issue 16 item 7: without shifting the images kept their state of the last force pass
  for (const shifting of ['zero', 'lyu21'] as const) {
    it(`sensors by a cut read the images' sources after a step (shifting ${shifting})`, async () => {
      const s = slice(90)
      const solver = await createSolver(sectorConfig(s, 3, 1, shifting))
      try {
        for (let step = 0; step < 3; step++) solver.step()
        // a point 0.1 dp inside one face reads images of the particles by the other face; the
        // same point turned back by the slice angle, just beyond that other face, reads those
        // particles themselves (the images within reach cover its support)
        const turnBack = rotationMatrix(s.axis, -s.angle)
        const turn = (m: Float64Array, v: readonly number[], about: readonly number[]) => {
          const r = [0, 1, 2].map((c) => v[c]! - about[c]!)
          return [0, 1, 2].map(
            (c) => about[c]! + m[3 * c]! * r[0]! + m[3 * c + 1]! * r[1]! + m[3 * c + 2]! * r[2]!,
          ) as Vec3
        }
        let compared = 0
        for (const [radius, z] of [
          [0.03, 0.015],
          [0.05, 0.035],
          [0.04, 0],
        ] as const) {
          const a = s.start + s.angle - (0.1 * dp) / radius
          const inside = [0, 1, 2].map(
            (c) =>
              s.center[c]! +
              radius * (Math.cos(a) * s.e1[c]! + Math.sin(a) * s.e2[c]!) +
              z * s.axis[c]!,
          ) as Vec3
          const beyond = turn(turnBack, inside, s.center)
          expect(insideSlice(s, ...beyond)).toBe(false)
          const pressure = probePressure(solver, inside)
          expect(Math.abs(pressure)).toBeGreaterThan(10)
          expect(Math.abs(probePressure(solver, beyond) - pressure)).toBeLessThan(
            1e-12 * Math.abs(pressure),
          )
          const v: Vec3 = [0, 0, 0]
          const u: Vec3 = [0, 0, 0]
          expect(probeVelocity(solver, inside, v)).toBe(true)
          expect(probeVelocity(solver, beyond, u)).toBe(true)
          const turned = turn(turnBack, v, [0, 0, 0])
          const speed = Math.hypot(...v)
          expect(speed).toBeGreaterThan(0.05)
          expect(Math.hypot(u[0] - turned[0], u[1] - turned[1], u[2] - turned[2])).toBeLessThan(
            1e-12 * speed,
          )
          compared++
        }
        expect(compared).toBe(3)
      } finally {
        await solver.dispose()
      }
    })
  }

  it('resumes from a checkpoint as if it had not stopped (the images are made again)', async () => {
    const s = slice(90)
    const hash = (snap: {
      positions: Float64Array
      velocities: Float64Array
      density: Float64Array
    }) =>
      createHash('sha256')
        .update(snap.positions)
        .update(snap.velocities)
        .update(snap.density)
        .digest('hex')
    const first = await createSolver(sectorConfig(s, 3))
    const second = await createSolver(sectorConfig(s, 3))
    try {
      for (let step = 0; step < 5; step++) first.step()
      second.restore(first.checkpoint())
      for (let step = 0; step < 5; step++) {
        first.step()
        second.step()
      }
      expect(second.snapshot().count).toBe(first.snapshot().count)
      expect(hash(second.snapshot())).toBe(hash(first.snapshot()))
    } finally {
      await first.dispose()
      await second.dispose()
    }
  })

  it('refuses what it cannot run, by name', async () => {
    const s = slice(90)
    const config = sectorConfig(s)
    await expect(
      createSolver({
        ...config,
        settings: { ...config.settings, multiphase: true, gravity: [1, 0, -9.81] },
      }),
    ).rejects.toThrow(
      /periodic boundary with multiphase.*periodic boundary with gravity across its axis/,
    )
    await expect(
      createSolver({
        ...config,
        settings: {
          ...config.settings,
          rotatingSystem: true,
          rotationVelocity: 1,
          rotationAxis: [0, 0, 1],
          rotationCenter: [0, 0, 0],
        },
      }),
    ).rejects.toThrow('periodic boundary about another axis than the rotating system')
  })
})
