import { describe, expect, it } from 'vitest'
import type { ExportStatus } from '../../../../../domain/rest/exportRoutes.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import {
  displayedExportState,
  exportOptions,
  hasPreviousExport,
  parseNumberInput,
} from './exportModel.ts'

const object = (
  kind: 'fluid' | 'wall_boundary' | 'volume_clip',
  sourceId: number,
  name: string,
  columns: string[],
) => ({
  objectId: `${kind}-${sourceId}`,
  kind,
  name,
  sourceId,
  columns,
  particleCount: { full: 1, fast: 1 },
  triangleCount: 0,
  sizeBytes: { full: 1, fast: 1 },
})

const output = (outputNo: number, objects: ReturnType<typeof object>[]) => ({
  formatVersion: '1.0',
  simulationId: 1,
  runId: 1,
  outputNo,
  timeS: outputNo,
  objects,
})

function status(state: ExportStatus['state'], files = 0): ExportStatus {
  return {
    id: 1,
    name: 'Exporting files to download',
    state,
    files: Array.from({ length: files }, (_, i) => ({
      id: i,
      filename: `f${i}`,
      state: 'created',
    })),
    warnings: [],
    errors: [],
    progress: 0,
    createdAt: '',
    expiresAt: null,
  }
}

describe('export form model', () => {
  it('offers the materials, boundaries and attributes found in any output, once each', () => {
    const list: OutputManifestList = {
      simulationId: 1,
      runId: 1,
      outputs: [
        output(0, [object('fluid', 0, 'Water', ['vx', 'vy', 'vz', 'pressure'])]),
        output(2, [
          object('fluid', 0, 'Water', ['pressure']),
          object('fluid', 3, 'Oil', ['density']),
          object('wall_boundary', 1, 'Tank', ['pressure']),
          object('volume_clip', 0, 'Clip', []),
        ]),
      ],
    }
    const options = exportOptions(list)
    expect(options.materials).toEqual([
      { id: 0, name: 'Water' },
      { id: 3, name: 'Oil' },
    ])
    expect(options.boundaries).toEqual([{ id: 1, name: 'Tank' }])
    expect(options.attributes.map((a) => a.name)).toEqual(['velocity', 'pressure', 'density'])
    expect(options.context).toEqual({ availableOutputs: [0, 2], fluidMaterialIds: [0, 3] })
    expect(options.lastOutputNo).toBe(2)
  })

  it('reads an empty number field as null and anything else as a number (NaN fails the rules)', () => {
    expect(parseNumberInput('  ')).toBeNull()
    expect(parseNumberInput('12')).toBe(12)
    expect(parseNumberInput('1.5')).toBe(1.5)
    expect(parseNumberInput('abc')).toBeNaN()
  })

  it('shows an expired export as unknown', () => {
    expect(displayedExportState('expired')).toBe('unknown')
    expect(displayedExportState('failed')).toBe('failed')
  })

  it('asks before a new export only when files or work of a previous one would be deleted', () => {
    expect(hasPreviousExport(null)).toBe(false)
    expect(hasPreviousExport(status('running'))).toBe(true)
    expect(hasPreviousExport(status('completed', 2))).toBe(true)
    for (const state of ['failed', 'canceled', 'expired'] as const)
      expect(hasPreviousExport(status(state))).toBe(false)
  })
})
