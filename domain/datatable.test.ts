import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  DatatableUpdateSchema,
  checkDatatableHeaders,
  checkDatatableRows,
  datatablePreviewRows,
  datatableRowLimits,
  parseDatatableCsv,
  validateDatatable,
} from './datatable.ts'

describe('datatable row limits', () => {
  it('allows 3 … 100 rows by default and 2 for open-boundary and initial tables', () => {
    expect(datatableRowLimits('default')).toEqual({ minRows: 3, maxRows: 100 })
    expect(datatableRowLimits('openBoundary')).toEqual({ minRows: 2, maxRows: 100 })
    expect(datatableRowLimits('initialDistribution').minRows).toBe(2)
  })

  it('reports too few and too many rows', () => {
    expect(checkDatatableRows('default', 2)[0]?.message).toBe('Table must have at least 3 rows.')
    expect(checkDatatableRows('default', 3)).toEqual([])
    expect(checkDatatableRows('openBoundary', 2)).toEqual([])
    expect(checkDatatableRows('openBoundary', 1)[0]?.message).toBe(
      'Table must have at least 2 rows.',
    )
    expect(checkDatatableRows('default', 100)).toEqual([])
    expect(checkDatatableRows('default', 101)[0]?.message).toBe('Table must have at most 100 rows.')
  })

  it('previews 10 open-boundary rows and 5 otherwise', () => {
    expect(datatablePreviewRows('openBoundary')).toBe(10)
    expect(datatablePreviewRows('default')).toBe(5)
  })
})

describe('checkDatatableHeaders', () => {
  it('accepts the open-boundary columns', () => {
    expect(
      checkDatatableHeaders('openBoundary', [
        'time',
        'pos_x',
        'pos_y',
        'pos_z',
        'prs',
        'vel_x',
        'vel_y',
        'vel_z',
      ]),
    ).toEqual([])
  })

  it('needs positions in an initial distribution; velocity, pressure and temperature are optional', () => {
    expect(checkDatatableHeaders('initialDistribution', ['pos_x', 'pos_y', 'pos_z'])).toEqual([])
    expect(
      checkDatatableHeaders('initialDistribution', ['pos_x', 'pos_y', 'temperature']).map(
        (i) => i.message,
      ),
    ).toEqual(['pos_z column is required'])
  })

  it('names unknown and duplicate headers', () => {
    expect(
      checkDatatableHeaders('initialDistribution', [
        'pos_x',
        'pos_y',
        'pos_z',
        'speed',
        'pos_x',
      ]).map((i) => i.message),
    ).toEqual(['speed is not a known attribute name', 'pos_x appears more than once'])
  })
})

describe('validateDatatable', () => {
  it('accepts a complete table', () => {
    const body = { headers: ['time', 'prs'], table: { time: [0, 1], prs: [1e5, 2e5] } }
    expect(validateDatatable('openBoundary', body)).toEqual({ globalErrors: [], cellErrors: [] })
  })

  it('lists global and cell errors', () => {
    const body = { headers: ['time', 'prs'], table: { time: [0, null], prs: [1] } }
    const result = validateDatatable('openBoundary', body)
    expect(result.globalErrors).toEqual(['All columns must have the same length.'])
    expect(result.cellErrors).toEqual([
      { row: 1, column: 'time', message: 'This field requires a valid number.' },
      { row: 1, column: 'prs', message: 'This field requires a valid number.' },
    ])
  })

  it('refuses unknown fields in the body', () => {
    expect(v.safeParse(DatatableUpdateSchema, { headers: [], table: {}, extra: 1 }).success).toBe(
      false,
    )
  })
})

describe('parseDatatableCsv', () => {
  it('reads headers and numeric columns, comma or semicolon separated', () => {
    expect(parseDatatableCsv('pos_x,pos_y,pos_z\n1,2,3\n4,5,6\n')).toEqual({
      headers: ['pos_x', 'pos_y', 'pos_z'],
      table: { pos_x: [1, 4], pos_y: [2, 5], pos_z: [3, 6] },
    })
    expect(parseDatatableCsv('time;prs\r\n0;1e5').table).toEqual({ time: [0], prs: [100000] })
  })

  it('turns unreadable cells into null', () => {
    expect(parseDatatableCsv('time,prs\n0,abc\n1,').table).toEqual({
      time: [0, 1],
      prs: [null, null],
    })
  })
})
