import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  DISCRETIZATION_BLOCKED,
  DiscretizationSchema,
  PROCESS_STATES,
  canDiscretize,
  discretizationToast,
  formatFluidVolume,
  formatVolumeDifference,
  readDiscretizationSummary,
} from './discretization.ts'

describe('discretization', () => {
  it('shares the process states of jobs', () => {
    expect(PROCESS_STATES).toEqual(
      expect.arrayContaining([
        'scheduled',
        'running',
        'done',
        'completed',
        'canceled',
        'failed',
        'unknown',
        'expired',
      ]),
    )
  })

  it('parses a record with per-part messages', () => {
    const record = {
      id: 1,
      simulationId: 2,
      state: 'failed',
      progress: 0.4,
      errors: [{ description: 'Part "Tank" has no volume', partId: 3 }],
      warnings: [],
      summary: null,
      createdAt: 'a',
      updatedAt: 'b',
    }
    expect(v.parse(DiscretizationSchema, record).errors[0]?.partId).toBe(3)
  })

  it('reads the counts of a discretizer summary and nothing else, null when it is not one', () => {
    const stored = {
      particleCount: 120,
      fluidCount: 100,
      wallCount: 20,
      parts: [
        {
          partId: 3,
          name: 'Water',
          role: 'fluid',
          particleCount: 100,
          meshVolume: 1,
          watertight: true,
        },
        { partId: 4, name: 'Tank', role: 'wall', particleCount: 20, wallLayers: 3 },
      ],
      materials: [{ materialId: 0, particleCount: 100, volume: 0.1 }],
      durationMs: 12,
    }
    expect(readDiscretizationSummary(stored)).toEqual({
      particleCount: 120,
      fluidCount: 100,
      wallCount: 20,
      parts: [
        { partId: 3, name: 'Water', role: 'fluid', particleCount: 100 },
        { partId: 4, name: 'Tank', role: 'wall', particleCount: 20 },
      ],
    })
    const withVolumes = {
      ...stored,
      parts: [
        {
          ...stored.parts[0],
          particleVolume: 0.0384,
          geometricVolume: 0.04,
          volumeDifference: -0.04,
          latticeOrigin: [0, 0, 0],
        },
        { ...stored.parts[1], particleVolume: 0.0012, geometricVolume: null },
      ],
      fluidParticleVolume: 0.0384,
      fluidMeshVolume: 0.04,
    }
    expect(readDiscretizationSummary(withVolumes)).toEqual({
      particleCount: 120,
      fluidCount: 100,
      wallCount: 20,
      parts: [
        {
          partId: 3,
          name: 'Water',
          role: 'fluid',
          particleCount: 100,
          particleVolume: 0.0384,
          geometricVolume: 0.04,
          volumeDifference: -0.04,
        },
        {
          partId: 4,
          name: 'Tank',
          role: 'wall',
          particleCount: 20,
          particleVolume: 0.0012,
          geometricVolume: null,
        },
      ],
      fluidParticleVolume: 0.0384,
      fluidMeshVolume: 0.04,
    })
    expect(readDiscretizationSummary({ fluidParticles: 80 })).toBeNull()
    expect(readDiscretizationSummary(null)).toBeNull()
  })

  it('writes fluid volumes in litres or cubic metres and differences with their sign', () => {
    expect(formatFluidVolume(0.0384)).toBe('38.4 L')
    expect(formatFluidVolume(0.000125)).toBe('0.125 L')
    expect(formatFluidVolume(2.7512)).toBe('2.75 m³')
    expect(formatVolumeDifference(-0.04155)).toBe('−4.2 %')
    expect(formatVolumeDifference(0.0001)).toBe('0 %')
    expect(formatVolumeDifference(0.124)).toBe('+12.4 %')
  })

  it('is blocked by errors and info items, not by warnings', () => {
    expect(canDiscretize([{ level: 'warning', field: 'x', message: 'm' }])).toBe(true)
    expect(canDiscretize([{ level: 'info', field: 'x', message: 'm' }])).toBe(false)
    expect(canDiscretize([{ level: 'error', field: 'x', message: 'm' }])).toBe(false)
    expect(DISCRETIZATION_BLOCKED).toEqual({
      title: 'Discretization failed',
      text: 'There are errors in your setup. Please check the Input Validation bar.',
    })
  })

  it('toasts the first error of a failed run and the first warning of a finished one', () => {
    const errors = [{ description: 'first' }, { description: 'second' }]
    expect(discretizationToast({ state: 'failed', errors, warnings: [] })).toEqual({
      level: 'error',
      title: 'Discretization failed',
      text: 'first',
    })
    expect(
      discretizationToast({ state: 'done', errors: [], warnings: [{ description: 'w' }] }),
    ).toEqual({
      level: 'warning',
      title: 'Discretization warning',
      text: 'w',
    })
    expect(
      discretizationToast({ state: 'running', errors: [], warnings: [{ description: 'w' }] }),
    ).toBeNull()
    expect(discretizationToast({ state: 'done', errors: [], warnings: [] })).toBeNull()
  })
})
