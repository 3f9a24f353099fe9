import { describe, expect, it } from 'vitest'
import { createRandom as random } from '../../domain/random.ts'
import { deriveConstants, findFluidMaterial } from './config.ts'
import { CellSorter } from './grid.ts'
import { resolveOptions } from './options.ts'
import {
  allocateParticleBuffers,
  PERSISTENT_BYTE_FIELDS,
  PERSISTENT_FLOAT_FIELDS,
  PERSISTENT_INT_FIELDS,
  viewParticleArrays,
  type ParticleArrays,
} from './particles.ts'
import {
  permuteRange,
  permuteStages,
  permuteScratchBytes,
  permuteStage,
  viewPermuteScratch,
} from './permute.ts'
import { prepareParticles } from './prepare.ts'
import { createDamBreakConfig } from './scenarios.ts'
import { PhaseRunner } from './threads.ts'

const FIELDS = [...PERSISTENT_FLOAT_FIELDS, ...PERSISTENT_INT_FIELDS, ...PERSISTENT_BYTE_FIELDS]

/** Particles whose every persistent field holds values drawn at random. */
function randomFields(n: number, seed: number): ParticleArrays {
  const next = random(seed)
  const a = viewParticleArrays(allocateParticleBuffers(n))
  for (let i = 0; i < n; i++) {
    for (const field of PERSISTENT_FLOAT_FIELDS) a[field][i] = next() - 0.5
    for (const field of PERSISTENT_INT_FIELDS) a[field][i] = Math.floor(next() * 2 ** 31)
    for (const field of PERSISTENT_BYTE_FIELDS) a[field][i] = Math.floor(next() * 256)
  }
  return a
}

/** Each persistent field's values, as plain arrays. */
function fieldsOf(a: ParticleArrays, n: number): Record<string, number[]> {
  return Object.fromEntries(FIELDS.map((field) => [field, [...a[field].subarray(0, n)]]))
}

/** A random permutation of [0, n) (Fisher–Yates). */
function shuffledIndices(n: number, seed: number): Int32Array {
  const next = random(seed)
  const indices = Int32Array.from({ length: n }, (_, i) => i)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    const t = indices[i]!
    indices[i] = indices[j]!
    indices[j] = t
  }
  return indices
}

/**
 * The permutation's stages dealt to `threads` slots, each stage's slots run last slot first
 * (the slots of a stage in any order, as threads run them), all of a stage before the next.
 */
function dealtPermute(a: ParticleArrays, permutation: Int32Array, kept: number, threads: number) {
  const bytes = permuteScratchBytes(a.capacity, threads)
  const scratch = viewPermuteScratch(new ArrayBuffer(bytes), a.capacity, threads)
  for (let stage = 0; stage < permuteStages(threads); stage++)
    for (let slot = threads - 1; slot >= 0; slot--)
      permuteStage(a, permutation, kept, stage, slot, threads, scratch)
}

describe('the permutation of a sort on several threads', () => {
  const n = 5000
  // a sort that deletes particles keeps a prefix of the permutation
  const kept = n - 123
  const permutation = shuffledIndices(n, 3)
  const before = fieldsOf(randomFields(n, 9), n)
  // the serial gather, by definition: new index k ← old index permutation[k]; the rest unchanged
  const expected = Object.fromEntries(
    FIELDS.map((field) => {
      const old = before[field]!
      return [field, old.map((value, k) => (k < kept ? old[permutation[k]!]! : value))]
    }),
  )

  for (const threads of [1, 2, 3, 5, 40])
    it(`equals the serial gather on ${threads} slot(s)`, () => {
      const a = randomFields(n, 9)
      dealtPermute(a, permutation, kept, threads)
      expect(fieldsOf(a, n)).toEqual(expected)
    })

  it('needs every slot to gather a group before any copies it back (the barrier between stages)', () => {
    // each slot's stages run together, no barrier: a slot's copy back overwrites old values that
    // the next slot still gathers, so the fields differ from the serial gather
    const a = randomFields(n, 9)
    const scratch = viewPermuteScratch(new ArrayBuffer(permuteScratchBytes(n, 3)), n, 3)
    for (let slot = 0; slot < 3; slot++)
      for (let stage = 0; stage < permuteStages(3); stage++)
        permuteStage(a, permutation, kept, stage, slot, 3, scratch)
    expect(fieldsOf(a, n).posX).not.toEqual(expected.posX)
  })

  it('deals every particle to one slot, in ranges of equal length up to the alignment', () => {
    for (const threads of [1, 2, 3, 5, 40]) {
      const ranges = Array.from({ length: threads }, (_, t) => permuteRange(kept, t, threads))
      expect(ranges[0]![0]).toBe(0)
      expect(ranges[threads - 1]![1]).toBe(kept)
      for (let t = 1; t < threads; t++) expect(ranges[t]![0]).toBe(ranges[t - 1]![1])
      for (const [begin, end] of ranges)
        expect(Math.abs(end - begin - kept / threads)).toBeLessThanOrEqual(64)
    }
  })
})

describe('a sort on worker threads', () => {
  /** A small dam break's particles and the solver's constants, the same on every call. */
  function damBreak() {
    const config = createDamBreakConfig(2000)
    const options = resolveOptions({ ...config.options, threads: 3 })
    const constants = deriveConstants(config, options, findFluidMaterial(config))
    const setup = prepareParticles(config, options, constants)
    const request = {
      count: setup.count,
      support: constants.support,
      reach: options.cellsPerSupport,
      referenceBox: setup.referenceBox,
      deletionBox: null,
    }
    return { constants, setup, request }
  }

  it('moves every persistent field as the sorting thread alone does, bit for bit', async () => {
    const serial = damBreak()
    const dealt = damBreak()
    const runner = await PhaseRunner.start({
      threads: 3,
      particles: dealt.setup.buffers,
      grid: dealt.setup.grid,
      constants: dealt.constants,
    })
    try {
      const sorters = [
        new CellSorter(serial.setup.arrays, serial.setup.grid),
        new CellSorter(dealt.setup.arrays, dealt.setup.grid, runner.parallelSort()),
      ]
      const next = random(4)
      const step = 0.2 * serial.constants.support
      for (let s = 0; s < 3; s++) {
        // the same move on both: particles change cells, so the permutation is not the identity
        const moves = Array.from({ length: 3 * serial.setup.count }, () => step * (next() - 0.5))
        for (const { setup } of [serial, dealt])
          for (let i = 0; i < setup.count; i++) {
            setup.arrays.posX[i]! += moves[3 * i]!
            setup.arrays.posY[i]! += moves[3 * i + 1]!
            setup.arrays.posZ[i]! += moves[3 * i + 2]!
          }
        const ids = [...serial.setup.arrays.particleId.subarray(0, serial.setup.count)]
        const counts = [sorters[0]!.sort(serial.request), sorters[1]!.sort(dealt.request)]
        expect(counts[1]).toEqual(counts[0])
        const count = counts[0]!.count
        expect([...serial.setup.arrays.particleId.subarray(0, count)]).not.toEqual(ids)
        expect(fieldsOf(dealt.setup.arrays, count)).toEqual(fieldsOf(serial.setup.arrays, count))
      }
    } finally {
      await runner.dispose()
    }
  })
})
