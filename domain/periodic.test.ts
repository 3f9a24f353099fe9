import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  PeriodicBoundaryCreateSchema,
  PeriodicBoundaryUpdateSchema,
  checkPeriodicBoundary,
  dividesFullCircle,
  roundDegrees,
  type PeriodicBoundary,
} from './periodic.ts'

const periodic = (patch: Partial<PeriodicBoundary> = {}): PeriodicBoundary => ({
  id: 1,
  type: 'rotational',
  center: [0, 0, 0],
  axis: [0, 0, 1],
  sliceRotation: 0,
  sliceAngle: 90,
  visibility: true,
  normal: null,
  ...patch,
})
const check = (patch: Partial<PeriodicBoundary>) => checkPeriodicBoundary(periodic(patch))

describe('periodic boundary schemas', () => {
  it('defaults a new boundary to a 90° slice at rotation 0', () => {
    expect(v.parse(PeriodicBoundaryCreateSchema, {})).toMatchObject({
      type: 'rotational',
      sliceAngle: 90,
      sliceRotation: 0,
    })
    expect(v.safeParse(PeriodicBoundaryUpdateSchema, { sliceAngle: 45, extra: true }).success).toBe(
      false,
    )
  })
})

describe('checkPeriodicBoundary', () => {
  it('accepts the default boundary', () => {
    expect(check({})).toEqual([])
  })

  it('accepts the validated slice angles without a warning (npm run validate, rotating sector)', () => {
    for (const sliceAngle of [120, 90, 60, 30, 20]) expect(check({ sliceAngle })).toEqual([])
  })

  it('bounds the slice angle to 1 … 120', () => {
    expect(check({ sliceAngle: 0.5 })[0]?.message).toBe('Slice angle must be at least 1.')
    expect(check({ sliceAngle: 121 })[0]?.message).toBe('Slice angle must be at most 120.')
    expect(check({ sliceAngle: 120 })).toEqual([])
    expect(check({ sliceAngle: null })[0]?.level).toBe('info')
  })

  it('warns below 15°', () => {
    expect(check({ sliceAngle: 10 })).toEqual([
      {
        level: 'warning',
        field: 'periodic.sliceAngle',
        message: 'Slice angle below 15° can cause undesired particle distribution near the center.',
      },
    ])
    expect(check({ sliceAngle: 15 })).toEqual([])
  })

  it('warns when the slice angle does not divide 360° within 0.1°', () => {
    expect(check({ sliceAngle: 50 })).toEqual([
      {
        level: 'warning',
        field: 'periodic.sliceAngle',
        message: 'Slice angle should divide 360° evenly.',
      },
    ])
    expect(dividesFullCircle(72)).toBe(true)
    expect(dividesFullCircle(72.01)).toBe(true)
    expect(dividesFullCircle(72.03)).toBe(false)
    expect(dividesFullCircle(119.97)).toBe(true)
  })

  it('keeps the slice rotation strictly between -360 and 360', () => {
    expect(check({ sliceRotation: 359.9 })).toEqual([])
    expect(check({ sliceRotation: 360 })[0]?.message).toBe(
      'Slice rotation must be smaller than 360.',
    )
    expect(check({ sliceRotation: -360 })[0]?.message).toBe(
      'Slice rotation must be greater than -360.',
    )
  })

  it('needs a non-zero axis', () => {
    expect(check({ axis: [0, 0, 0] })[0]?.message).toBe('Axis length cannot be equal to 0')
  })

  it('rounds degrees to 5 decimals', () => {
    expect(roundDegrees(12.3456789)).toBe(12.34568)
  })
})
