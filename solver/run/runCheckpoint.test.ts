/**
 * The run checkpoint's envelope: written as its head then the solver's bytes (no copy of a large
 * checkpoint), the file is encodeRunCheckpoint's and decodes to the same header and bytes.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileAtomically } from './outputs.ts'
import { decodeRunCheckpoint, encodeRunCheckpoint, runCheckpointHead } from './runCheckpoint.ts'
import { tempDirectories } from './testDirectories.ts'

const directory = tempDirectories('dive-run-checkpoint-')

describe('a run checkpoint written in parts', () => {
  it('is the encoded checkpoint, byte for byte, and decodes to its header and solver bytes', async () => {
    const header = {
      version: 1 as const,
      outputNo: 3,
      timeS: 0.06,
      runtimeMs: 1234.5,
      creditsConsumed: 0.25,
      triggeredConditionIds: [2, 5],
    }
    // an odd length, so that the head's padding to 8 bytes matters
    const solverBytes = Uint8Array.from({ length: 1001 }, (_, k) => (k * 37) % 251)
    const head = runCheckpointHead(header)
    expect(head.length % 8).toBe(0)
    const path = join(await directory(), 'checkpoints', '000003.ckpt')
    await writeFileAtomically(path, [head, solverBytes])
    const written = new Uint8Array(await readFile(path))
    expect(written).toEqual(encodeRunCheckpoint(header, solverBytes))
    const decoded = decodeRunCheckpoint(written)
    expect(decoded.header).toEqual(header)
    expect(decoded.solverBytes).toEqual(solverBytes)
  })
})
