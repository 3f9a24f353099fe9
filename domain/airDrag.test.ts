import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  AirDragDomainSchema,
  AirDragDomainUpdateSchema,
  MAX_AIR_DRAG_CELLS,
  airDragCellCount,
  checkAirDragDomain,
  defaultAirDragDomain,
  tooManyCellsMessage,
  type AirDragDomain,
} from './airDrag.ts'

const domain = (patch: Partial<AirDragDomain> = {}): AirDragDomain => ({
  ...defaultAirDragDomain(1),
  ...patch,
})
const messages = (d: AirDragDomain, context = {}) =>
  checkAirDragDomain(d, context).map((i) => i.message)
const simulation = (patch: Partial<AirDragDomain> = {}) =>
  domain({ kind: 'simulation', refSimulationId: 4, outputSingle: 0, ...patch })

describe('air drag schemas', () => {
  it('parses the default domain and refuses unknown fields in updates', () => {
    expect(v.safeParse(AirDragDomainSchema, domain()).success).toBe(true)
    expect(v.safeParse(AirDragDomainUpdateSchema, { cellSize: 0.2 }).success).toBe(true)
    expect(v.safeParse(AirDragDomainUpdateSchema, { cells: 5 }).success).toBe(false)
  })
})

describe('checkAirDragDomain', () => {
  it('accepts the default domain', () => {
    expect(checkAirDragDomain(domain())).toEqual([])
  })

  it('needs size components above 0', () => {
    expect(checkAirDragDomain(domain({ size: [1, 0, 1] }))).toEqual([
      { level: 'error', field: 'airDrag.size.1', message: 'Size must be greater than 0.' },
    ])
  })

  it('needs a velocity for kind constant and ignores the cell size there', () => {
    expect(messages(domain({ velocity: null, cellSize: null }))).toEqual(['Velocity is required'])
  })

  it('needs a cell size above 0 unless the kind is constant', () => {
    expect(messages(domain({ kind: 'table', tableId: 1, cellSize: 0 }))).toEqual([
      'Cell size must be greater than 0.',
    ])
  })

  it('counts cells per axis, rounding up', () => {
    expect(airDragCellCount({ size: [1, 1, 1], cellSize: 0.1 })).toBe(1000)
    expect(airDragCellCount({ size: [1.05, 1, 1], cellSize: 0.1 })).toBe(1100)
    expect(airDragCellCount({ size: [1, 1, 1], cellSize: null })).toBeNull()
  })

  it('allows at most 50,000,000 cells', () => {
    const table = { kind: 'table' as const, tableId: 1 }
    // 500 × 500 × 200 = 50,000,000: allowed; one more layer is not.
    expect(checkAirDragDomain(domain({ ...table, size: [50, 50, 20], cellSize: 0.1 }))).toEqual([])
    expect(messages(domain({ ...table, size: [50, 50, 20.1], cellSize: 0.1 }))).toEqual([
      'Total number of cells cannot exceed 50,000,000 (currently 50,250,000)',
    ])
    expect(tooManyCellsMessage(MAX_AIR_DRAG_CELLS + 1)).toContain('(currently 50,000,001)')
  })

  it('needs a velocity table of at least 2 rows for kind table', () => {
    expect(checkAirDragDomain(domain({ kind: 'table' }))[0]).toMatchObject({
      level: 'info',
      field: 'airDrag.tableId',
    })
    expect(messages(domain({ kind: 'table', tableId: 3 }), { tableRowCount: () => 1 })).toEqual([
      'Table must have at least 2 rows.',
    ])
    expect(messages(domain({ kind: 'table', tableId: 3 }), { tableRowCount: () => 2 })).toEqual([])
  })

  it('needs a reference simulation for kind simulation', () => {
    expect(checkAirDragDomain(domain({ kind: 'simulation' }))).toEqual([
      {
        level: 'info',
        field: 'airDrag.refSimulationId',
        message: 'Reference simulation is required',
      },
    ])
  })

  it('needs one output within the reference simulation', () => {
    expect(messages(simulation({ outputSingle: null }))).toEqual(['Output is required'])
    expect(messages(simulation({ outputSingle: 9 }), { referenceOutputCount: 10 })).toEqual([])
    expect(messages(simulation({ outputSingle: 10 }), { referenceOutputCount: 10 })).toEqual([
      'The simulation only has 10 outputs.',
    ])
    expect(messages(simulation({ outputSingle: -1 }))).toEqual(['Output must be at least 0.'])
  })

  it('needs an output range whose end is not before its start', () => {
    const range = (outputStart: number, outputEnd: number) =>
      simulation({ outputRange: true, outputStart, outputEnd })
    expect(messages(range(2, 2))).toEqual([])
    expect(messages(range(3, 2))).toEqual(['The end output must be bigger than the start.'])
    expect(messages(range(0, 12), { referenceOutputCount: 12 })).toEqual([
      'The simulation only has 12 outputs.',
    ])
  })
})
