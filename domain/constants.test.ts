import { describe, expect, it } from 'vitest'
import {
  BACKOFF,
  CHART_DEFAULT_COLOURS,
  COLOUR_PALETTE,
  COLOUR_SCHEMES,
  CREDIT_PERIODS,
  DEFAULT_COLOUR_SCHEME,
  DEFAULT_CREDIT_PERIOD_DAYS,
  DETAIL_LEVELS,
  HIDDEN_PAGE_DISCONNECT_MS,
  INTERACTION_SUBSET_POINTS,
  LIMIT_CONVERSIONS,
  PLAYBACK,
  POLL_INTERVALS_MS,
  TOAST_DURATION_MS,
  estimatedBudgetHours,
  interactionPointCount,
  outputsPollIntervalMs,
  simulationPollIntervalMs,
} from './constants.ts'
import { SIMULATION_STATES } from './simulationState.ts'

describe('polling', () => {
  it('polls a simulation every 5 s while creating, launching or stopping', () => {
    for (const state of ['creating', 'launching', 'stopping'] as const)
      expect(simulationPollIntervalMs(state)).toBe(5000)
  })

  it('polls a simulation every 60 s in every other state', () => {
    const others = SIMULATION_STATES.filter(
      (s) => s !== 'creating' && s !== 'launching' && s !== 'stopping',
    )
    expect(others).toHaveLength(9)
    for (const state of others) expect(simulationPollIntervalMs(state)).toBe(60_000)
  })

  it('slows the outputs poll from 60 s to 600 s once all outputs are ready', () => {
    expect(outputsPollIntervalMs(false)).toBe(60_000)
    expect(outputsPollIntervalMs(true)).toBe(600_000)
  })

  it('keeps the job polls of the spec', () => {
    expect(POLL_INTERVALS_MS.discretization).toBe(500)
    expect(POLL_INTERVALS_MS.assemblies).toBe(1000)
    expect(POLL_INTERVALS_MS.sensorRecomputation).toBe(2000)
    expect(POLL_INTERVALS_MS.userExport).toBe(5000)
    expect(POLL_INTERVALS_MS.virtualMachines).toBe(10_000)
    expect(POLL_INTERVALS_MS.releaseVersion).toBe(10 * 60_000)
  })
})

describe('timing constants', () => {
  it('closes toasts after 6 s, simulation and release toasts after 10 s', () => {
    expect(TOAST_DURATION_MS).toEqual({ default: 6000, simulation: 10_000, release: 10_000 })
  })

  it('disconnects a hidden page after 300 s', () => {
    expect(HIDDEN_PAGE_DISCONNECT_MS).toBe(300_000)
  })

  it('backs off from 1 s to at most 30 s', () => {
    expect(BACKOFF).toEqual({ initialMs: 1000, maxMs: 30_000 })
  })
})

describe('rendering budget', () => {
  it('draws 10 %, 50 %, 100 % or everything per detail level', () => {
    expect(DETAIL_LEVELS).toEqual({ Low: 0.1, Medium: 0.5, High: 1, All: null })
  })

  it('draws the 100,000-point subset only from 1,000,000 visible points on', () => {
    expect(interactionPointCount(999_999)).toBe(999_999)
    expect(interactionPointCount(1_000_000)).toBe(INTERACTION_SUBSET_POINTS)
    expect(interactionPointCount(5_000_000)).toBe(100_000)
  })

  it('bounds playback speed to 2^-10 … 2048 at 3 frames per second', () => {
    expect(PLAYBACK.minSpeed).toBe(0.0009765625)
    expect(PLAYBACK.maxSpeed).toBe(2048)
    expect(PLAYBACK.framesPerSecond).toBe(3)
    expect(PLAYBACK.targetOutputs).toBe(10)
    expect(PLAYBACK.loop).toBe(true)
  })
})

describe('colours', () => {
  it('offers 7 colour schemes with rainbow as default', () => {
    expect(COLOUR_SCHEMES).toHaveLength(7)
    expect(DEFAULT_COLOUR_SCHEME).toBe('rainbow')
  })

  it('has 5 chart colours and a palette of 12 distinct hex colours', () => {
    expect(CHART_DEFAULT_COLOURS).toEqual(['#2D69B2', '#FFB10F', '#25C189', '#D64265', '#444444'])
    expect(new Set(COLOUR_PALETTE).size).toBe(12)
    for (const colour of COLOUR_PALETTE) expect(colour).toMatch(/^#[0-9A-F]{6}$/)
  })
})

describe('budget', () => {
  it('estimates budget hours as credits ÷ 120', () => {
    expect(estimatedBudgetHours(240)).toBe(2)
    expect(estimatedBudgetHours(60)).toBe(0.5)
  })

  it('estimates no hours for zero, negative or non-finite credits', () => {
    expect(estimatedBudgetHours(0)).toBe(0)
    expect(estimatedBudgetHours(-5)).toBe(0)
    expect(estimatedBudgetHours(Number.NaN)).toBe(0)
    expect(estimatedBudgetHours(Infinity)).toBe(0)
  })

  it('offers the credit periods with the last year as default', () => {
    expect(CREDIT_PERIODS.map((p) => p.days)).toEqual([-1, 365, 91, 30, 7])
    expect(DEFAULT_CREDIT_PERIOD_DAYS).toBe(365)
  })

  it('converts limits: credits and particles 1, time 1000, runtime 1440', () => {
    expect(LIMIT_CONVERSIONS).toEqual({ credits: 1, particle_nbr: 1, time: 1000, runtime: 1440 })
  })
})
