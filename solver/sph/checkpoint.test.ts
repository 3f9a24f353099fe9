import { afterEach, describe, expect, it } from 'vitest'
import { CHECKPOINT_VERSION } from './checkpoint.ts'
import {
  PERSISTENT_BYTE_FIELDS,
  PERSISTENT_FLOAT_FIELDS,
  PERSISTENT_INT_FIELDS,
} from './particles.ts'
import type { Solver } from './SphSolver.ts'
import { createSolver } from './SphSolver.ts'
import { buildTankParticles, supportedSettings, WATER } from './scenarios.ts'

const solvers: Solver[] = []
afterEach(async () => {
  await Promise.all(solvers.splice(0).map((solver) => solver.dispose()))
})

async function damBreak(): Promise<Solver> {
  const scenario = {
    dp: 0.025,
    tank: [0.4, 0.1, 0.2] as [number, number, number],
    fluidMin: [0, 0, 0] as [number, number, number],
    fluidMax: [0.1, 0.1, 0.15] as [number, number, number],
    closed: false,
    wallLayers: 3,
  }
  const solver = await createSolver({
    settings: supportedSettings(scenario.dp),
    materials: [WATER],
    particles: buildTankParticles(scenario),
    options: { hydrostaticInitialisation: true, integrator: 'symplectic' },
  })
  solvers.push(solver)
  return solver
}

const pad8 = (n: number) => (n + 7) & ~7

/**
 * The checkpoint as version 1 wrote it: no temperature or smoothing length among the floats, no
 * phase among the bytes.
 */
function asVersion1(bytes: Uint8Array, count: number): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const head = 16 + pad8(view.getUint32(12, true))
  const pieces: Uint8Array[] = [bytes.slice(0, head)]
  let offset = head
  for (const field of PERSISTENT_FLOAT_FIELDS) {
    if (field !== 'temp' && field !== 'hsml') pieces.push(bytes.slice(offset, offset + count * 8))
    offset += count * 8
  }
  const ints = PERSISTENT_INT_FIELDS.length * pad8(count * 4)
  pieces.push(bytes.slice(offset, offset + ints))
  offset += ints
  for (const field of PERSISTENT_BYTE_FIELDS) {
    if (field !== 'phase') pieces.push(bytes.slice(offset, offset + pad8(count)))
    offset += pad8(count)
  }
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0))
  let at = 0
  for (const piece of pieces) {
    out.set(piece, at)
    at += piece.length
  }
  new DataView(out.buffer).setUint32(8, 1, true)
  return out
}

describe('checkpoints', () => {
  it('resumes a run from a version 1 checkpoint (before temperature, phase and smoothing length) as from a current one', async () => {
    const solver = await damBreak()
    for (let k = 0; k < 10; k++) solver.step()
    const current = solver.checkpoint()
    const old = asVersion1(current, solver.snapshot().count)
    expect(old.length).toBeLessThan(current.length)

    const fromCurrent = await damBreak()
    fromCurrent.restore(current)
    const fromOld = await damBreak()
    fromOld.restore(old)
    for (let k = 0; k < 10; k++) {
      fromCurrent.step()
      fromOld.step()
    }
    const a = fromCurrent.snapshot()
    const b = fromOld.snapshot()
    expect(b.step).toBe(20)
    expect(b.timeS).toBe(a.timeS)
    expect(b.positions).toEqual(a.positions)
    expect(b.density).toEqual(a.density)
  })

  it('refuses a checkpoint of a version newer than this solver reads', async () => {
    const solver = await damBreak()
    const bytes = solver.checkpoint()
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(8, CHECKPOINT_VERSION + 1, true)
    expect(() => solver.restore(bytes)).toThrow(
      `Checkpoint version ${CHECKPOINT_VERSION + 1} is not supported`,
    )
  })
})
