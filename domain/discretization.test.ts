import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  DISCRETIZATION_BLOCKED,
  DiscretizationSchema,
  PROCESS_STATES,
  canDiscretize,
  discretizationToast,
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
    expect(readDiscretizationSummary({ fluidParticles: 80 })).toBeNull()
    expect(readDiscretizationSummary(null)).toBeNull()
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
