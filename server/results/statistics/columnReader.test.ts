import { mkdtempSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { objectFile } from '../../../domain/output/layout.ts'
import { readObjectStream } from '../../../domain/output/reader.ts'
import { OutputFormatError } from '../../../domain/outputFormat.ts'
import { SYNTHETIC_RUN_OBJECT_IDS, writeSyntheticRun } from '../../../scripts/writeSyntheticRun.ts'
import { readObjectColumns } from './columnReader.ts'
import { BufferPool } from './outputReader.ts'

describe('readObjectColumns', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dive-column-reader-'))
  const path = (objectId: string) => join(dataDir, objectFile(1, 1, 0, objectId, 'full'))
  beforeAll(async () => {
    await writeSyntheticRun({
      dataDir,
      simulationId: 1,
      runId: 1,
      outputCount: 1,
      particles: 50_000,
    })
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('reads only the asked columns, equal to the whole-file reader, and leaves out unknown ones', async () => {
    const fluid = path(SYNTHETIC_RUN_OBJECT_IDS.fluid)
    const whole = readObjectStream(new Uint8Array(readFileSync(fluid)))
    const pool = new BufferPool(2)
    // Dirty the pool, so bytes left unread could not pass for the column by chance.
    const dirty = pool.take(statSync(fluid).size)
    dirty.fill(0xab)
    pool.give(dirty)
    const read = await readObjectColumns(fluid, ['pressure', 'density', 'nope'], pool)
    expect(read.rowCount).toBe(whole.rowCount)
    expect(Object.keys(read.columns).sort()).toEqual(['density', 'pressure'])
    expect(read.columns.pressure).toEqual(whole.columns.pressure)
    expect(read.columns.density).toEqual(whole.columns.density)
    // Two columns of 50k Float32 and the head, far less than the file.
    expect(read.bytesRead).toBeLessThan(2 * 4 * 50_000 + 64 * 1024 + 1)
    expect(read.bytesRead).toBeLessThan(statSync(fluid).size / 2)
    read.release()
    const positions = await readObjectColumns(fluid, ['x', 'y', 'z'], pool)
    expect(positions.columns.z).toEqual(whole.columns.z)
    positions.release()
  })

  it('refuses a file that does not start with particles, and a truncated one', async () => {
    const pool = new BufferPool(2)
    await expect(readObjectColumns(path('clip-1'), ['x'], pool)).rejects.toBeInstanceOf(
      OutputFormatError,
    )
    const fluid = readFileSync(path(SYNTHETIC_RUN_OBJECT_IDS.fluid))
    const cut = join(dataDir, 'cut.arrow')
    writeFileSync(cut, fluid.subarray(0, 1000))
    await expect(readObjectColumns(cut, ['pressure'], pool)).rejects.toBeInstanceOf(
      OutputFormatError,
    )
  })
})
