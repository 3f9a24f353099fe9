import { describe, expect, it } from 'vitest'
import { OutputFormatError } from '../outputFormat.ts'
import { readObjectStream } from './reader.ts'
import {
  generateOutput,
  SYNTHETIC_OBJECT_IDS,
  writeSyntheticOutput,
  type SyntheticOutputOptions,
} from './synthetic.ts'
import type { MaskObjectInput, OutputInput, ParticleObjectInput } from './writer.ts'

const GRAVITY = 9.81
const WATER_DENSITY = 1000

function particleObject(output: OutputInput, objectId: string): ParticleObjectInput {
  const object = output.objects.find((candidate) => candidate.objectId === objectId)
  if (!object || object.kind === 'volume_clip') throw new Error(`no particle object ${objectId}`)
  return object
}

function maxOf(values: Float32Array): number {
  let max = -Infinity
  for (const value of values) max = Math.max(max, value)
  return max
}

describe('generateOutput', () => {
  it.each([
    [10, 'dam_break'],
    [1000, 'dam_break'],
    [12_345, 'sloshing'],
    [54_321, 'dam_break'],
  ] as const)('makes exactly %i fluid particles (%s)', (particles, scenario) => {
    const fluid = particleObject(generateOutput({ particles, timeS: 0.3, scenario }), 'fluid-0')
    for (const values of Object.values(fluid.columns)) expect(values).toHaveLength(particles)
  })

  it('is deterministic for a seed and differs between seeds', () => {
    const options: SyntheticOutputOptions = { particles: 2000, timeS: 0.4, seed: 7 }
    const first = writeSyntheticOutput(options).full.get('fluid-0')!.bytes
    const second = writeSyntheticOutput(options).full.get('fluid-0')!.bytes
    const other = writeSyntheticOutput({ ...options, seed: 8 }).full.get('fluid-0')!.bytes
    const same = (a: Uint8Array, b: Uint8Array): boolean =>
      a.length === b.length && a.every((byte, index) => byte === b[index])
    expect(same(second, first)).toBe(true)
    expect(same(other, first)).toBe(false)
  })

  it('starts as the still water column of Martin & Moyce (1 m wide, 2 m high)', () => {
    const fluid = particleObject(generateOutput({ particles: 20_000, timeS: 0 }), 'fluid-0')
    const { x, z, vx, vz } = fluid.columns
    expect(maxOf(x!)).toBeLessThan(1.01)
    expect(maxOf(z!)).toBeLessThan(2.01)
    expect(vx!.every((value) => value === 0) && vz!.every((value) => value === 0)).toBe(true)
  })

  it('has hydrostatic pressure ρg(h − z) plus noise in the still column', () => {
    const fluid = particleObject(generateOutput({ particles: 20_000, timeS: 0 }), 'fluid-0')
    const { z, pressure } = fluid.columns
    let error = 0
    for (let row = 0; row < pressure!.length; row++) {
      error += Math.abs(pressure![row]! - WATER_DENSITY * GRAVITY * (2 - z![row]!))
    }
    const scale = WATER_DENSITY * GRAVITY * 2
    // Lattice particles sit half a spacing below the surface, plus 1 % noise.
    expect(error / pressure!.length / scale).toBeLessThan(0.03)
  })

  it('derives density from pressure with Tait’s equation (γ = 7, c = 10 √(g h0))', () => {
    const fluid = particleObject(generateOutput({ particles: 5000, timeS: 0.5 }), 'fluid-0')
    const { pressure, density } = fluid.columns
    const soundSpeed = 10 * Math.sqrt(GRAVITY * 2)
    const taitB = (WATER_DENSITY * soundSpeed ** 2) / 7
    for (let row = 0; row < 5000; row += 97) {
      const expected = WATER_DENSITY * (1 + pressure![row]! / taitB) ** (1 / 7)
      expect(density![row]).toBeCloseTo(expected, 2)
    }
    expect(maxOf(density!)).toBeGreaterThan(WATER_DENSITY)
  })

  it('gives every particle the same mass, adding up to the water’s mass', () => {
    const fluid = particleObject(generateOutput({ particles: 50_000, timeS: 0.3 }), 'fluid-0')
    const mass = fluid.columns.mass!
    expect(new Set(mass).size).toBe(1)
    const total = mass[0]! * mass.length
    expect(total / (WATER_DENSITY * 2)).toBeGreaterThan(0.9)
    expect(total / (WATER_DENSITY * 2)).toBeLessThan(1.1)
  })

  it('moves the front downstream over time, slower than Ritter’s 2√(g h0)', () => {
    const front = (timeS: number): number =>
      maxOf(particleObject(generateOutput({ particles: 20_000, timeS }), 'fluid-0').columns.x!)
    const early = front(0.1)
    const later = front(0.25)
    expect(early).toBeGreaterThan(1.1)
    expect(later).toBeGreaterThan(early + 0.3)
    expect(later).toBeLessThan(1 + 2 * Math.sqrt(GRAVITY * 2) * 0.25)
  })

  it('has flow towards the front and speeds below the front speed', () => {
    const fluid = particleObject(generateOutput({ particles: 20_000, timeS: 0.2 }), 'fluid-0')
    const vx = fluid.columns.vx!
    expect(maxOf(vx)).toBeGreaterThan(2)
    expect(maxOf(vx)).toBeLessThan(2.1 * Math.sqrt(GRAVITY * 2))
  })

  it('sloshes: still at t = 0, moving a quarter period later', () => {
    const speed = (timeS: number): number =>
      maxOf(
        particleObject(
          generateOutput({ particles: 5000, timeS, scenario: 'sloshing' }),
          'fluid-0',
        ).columns.vx!.map(Math.abs),
      )
    const k = Math.PI
    const period = (2 * Math.PI) / Math.sqrt(GRAVITY * k * Math.tanh(k * 0.5))
    expect(speed(0)).toBeLessThan(1e-6)
    expect(speed(period / 4)).toBeGreaterThan(0.05)
  })

  it('adds the tank as wall particles and as a mesh with hydrostatic pressure per vertex', () => {
    const output = generateOutput({ particles: 5000, timeS: 0, meshCellsPerEdge: 24 })
    const wall = particleObject(output, SYNTHETIC_OBJECT_IDS.wall)
    expect(wall.kind).toBe('wall_boundary')
    expect(wall.columns.x!.length).toBeGreaterThan(100)
    const mesh = wall.mesh!
    const vertexCount = mesh.columns.x!.length
    expect(mesh.indices.length % 3).toBe(0)
    expect(mesh.indices.every((index) => index < vertexCount)).toBe(true)
    // The floor under the column carries the full water height.
    expect(maxOf(mesh.columns.pressure!)).toBeCloseTo(WATER_DENSITY * GRAVITY * 2, -2)
    expect(mesh.columns.pressure!.every((value) => value >= 0)).toBe(true)
  })

  it('adds the open boundary on request and the volume clip mask by default', () => {
    const output = generateOutput({ particles: 3000, timeS: 0.5, openBoundary: true })
    expect(output.objects.map((object) => object.kind)).toEqual([
      'fluid',
      'wall_boundary',
      'open_boundary',
      'volume_clip',
    ])
    const clip = output.objects.at(-1) as MaskObjectInput
    const x = particleObject(output, 'fluid-0').columns.x!
    expect(clip.inside.every((flag, row) => flag === (x[row]! >= 2 ? 1 : 0))).toBe(true)
    const plain = generateOutput({ particles: 3000, timeS: 0.5, volumeClip: false })
    expect(plain.objects.map((object) => object.kind)).toEqual(['fluid', 'wall_boundary'])
  })

  it('writes through the writer and reads back', () => {
    const written = writeSyntheticOutput({
      particles: 4000,
      timeS: 0.7,
      outputNo: 7,
      simulationId: 3,
    })
    const fluid = readObjectStream(written.full.get('fluid-0')!.bytes)
    expect(fluid.meta).toMatchObject({
      simulationId: 3,
      outputNo: 7,
      timeS: 0.7,
      particleCount: 4000,
    })
    expect(fluid.ranges.pressure!.max).toBeGreaterThan(0)
    expect(readObjectStream(written.full.get('wall-1')!.bytes).mesh!.triangleCount).toBeGreaterThan(
      0,
    )
  })

  it.each([0, 1.5, -3, 30_000_000])('refuses %s particles', (particles) => {
    expect(() => generateOutput({ particles, timeS: 0 })).toThrow(OutputFormatError)
  })
})
