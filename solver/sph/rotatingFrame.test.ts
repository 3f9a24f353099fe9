import { describe, expect, it } from 'vitest'
import { defaultSettings } from '../../domain/settings.ts'
import type { SolverConfig } from './config.ts'
import { SolverSetupError } from './options.ts'
import { PARTICLE_KIND } from './particles.ts'
import { addFrameAcceleration, deriveRotatingFrame, frameAccelerationAt } from './rotatingFrame.ts'
import { supportedSettings, WATER } from './scenarios.ts'
import { createSolver } from './SphSolver.ts'
import { unsupportedSettings } from './support.ts'

const rotating = {
  rotatingSystem: true,
  rotationVelocity: 2,
  rotationAxis: [0, 0, 3] as [number, number, number],
  rotationCenter: [1, 0, 0] as [number, number, number],
}

describe('rotating frame', () => {
  it('takes Ω along the unit axis and refuses a missing velocity, a zero axis or no centre', () => {
    expect(deriveRotatingFrame(defaultSettings())).toBeNull()
    expect(deriveRotatingFrame(rotating)).toEqual({ omega: [0, 0, 2], center: [1, 0, 0] })
    const message = 'Rotating system needs velocity, a non-zero axis and a centre.'
    for (const bad of [
      { rotationVelocity: null },
      { rotationAxis: [0, 0, 0] as [number, number, number] },
      { rotationAxis: null },
      { rotationCenter: [0, null, 0] as [number, number | null, number] },
    ])
      expect(() => deriveRotatingFrame({ ...rotating, ...bad })).toThrow(
        new SolverSetupError(message),
      )
  })

  it('adds the centrifugal and Coriolis accelerations', () => {
    const frame = deriveRotatingFrame(rotating)!
    const out = new Float64Array([0, 0, -9.81])
    // r = (1, 2, 5) − (1, 0, 0): centrifugal |Ω|² r⊥ = 4 (0, 2, 0); v = (3, 0, 1): −2Ω×v = (0, −12, 0)
    addFrameAcceleration(frame, 1, 2, 5, 3, 0, 1, true, out)
    expect([...out]).toEqual([0, 8 - 12, -9.81])
  })

  it("takes a particle's position and velocity from its neighbour record", () => {
    const frame = deriveRotatingFrame(rotating)!
    // a record at offset 8: position (1, 2, 5), velocity (3, 0, 1), as above
    const packed = new Float64Array(16)
    packed.set([1, 2, 5, 3, 0, 1], 8)
    expect([...frameAccelerationAt(frame, 0, 0, -9.81, packed, 8, true)]).toEqual([0, -4, -9.81])
    expect([...frameAccelerationAt(frame, 0, 0, -9.81, packed, 8, false)]).toEqual([0, 8, -9.81])
    expect([...frameAccelerationAt(null, 1, 2, 3, packed, 8, true)]).toEqual([1, 2, 3])
  })

  it('is no longer refused at start; with a y-periodic slab only about the y axis', () => {
    const settings = { ...defaultSettings(), ...rotating }
    expect(unsupportedSettings(settings)).toEqual([])
    const slab = { periodicY: { min: 0, max: 1 } }
    expect(unsupportedSettings(settings, slab)).toEqual([
      'rotatingSystem with periodicY (axis other than y)',
    ])
    expect(unsupportedSettings({ ...settings, rotationAxis: [0, 1, 0] }, slab)).toEqual([])
  })

  /**
   * A lone fluid particle (no neighbours, no gravity) at rest in the inertial frame: seen from
   * the frame turning at Ω about z it circles the axis backwards, r(t) = R(−Ωt) r0, with the
   * velocity −Ω × r. Only the frame's two accelerations move it.
   */
  async function loneParticle(threads: number) {
    const omega = 3
    const r0 = [0.2, 0.1, 0.05]
    const config: SolverConfig = {
      settings: supportedSettings(0.05, {
        gravity: [0, 0, 0],
        dynamicTimeStep: false,
        rotatingSystem: true,
        rotationVelocity: omega,
        rotationAxis: [0, 0, 1],
        rotationCenter: [0, 0, 0],
      }),
      materials: [WATER],
      particles: {
        positions: Float64Array.from([...r0, 0.5, 0.5, 0.5]),
        kinds: Uint8Array.from([PARTICLE_KIND.fluid, PARTICLE_KIND.wall]),
        partIds: Int32Array.from([1, 2]),
        velocities: Float64Array.from([omega * r0[1]!, -omega * r0[0]!, 0, 0, 0, 0]),
      },
      options: { threads, fixedTimeStepS: 1e-3 },
    }
    const solver = await createSolver(config)
    try {
      const endS = 0.5
      solver.runUntil(endS)
      const s = solver.snapshot()
      const i = s.kind[0] === PARTICLE_KIND.fluid ? 0 : 1
      const angle = -omega * endS
      const expected = [
        Math.cos(angle) * r0[0]! - Math.sin(angle) * r0[1]!,
        Math.sin(angle) * r0[0]! + Math.cos(angle) * r0[1]!,
        r0[2]!,
      ]
      return {
        position: [...s.positions.subarray(3 * i, 3 * i + 3)],
        velocity: [...s.velocities.subarray(3 * i, 3 * i + 3)],
        expected,
        omega,
      }
    } finally {
      await solver.dispose()
    }
  }

  it('turns a particle at rest in the inertial frame backwards about the axis (RK4, 1 and 2 threads)', async () => {
    const one = await loneParticle(1)
    for (let c = 0; c < 3; c++) expect(one.position[c]!).toBeCloseTo(one.expected[c]!, 9)
    // velocity −Ω × r: (Ω y, −Ω x, 0)
    expect(one.velocity[0]!).toBeCloseTo(one.omega * one.expected[1]!, 8)
    expect(one.velocity[1]!).toBeCloseTo(-one.omega * one.expected[0]!, 8)
    const two = await loneParticle(2)
    expect(two.position).toEqual(one.position)
    expect(two.velocity).toEqual(one.velocity)
  })
})
