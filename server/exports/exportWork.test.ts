import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { defaultExportRequest } from '../../domain/results.ts'
import type { OutputManifestInfo } from '../../domain/rest/resultsRoutes.ts'
import { writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import type { SimulationRow } from '../db/schema.ts'
import { runExportWork, type CompletedFile } from './exportWork.ts'

const PARTICLES = 400_000
const SIMULATION = { id: 1, name: 'Big', description: '', settings: '{}' } as SimulationRow

let dataDir: string
let manifests: OutputManifestInfo[]

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'dive-export-work-'))
  manifests = await writeSyntheticRun({
    dataDir,
    simulationId: 1,
    runId: 1,
    outputCount: 2,
    particles: PARTICLES,
  })
}, 120_000)
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const request = {
  ...defaultExportRequest(1, 1),
  materials: [0],
  allAttributes: true,
  outputMode: 'range' as const,
  outputsRange: [0, 1] as [number, number],
}

it('writes large outputs in slices that leave the event loop free for other requests', async () => {
  const directory = join(dataDir, 'exports', 'slices')
  const files: CompletedFile[] = []
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  await runExportWork({
    dataDir,
    simulation: SIMULATION,
    runId: 1,
    manifests,
    request,
    sensors: [],
    directory,
    signal: new AbortController().signal,
    onProgress: () => Promise.resolve(),
    onFile: (file) => {
      files.push(file)
      return Promise.resolve()
    },
  })
  histogram.disable()
  expect(files.map((file) => file.filename)).toEqual(['Fluid_1_000000.vtu', 'Fluid_1_000001.vtu'])
  expect(files[0]!.sizeBytes).toBeGreaterThan(PARTICLES * 40)
  // A whole 400k-particle file written in one go blocks for far longer; slices stay short.
  expect(histogram.max / 1e6).toBeLessThan(250)
})

it('stops at the next slice when aborted and leaves only complete files', async () => {
  const directory = join(dataDir, 'exports', 'aborted')
  const controller = new AbortController()
  const files: CompletedFile[] = []
  const work = runExportWork({
    dataDir,
    simulation: SIMULATION,
    runId: 1,
    manifests,
    request,
    sensors: [],
    directory,
    signal: controller.signal,
    onProgress: () => Promise.resolve(),
    onFile: (file) => {
      files.push(file)
      controller.abort()
      return Promise.resolve()
    },
  })
  await expect(work).rejects.toThrow()
  expect(files).toHaveLength(1)
  expect(readdirSync(directory)).toEqual([files[0]!.filename])
})
