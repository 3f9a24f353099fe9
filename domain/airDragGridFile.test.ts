import { describe, expect, it } from 'vitest'
import {
  AIR_DRAG_GRID_FILE_BYTES,
  AirDragGridFileError,
  decodeAirDragGridFile,
  encodeAirDragGridFile,
  type AirDragGrid,
} from './airDragGridFile.ts'

const GRID: AirDragGrid = {
  dims: [20, 10, 5],
  kind: 'table',
  min: [-1.5, 0.25, 1e-3],
  cellSize: 0.1,
  velocity: [10, -2.5, 0],
}

describe('air drag grid file', () => {
  it('reads back what it wrote, a velocity that varies as none', () => {
    const bytes = encodeAirDragGridFile(GRID)
    expect(bytes.length).toBe(AIR_DRAG_GRID_FILE_BYTES)
    expect(decodeAirDragGridFile(bytes)).toEqual(GRID)
    const varying = { ...GRID, kind: 'simulation' as const, velocity: null }
    expect(decodeAirDragGridFile(encodeAirDragGridFile(varying))).toEqual(varying)
  })

  it('refuses other files', () => {
    const bytes = encodeAirDragGridFile(GRID)
    expect(() => decodeAirDragGridFile(bytes.slice(0, 40))).toThrow(AirDragGridFileError)
    const wrong = bytes.slice()
    wrong[0] = 0
    expect(() => decodeAirDragGridFile(wrong)).toThrow('Not an air drag grid file.')
    const noCells = encodeAirDragGridFile({ ...GRID, cellSize: 0 })
    expect(() => decodeAirDragGridFile(noCells)).toThrow('no valid cells')
  })
})
