import { describe, expect, it } from 'vitest'
import { defaultAirDragDomain } from '../../domain/airDrag.ts'
import { defaultSettings } from '../../domain/settings.ts'
import type { RunSetup } from '../setup.ts'
import { airDragGridDims, airDragInputOf, sampleAirDragGrid } from './airDragSetup.ts'

function setupWith(overrides: Partial<RunSetup>): RunSetup {
  return {
    simulationId: 1,
    settings: { ...defaultSettings(), airDrag: true },
    materials: [],
    parts: [],
    movements: [],
    meshes: {},
    ...overrides,
  }
}

describe('the air of an air drag run', () => {
  it('is none with air drag off, and refused without the domain', () => {
    expect(airDragInputOf(setupWith({ settings: defaultSettings() }))).toBeNull()
    expect(airDragInputOf(setupWith({}))).toBe('Air drag needs the air drag domain.')
  })

  it('fills the domain box with one velocity for the kind constant', () => {
    const domain = {
      ...defaultAirDragDomain(3),
      center: [1, 0, 0] as [number, number, number],
      velocity: [2, 0, -1] as [number, number, number],
    }
    expect(airDragInputOf(setupWith({ airDragDomain: domain }))).toEqual({
      min: [0.5, -0.5, -0.5],
      max: [1.5, 0.5, 0.5],
      uniform: { timesS: [0], velocities: [2, 0, -1] },
    })
  })

  it('reads the velocity over time from the table, rows ordered by time', () => {
    const domain = { ...defaultAirDragDomain(3), kind: 'table' as const, tableId: 5 }
    const table = {
      headers: ['time', 'vel_x', 'vel_y', 'vel_z'],
      table: { time: [1, 0, null], vel_x: [4, 0, null], vel_y: [0, 0, null], vel_z: [0, 1, null] },
    }
    const input = airDragInputOf(setupWith({ airDragDomain: domain, datatables: { 5: table } }))
    expect(input).toMatchObject({ uniform: { timesS: [0, 1], velocities: [0, 0, 1, 4, 0, 0] } })
    const short = { ...table, table: { time: [0], vel_x: [1], vel_y: [0], vel_z: [0] } }
    expect(airDragInputOf(setupWith({ airDragDomain: domain, datatables: { 5: short } }))).toBe(
      'The air drag velocity table needs at least 2 rows.',
    )
    expect(airDragInputOf(setupWith({ airDragDomain: domain }))).toBe(
      'The air drag domain needs its velocity table.',
    )
  })

  it("samples the reference simulation's fluid velocities on the grid's cells", () => {
    expect(airDragGridDims([1, 0.5, 0.25], 0.1)).toEqual([10, 5, 3])
    const positions = Float32Array.from([0.05, 0.05, 0.05, 0.06, 0.05, 0.05, 0.15, 0.05, 0.05])
    const velocities = Float32Array.from([1, 0, 0, 3, 0, 0, 0, 5, 0])
    const { timesS, frames } = sampleAirDragGrid(
      [0, 0, 0],
      0.1,
      [2, 1, 1],
      [
        { outputNo: 4, timeS: 0.5, positions, velocities },
        { outputNo: 5, timeS: 0.75, positions, velocities: new Float32Array(9) },
      ],
    )
    expect(timesS).toEqual([0, 0.25])
    expect([...frames]).toEqual([2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0])
    const domain = {
      ...defaultAirDragDomain(3),
      kind: 'simulation' as const,
      refSimulationId: 2,
      outputSingle: 4,
    }
    expect(airDragInputOf(setupWith({ airDragDomain: domain }))).toBe(
      "The air drag domain's reference simulation has no output to take the air from.",
    )
    const input = airDragInputOf(
      setupWith({
        airDragDomain: domain,
        airDragFrames: [{ outputNo: 4, timeS: 0.5, positions, velocities }],
      }),
    )
    expect(input).toMatchObject({ grid: { cellSize: 0.1, dims: [10, 10, 10], timesS: [0] } })
  })
})
