import { tableFromIPC } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { FORMAT_VERSION } from '../outputFormat.ts'
import {
  FIXTURE_FILES,
  FIXTURE_OPTIONS,
  FIXTURES_DIRECTORY,
  getFixtureFileSystem,
} from './fixtures.ts'
import { readBundle, readObjectStream } from './reader.ts'

const fileSystem = getFixtureFileSystem()
function readFixture(name: string): Uint8Array {
  return fileSystem.readFileSync(new URL(name, FIXTURES_DIRECTORY))
}

function finiteRange(values: Float32Array): { min: number; max: number } {
  let min = Infinity
  let max = -Infinity
  for (const value of values) {
    if (!Number.isFinite(value)) continue
    min = Math.min(min, value)
    max = Math.max(max, value)
  }
  return { min, max }
}

describe('committed fixtures (tests/fixtures, rebuilt by makeFixtures.ts)', () => {
  const files = Object.values(FIXTURE_FILES).map((name) => [name, readFixture(name)] as const)

  it('stay under 1 MiB together', () => {
    const total = files.reduce((sum, [, bytes]) => sum + bytes.length, 0)
    expect(total).toBeLessThan(1024 * 1024)
  })

  it('read back as the dam-break fluid they were written as', () => {
    const bytes = readFixture(FIXTURE_FILES.damBreakFluid)
    const fluid = readObjectStream(bytes)
    expect(fluid.meta).toMatchObject({
      formatVersion: { major: FORMAT_VERSION },
      simulationId: 1,
      runId: 1,
      outputNo: 4,
      timeS: 0.4,
      objectId: 'fluid-0',
      objectKind: 'fluid',
      materialId: 0,
      dataset: 'full',
      particleCount: FIXTURE_OPTIONS.damBreak.particles,
      ordering: 'stratified',
    })
    expect(Object.keys(fluid.columns)).toEqual([
      'x',
      'y',
      'z',
      'vx',
      'vy',
      'vz',
      'pressure',
      'density',
      'mass',
    ])
    expect(fluid.columns.pressure!.buffer).toBe(bytes.buffer)
    for (const [name, values] of Object.entries(fluid.columns)) {
      expect(fluid.ranges[name], name).toEqual(finiteRange(values))
    }
    expect(fluid.units.density).toBe('kg/m³')
  })

  it('read back the wall with its mesh, the outlet and the clip mask', () => {
    const wall = readObjectStream(readFixture(FIXTURE_FILES.damBreakWall))
    expect(wall.meta.objectKind).toBe('wall_boundary')
    expect(wall.mesh!.triangleCount).toBeGreaterThan(0)
    expect(wall.mesh!.ranges.pressure!.max).toBeGreaterThan(0)
    const outlet = readObjectStream(readFixture(FIXTURE_FILES.damBreakOutlet))
    expect(outlet.meta.objectKind).toBe('open_boundary')
    const clip = readObjectStream(readFixture(FIXTURE_FILES.damBreakClip))
    expect(clip.meta).toMatchObject({ objectKind: 'volume_clip', targetObjectId: 'fluid-0' })
    expect(clip.mask).toHaveLength(FIXTURE_OPTIONS.damBreak.particles)
    const fluid = readObjectStream(readFixture(FIXTURE_FILES.damBreakFluid))
    const x = fluid.columns.x!
    expect(clip.mask!.every((flag, row) => flag === (x[row]! >= 2 ? 1 : 0))).toBe(true)
  })

  it('read back the sloshing fluid', () => {
    const fluid = readObjectStream(readFixture(FIXTURE_FILES.sloshingFluid))
    expect(fluid.meta).toMatchObject({ simulationId: 2, outputNo: 3, particleCount: 1500 })
  })

  it('hold a bundle whose entries are the object fixtures, byte for byte', () => {
    const bundle = readFixture(FIXTURE_FILES.damBreakBundle)
    const entries = readBundle(bundle)
    expect(entries.map((entry) => [entry.objectId, entry.kind, entry.dataset])).toEqual([
      ['fluid-0', 'fluid', 'full'],
      ['wall-1', 'wall_boundary', 'full'],
      ['outlet-2', 'open_boundary', 'full'],
      ['clip-1@fluid-0', 'volume_clip', 'full'],
    ])
    const expected = [
      FIXTURE_FILES.damBreakFluid,
      FIXTURE_FILES.damBreakWall,
      FIXTURE_FILES.damBreakOutlet,
      FIXTURE_FILES.damBreakClip,
    ].map(readFixture)
    entries.forEach((entry, index) => {
      const file = expected[index]!
      expect(entry.bytes.length).toBe(file.length)
      expect(entry.bytes.every((byte, offset) => byte === file[offset])).toBe(true)
      const view = readObjectStream(entry.bytes)
      expect((view.mask ?? view.columns.x!).buffer).toBe(bundle.buffer)
    })
  })

  it('are standard Arrow streams for other tools (apache-arrow reads the first stream)', () => {
    const table = tableFromIPC(readFixture(FIXTURE_FILES.damBreakFluid))
    expect(table.numRows).toBe(FIXTURE_OPTIONS.damBreak.particles)
    expect(table.schema.metadata.get('dive.object_kind')).toBe('fluid')
  })
})
