import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  ConditionCreateSchema,
  canEditConditions,
  checkConditionThreshold,
  isConditionMet,
  limitToThreshold,
  thresholdToLimit,
} from './conditions.ts'

const context = { endTime: 10_000, time: 2000, runtime: 30, credits: 5, particle_nbr: 1000 }

describe('condition thresholds', () => {
  it("keeps a time threshold at or below the end time: 'Must be smaller than end time'", () => {
    expect(checkConditionThreshold('time', 10_000, context)).toEqual([])
    expect(checkConditionThreshold('time', 10_001, context)).toEqual([
      { level: 'error', field: 'threshold', message: 'Must be smaller than end time' },
    ])
  })

  it("requires a time threshold above the current time: 'Must be larger than current time'", () => {
    expect(checkConditionThreshold('time', 2001, context)).toEqual([])
    expect(checkConditionThreshold('time', 2000, context)[0]?.message).toBe(
      'Must be larger than current time',
    )
    expect(checkConditionThreshold('time', -1, context)[0]?.message).toBe(
      'Must be larger than current time',
    )
  })

  it('checks the time threshold without an end time', () => {
    expect(checkConditionThreshold('time', 1e9, { ...context, endTime: null })).toEqual([])
  })

  it('requires runtime, credits and particle count above their current value', () => {
    expect(checkConditionThreshold('runtime', 30, context)[0]?.message).toBe(
      'Must be larger than current runtime',
    )
    expect(checkConditionThreshold('credits', 5, context)[0]?.message).toBe(
      'Must be larger than current credits',
    )
    expect(checkConditionThreshold('particle_nbr', 999, context)[0]?.message).toBe(
      'Must be larger than current particle count',
    )
    expect(checkConditionThreshold('runtime', 31, context)).toEqual([])
    expect(checkConditionThreshold('credits', 5.01, context)).toEqual([])
    expect(checkConditionThreshold('particle_nbr', 1001, context)).toEqual([])
  })

  it('counts missing current values as 0 before the run', () => {
    const fresh = { endTime: 5000 }
    expect(checkConditionThreshold('credits', 0, fresh)[0]?.message).toBe(
      'Must be larger than current credits',
    )
    expect(checkConditionThreshold('credits', 0.5, fresh)).toEqual([])
  })

  it('reports an empty or NaN threshold as preliminary info', () => {
    expect(checkConditionThreshold('time', null, context)).toEqual([
      { level: 'info', field: 'threshold', message: 'Threshold is required' },
    ])
    expect(checkConditionThreshold('time', Number.NaN, context)[0]?.level).toBe('info')
    expect(checkConditionThreshold('runtime', Infinity, context)[0]?.level).toBe('info')
  })

  it('requires a whole particle count', () => {
    expect(checkConditionThreshold('particle_nbr', 1500.5, context)[0]?.message).toBe(
      'Threshold must be an integer.',
    )
  })
})

describe('limit conversions', () => {
  it('stores time in ms and runtime in minutes from s and days', () => {
    expect(limitToThreshold('time', 2.5)).toBe(2500)
    expect(limitToThreshold('runtime', 2)).toBe(2880)
    expect(limitToThreshold('credits', 7)).toBe(7)
    expect(limitToThreshold('particle_nbr', 1e6)).toBe(1e6)
  })

  it('converts a threshold back to the entered limit', () => {
    expect(thresholdToLimit('time', 2500)).toBe(2.5)
    expect(thresholdToLimit('runtime', 720)).toBe(0.5)
  })
})

describe('condition entity', () => {
  it('defaults operator, runId and allowInvalidThreshold of a new condition', () => {
    const created = v.parse(ConditionCreateSchema, {
      valueType: 'credits',
      action: 'stop',
      threshold: 100,
    })
    expect(created).toEqual({
      valueType: 'credits',
      action: 'stop',
      threshold: 100,
      operator: '>=',
      allowInvalidThreshold: false,
      runId: -1,
    })
  })

  it('refuses unknown value types and actions', () => {
    const base = { valueType: 'time', action: 'warning', threshold: 1 }
    expect(v.safeParse(ConditionCreateSchema, { ...base, valueType: 'cost' }).success).toBe(false)
    expect(v.safeParse(ConditionCreateSchema, { ...base, action: 'pause' }).success).toBe(false)
    expect(v.safeParse(ConditionCreateSchema, { ...base, threshold: Number.NaN }).success).toBe(
      false,
    )
  })

  it('triggers when the value reaches the threshold', () => {
    expect(isConditionMet({ operator: '>=', threshold: 10 }, 10)).toBe(true)
    expect(isConditionMet({ operator: '>', threshold: 10 }, 10)).toBe(false)
    expect(isConditionMet({ operator: '>=', threshold: 10 }, 9.99)).toBe(false)
    expect(isConditionMet({ operator: '>=', threshold: 10 }, Number.NaN)).toBe(false)
  })

  it('locks alert editing while running', () => {
    expect(canEditConditions('running')).toBe(false)
    expect(canEditConditions('not started')).toBe(true)
    expect(canEditConditions('stopped')).toBe(true)
  })
})
