/**
 * The 3D dam break with an obstacle of SPHERIC Test 2 (Kleefsman et al. 2005, J. Comput. Phys.
 * 206): a tank 3.22 × 1 × 1 m, a water column 1.228 × 1 × 0.55 m against its far end (x from
 * 1.992 m), and a box obstacle 0.161 × 0.403 × 0.161 m on the floor, its face nearest the column
 * at x = 0.8245 m, centred across the tank. Built as the discretizer would (lattice of spacing dp,
 * particles at cell centres, 3 wall layers, the obstacle filled with wall particles), with the
 * product's default settings: the solver sees what a new simulation of this geometry runs.
 * Imports only domain/settings.ts and plain types, so that an older checkout can build it too.
 */
import { defaultSettings } from '../../domain/settings.ts'

export const KLEEFSMAN = {
  tank: [3.22, 1, 1],
  columnMinX: 3.22 - 1.228,
  columnHeight: 0.55,
  obstacleMin: [0.6635, 0.2985, 0],
  obstacleMax: [0.8245, 0.7015, 0.161],
} as const

export const FLUID_PART = 1
export const TANK_PART = 2
export const OBSTACLE_PART = 3
const FLUID = 0
const WALL = 1
const WALL_LAYERS = 3

/** The particle set (fluid part 1, tank part 2, obstacle part 3) at spacing dp. */
export function buildKleefsmanParticles(dp: number): {
  positions: Float64Array
  kinds: Uint8Array
  partIds: Int32Array
  fluidCount: number
} {
  const positions: number[] = []
  const kinds: number[] = []
  const partIds: number[] = []
  const [lx, ly, lz] = KLEEFSMAN.tank
  const cells = [Math.round(lx / dp), Math.round(ly / dp), Math.round(lz / dp)] as const
  const L = WALL_LAYERS
  const { obstacleMin: oMin, obstacleMax: oMax } = KLEEFSMAN
  let fluidCount = 0
  for (let k = -L; k < cells[2]; k++) {
    for (let j = -L; j < cells[1] + L; j++) {
      for (let i = -L; i < cells[0] + L; i++) {
        const inside = i >= 0 && i < cells[0] && j >= 0 && j < cells[1] && k >= 0
        const x = (i + 0.5) * dp
        const y = (j + 0.5) * dp
        const z = (k + 0.5) * dp
        let kind = -1
        let part = 0
        if (!inside) {
          kind = WALL
          part = TANK_PART
        } else if (
          x > oMin[0] &&
          x < oMax[0] &&
          y > oMin[1] &&
          y < oMax[1] &&
          z > oMin[2] &&
          z < oMax[2]
        ) {
          kind = WALL
          part = OBSTACLE_PART
        } else if (x > KLEEFSMAN.columnMinX && z < KLEEFSMAN.columnHeight) {
          kind = FLUID
          part = FLUID_PART
          fluidCount++
        }
        if (kind < 0) continue
        positions.push(x, y, z)
        kinds.push(kind)
        partIds.push(part)
      }
    }
  }
  return {
    positions: Float64Array.from(positions),
    kinds: Uint8Array.from(kinds),
    partIds: Int32Array.from(partIds),
    fluidCount,
  }
}

/**
 * A solver config of the case: the product's default settings at spacing dp, water of density
 * 1000 kg/m³ with `speedOfSound` (the product's default material: 10 m/s today, 100 m/s when
 * issue 12 was filed), hydrostatic start.
 */
export function kleefsmanConfig(
  dp: number,
  speedOfSound: number,
  options: Record<string, unknown> = {},
) {
  const particles = buildKleefsmanParticles(dp)
  return {
    settings: { ...defaultSettings(), particleDiameter: dp, endTime: 1 },
    materials: [{ id: 1, density: 1000, gamma: 7, speedOfSound, kinematicViscosity: 1e-6 }],
    particles: {
      positions: particles.positions,
      kinds: particles.kinds,
      partIds: particles.partIds,
    },
    options: { hydrostaticInitialisation: true, ...options },
  }
}
