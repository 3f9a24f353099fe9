/** The synthetic tank's walls (particles and a pressure-coloured mesh) and its outflow patch. */
import type { MeshInput } from './objectStream.ts'
import { createPressureModel, WATER_DENSITY, type FlowModel } from './syntheticFlow.ts'

/** The tank's floor and four side walls, one particle layer half a spacing outside the water. */
export function fillWallParticles(flow: FlowModel, spacingM: number): Record<string, Float32Array> {
  const nx = Math.max(1, Math.round(flow.lengthM / spacingM))
  const ny = Math.max(1, Math.round(flow.widthM / spacingM))
  const nz = Math.max(1, Math.round(flow.heightM / spacingM))
  const count = nx * ny + 2 * ny * nz + 2 * nx * nz
  const x = new Float32Array(count)
  const y = new Float32Array(count)
  const z = new Float32Array(count)
  const pressure = new Float32Array(count)
  const pressureModel = createPressureModel(flow)
  const scratch = new Float64Array(3)
  const dx = flow.lengthM / nx
  const dy = flow.widthM / ny
  const dz = flow.heightM / nz
  const half = spacingM / 2
  let row = 0
  const put = (px: number, py: number, pz: number): void => {
    x[row] = px
    y[row] = py
    z[row] = pz
    pressure[row] = pressureModel.pressureAt(px, pz, 0, scratch)
    row++
  }
  for (let i = 0; i < nx; i++)
    for (let j = 0; j < ny; j++) put((i + 0.5) * dx, (j + 0.5) * dy, -half)
  for (const px of [-half, flow.lengthM + half]) {
    for (let j = 0; j < ny; j++)
      for (let k = 0; k < nz; k++) put(px, (j + 0.5) * dy, (k + 0.5) * dz)
  }
  for (const py of [-half, flow.widthM + half]) {
    for (let i = 0; i < nx; i++)
      for (let k = 0; k < nz; k++) put((i + 0.5) * dx, py, (k + 0.5) * dz)
  }
  return { x, y, z, pressure }
}

/**
 * The tank as a triangle mesh (floor and four walls, open top), each face a grid of cells with
 * its own vertices; triangles wind counter-clockwise seen from inside the tank.
 */
export function buildWallMesh(flow: FlowModel, cellsPerEdge: number): MeshInput {
  const cellM = Math.max(flow.lengthM, flow.widthM, flow.heightM) / cellsPerEdge
  const cells = (extentM: number): number => Math.max(1, Math.round(extentM / cellM))
  const { lengthM: L, widthM: W, heightM: H } = flow
  // Each face: origin, two edge vectors (u × v points into the tank).
  const faces: [number[], number[], number[]][] = [
    [
      [0, 0, 0],
      [0, W, 0],
      [L, 0, 0],
    ],
    [
      [0, 0, 0],
      [0, 0, H],
      [0, W, 0],
    ],
    [
      [L, 0, 0],
      [0, W, 0],
      [0, 0, H],
    ],
    [
      [0, 0, 0],
      [L, 0, 0],
      [0, 0, H],
    ],
    [
      [0, W, 0],
      [0, 0, H],
      [L, 0, 0],
    ],
  ]
  const grids = faces.map(([, u, v]) => [cells(Math.hypot(...u)), cells(Math.hypot(...v))])
  const vertexCount = grids.reduce((sum, [m, n]) => sum + (m! + 1) * (n! + 1), 0)
  const triangleCount = grids.reduce((sum, [m, n]) => sum + 2 * m! * n!, 0)
  const x = new Float32Array(vertexCount)
  const y = new Float32Array(vertexCount)
  const z = new Float32Array(vertexCount)
  const pressure = new Float32Array(vertexCount)
  const indices = new Uint32Array(3 * triangleCount)
  const pressureModel = createPressureModel(flow)
  const scratch = new Float64Array(3)
  let vertex = 0
  let index = 0
  faces.forEach(([origin, u, v], face) => {
    const [m, n] = grids[face] as [number, number]
    const first = vertex
    for (let b = 0; b <= n; b++) {
      for (let a = 0; a <= m; a++) {
        const px = origin[0]! + (u[0]! * a) / m + (v[0]! * b) / n
        const py = origin[1]! + (u[1]! * a) / m + (v[1]! * b) / n
        const pz = origin[2]! + (u[2]! * a) / m + (v[2]! * b) / n
        x[vertex] = px
        y[vertex] = py
        z[vertex] = pz
        pressure[vertex] = pressureModel.pressureAt(px, pz, 0, scratch)
        vertex++
      }
    }
    for (let b = 0; b < n; b++) {
      for (let a = 0; a < m; a++) {
        const corner = first + b * (m + 1) + a
        indices.set(
          [corner, corner + 1, corner + m + 2, corner, corner + m + 2, corner + m + 1],
          index,
        )
        index += 6
      }
    }
  })
  return { columns: { x, y, z, pressure }, indices }
}

/** An outflow patch in the far wall, near the floor. */
export function fillOpenBoundary(flow: FlowModel, spacingM: number): Record<string, Float32Array> {
  const ny = Math.max(1, Math.round((0.4 * flow.widthM) / spacingM))
  const nz = Math.max(1, Math.round((0.1 * flow.heightM) / spacingM))
  const count = ny * nz
  const names = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'pressure', 'density', 'mass'] as const
  const columns = Object.fromEntries(names.map((name) => [name, new Float32Array(count)]))
  const pressureModel = createPressureModel(flow)
  const scratch = new Float64Array(3)
  const px = flow.lengthM - spacingM / 2
  columns.mass!.fill(WATER_DENSITY * spacingM ** 3)
  for (let j = 0; j < ny; j++) {
    for (let k = 0; k < nz; k++) {
      const row = j * nz + k
      const py = 0.3 * flow.widthM + (j + 0.5) * spacingM
      const pz = (k + 0.5) * spacingM
      const p = pressureModel.pressureAt(px, pz, 0, scratch)
      columns.x![row] = px
      columns.y![row] = py
      columns.z![row] = pz
      columns.vx![row] = scratch[0]!
      columns.vz![row] = scratch[1]!
      columns.pressure![row] = p
      columns.density![row] = pressureModel.densityOf(p)
    }
  }
  return columns
}
