/**
 * The committed test fixtures (tests/fixtures/, < 1 MiB together): small synthetic outputs in the
 * output format, rebuilt by `npx tsx domain/output/makeFixtures.ts`. Readers must keep reading
 * these bytes; change them only with a format version change.
 */
import { writeSyntheticOutput } from './synthetic.ts'
import { writeBundle } from './writer.ts'

/** Where the fixtures live, relative to this file. */
export const FIXTURES_DIRECTORY = new URL('../../tests/fixtures/', import.meta.url)

/** Fixture file names and what each holds. */
export const FIXTURE_FILES = {
  damBreakFluid: 'dam-break-fluid.arrow',
  damBreakWall: 'dam-break-wall.arrow',
  damBreakOutlet: 'dam-break-outlet.arrow',
  damBreakClip: 'dam-break-clip.arrow',
  sloshingFluid: 'sloshing-fluid.arrow',
  damBreakBundle: 'dam-break-output-4.divb',
} as const

/** Options the fixtures were generated with (the tests check the files against them). */
export const FIXTURE_OPTIONS = {
  damBreak: {
    particles: 2000,
    timeS: 0.4,
    outputNo: 4,
    simulationId: 1,
    runId: 1,
    openBoundary: true,
    meshCellsPerEdge: 12,
  },
  sloshing: { particles: 1500, timeS: 0.3, outputNo: 3, simulationId: 2, scenario: 'sloshing' },
} as const

/** Builds every fixture file's bytes. */
export function buildFixtures(): Record<string, Uint8Array> {
  const damBreak = writeSyntheticOutput(FIXTURE_OPTIONS.damBreak).full
  const sloshing = writeSyntheticOutput(FIXTURE_OPTIONS.sloshing).full
  const bytesOf = (objects: typeof damBreak, objectId: string): Uint8Array => {
    const object = objects.get(objectId)
    if (!object) throw new Error(`The synthetic output has no ${objectId}.`)
    return object.bytes
  }
  return {
    [FIXTURE_FILES.damBreakFluid]: bytesOf(damBreak, 'fluid-0'),
    [FIXTURE_FILES.damBreakWall]: bytesOf(damBreak, 'wall-1'),
    [FIXTURE_FILES.damBreakOutlet]: bytesOf(damBreak, 'outlet-2'),
    [FIXTURE_FILES.damBreakClip]: bytesOf(damBreak, 'clip-1@fluid-0'),
    [FIXTURE_FILES.sloshingFluid]: bytesOf(sloshing, 'fluid-0'),
    [FIXTURE_FILES.damBreakBundle]: writeBundle([...damBreak.values()]),
  }
}

/** The Node file functions the fixture script and test use. */
export interface FixtureFileSystem {
  readFileSync(path: URL): Uint8Array
  writeFileSync(path: URL, data: Uint8Array): void
  mkdirSync(path: URL, options: { recursive: true }): unknown
}

/**
 * Node's fs, reached through process.getBuiltinModule (Node ≥ 20.16) so that domain/ neither
 * imports Node nor needs Node's types, which would leak into the browser code's type-check.
 */
export function getFixtureFileSystem(): FixtureFileSystem {
  const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
    .process
  const fileSystem = nodeProcess?.getBuiltinModule?.('node:fs')
  if (!fileSystem) throw new Error('Fixtures are read and written in Node only.')
  return fileSystem as FixtureFileSystem
}
