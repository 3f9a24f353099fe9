/**
 * The rotational periodic boundary (the spec's Periodic Boundary, type 'rotational'; issue 16
 * item 7): the run holds one slice of `angle` about an axis through a centre, a sector of a flow
 * that repeats every `angle` around the axis (a rotating tank, a stirred vessel). Two things make
 * the sector behave like the whole:
 *
 * - Wrap: at each sort, a fluid particle that left the slice through one cut face comes back
 *   through the other, its position and velocity turned by the slice angle about the axis
 *   (|u|, the distance to the axis and the angular momentum about it are kept).
 * - Images: a particle (fluid or wall) within reach of a cut face (the support and a margin for
 *   the step's motion) is copied, turned by k·angle, beyond the other face (k = 1 … N − 1 where
 *   N = 360°/angle, those that land within reach of the slice: more than one only near the axis).
 *   Images are ordinary particles of the passes, so every pair loop sees the neighbours across
 *   the cut without a change: before each force pass and at a step's end (refresh) an image
 *   takes its source's turned position and velocity and its density; after the wall pass a wall
 *   image its source's extrapolated pressure, no-slip velocity and normal (refreshWalls); its own
 *   accelerations and density rate are discarded (clearForces). Images are dropped at the next
 *   sort and made again, never written to outputs, and have a part index of their own.
 *
 * Sources are found after the sort through its permutation (the images' old indices follow the
 * real particles'), so the images' order, and a threaded run, is the same as with one thread.
 */
import type { SimulationSettings } from '../../domain/settings.ts'
import type { SolverConfig, SphConstants } from './config.ts'
import type { ParticleArrays } from './particles.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import {
  angleFromBisector,
  distanceToFaces,
  distanceToWedge,
  type Matrix,
  type RotationalSlice,
  rotationMatrix,
  sliceCount,
  turnParticle,
} from './rotationalSlice.ts'

const FLUID = PARTICLE_KIND.fluid

/** The images of a run (see the module comment). */
export class RotationalImages {
  #slice: RotationalSlice
  #arrays: ParticleArrays
  #permutation: () => Int32Array
  /** Part index of every image. */
  readonly imagePart: number
  /** Rotation by k·angle for k = 0 … N − 1. */
  #turns: Matrix[]
  /** Reach of a face: the support and a margin for a step's motion and shift. */
  #reach: number
  /** Images made before the sort: their source's old index and turn, from index #firstImage. */
  #sourceOld = new Int32Array(0)
  #turnOld = new Int32Array(0)
  #firstImage = 0
  /** After the sort: each image's index, its source's index and its turn. */
  #image = new Int32Array(0)
  #source = new Int32Array(0)
  #turn = new Int32Array(0)
  #count = 0
  #fluidImages = 0
  #removed = 0
  #newIndex = new Int32Array(0)

  /**
   * `partIds` is the solver's part table; the images' entry (part id −1) is appended to it.
   * `permutation` gives the sort's permutation (new index → old index).
   */
  constructor(
    slice: RotationalSlice,
    arrays: ParticleArrays,
    support: number,
    partIds: number[],
    permutation: () => Int32Array,
  ) {
    this.#slice = slice
    this.#arrays = arrays
    this.#permutation = permutation
    this.#reach = 1.2 * support
    this.imagePart = partIds.push(-1) - 1
    const n = sliceCount(slice)
    this.#turns = Array.from({ length: n }, (_, k) => rotationMatrix(slice.axis, k * slice.angle))
  }

  /** Images now (after the last sort), and those of them that are fluid. */
  get count(): number {
    return this.#count
  }
  get fluidCount(): number {
    return this.#fluidImages
  }

  /** Images dropped by the last sort (they count as deleted invalid otherwise). */
  takeRemoved(): number {
    const removed = this.#removed
    this.#removed = 0
    return removed
  }

  /**
   * Before the sort: drops the last images (NaN, the sort removes them), wraps the fluid into the
   * slice and appends the new images after particle count − 1; returns the new count.
   */
  beforeSort(count: number): number {
    const a = this.#arrays
    const { partIndex, posX } = a
    const image = this.imagePart
    let removed = 0
    for (let i = 0; i < count; i++)
      if (partIndex[i] === image) {
        posX[i] = Number.NaN
        removed++
      }
    this.#removed = removed
    const slice = this.#slice
    const half = 0.5 * slice.angle
    const reach = this.#reach
    const n = this.#turns.length
    const sources: number[] = []
    const turns: number[] = []
    for (let i = 0; i < count; i++) {
      if (partIndex[i] === image) continue
      let { psi, radius } = angleFromBisector(slice, a.posX[i]!, a.posY[i]!, a.posZ[i]!)
      if (a.kind[i] === FLUID && radius > 0 && !(psi >= -half && psi < half)) {
        const k = Math.floor((psi + half) / slice.angle)
        turnParticle(a, i, rotationMatrix(slice.axis, -k * slice.angle), slice.center)
        ;({ psi, radius } = angleFromBisector(slice, a.posX[i]!, a.posY[i]!, a.posZ[i]!))
      }
      if (distanceToFaces(half, psi, radius) >= reach) continue
      for (let k = 1; k < n; k++) {
        let turned = psi + k * slice.angle
        turned -= 2 * Math.PI * Math.floor((turned + Math.PI) / (2 * Math.PI))
        // an image inside the slice would be a second copy (an angle not dividing 360°)
        if (Math.abs(turned) - half <= 0 && radius > 0) continue
        if (distanceToWedge(half, turned, radius) >= reach) continue
        sources.push(i)
        turns.push(k)
      }
    }
    const total = count + sources.length
    if (total > a.capacity)
      throw new Error(
        `The periodic boundary needs more than the ${a.capacity} particles reserved for this run.`,
      )
    this.#firstImage = count
    this.#sourceOld = Int32Array.from(sources)
    this.#turnOld = Int32Array.from(turns)
    for (let b = 0; b < sources.length; b++) {
      const q = count + b
      const s = sources[b]!
      a.kind[q] = a.kind[s]!
      a.noSlip[q] = a.noSlip[s]!
      a.phase[q] = a.phase[s]!
      a.partIndex[q] = image
      a.particleId[q] = -1
      a.mass[q] = a.mass[s]!
      a.hsml[q] = a.hsml[s]!
      this.#copyState(q, s, this.#turns[turns[b]!]!)
    }
    return total
  }

  /** After the sort: finds each image's index and its source's through the sort's permutation. */
  afterSort(count: number): void {
    const permutation = this.#permutation()
    if (this.#newIndex.length < this.#arrays.capacity)
      this.#newIndex = new Int32Array(this.#arrays.capacity)
    const newIndex = this.#newIndex
    newIndex.fill(-1)
    for (let q = 0; q < count; q++) newIndex[permutation[q]!] = q
    const images = this.#sourceOld.length
    if (this.#image.length < images) {
      this.#image = new Int32Array(images)
      this.#source = new Int32Array(images)
      this.#turn = new Int32Array(images)
    }
    let b = 0
    let fluid = 0
    const first = this.#firstImage
    for (let q = 0; q < count; q++) {
      const old = permutation[q]!
      if (old < first) continue
      const made = old - first
      const source = newIndex[this.#sourceOld[made]!]!
      // a source the sort dropped (not finite): the image stays as it is until the next sort
      this.#image[b] = q
      this.#source[b] = source < 0 ? q : source
      this.#turn[b] = source < 0 ? 0 : this.#turnOld[made]!
      if (this.#arrays.kind[q] === FLUID) fluid++
      b++
    }
    this.#count = b
    this.#fluidImages = fluid
  }

  #copyState(q: number, s: number, m: Matrix): void {
    const a = this.#arrays
    const c = this.#slice.center
    const x = a.posX[s]! - c[0]
    const y = a.posY[s]! - c[1]
    const z = a.posZ[s]! - c[2]
    a.posX[q] = a.refX[q] = c[0] + m[0]! * x + m[1]! * y + m[2]! * z
    a.posY[q] = a.refY[q] = c[1] + m[3]! * x + m[4]! * y + m[5]! * z
    a.posZ[q] = a.refZ[q] = c[2] + m[6]! * x + m[7]! * y + m[8]! * z
    const vx = a.velX[s]!
    const vy = a.velY[s]!
    const vz = a.velZ[s]!
    a.velX[q] = m[0]! * vx + m[1]! * vy + m[2]! * vz
    a.velY[q] = m[3]! * vx + m[4]! * vy + m[5]! * vz
    a.velZ[q] = m[6]! * vx + m[7]! * vy + m[8]! * vz
    a.rho[q] = a.rho[s]!
    a.temp[q] = a.temp[s]!
    if (a.kind[s] !== FLUID) {
      const ax = a.accX[s]!
      const ay = a.accY[s]!
      const az = a.accZ[s]!
      a.accX[q] = m[0]! * ax + m[1]! * ay + m[2]! * az
      a.accY[q] = m[3]! * ax + m[4]! * ay + m[5]! * az
      a.accZ[q] = m[6]! * ax + m[7]! * ay + m[8]! * az
    }
  }

  /** Before a pass: every image takes its source's state, turned (positions, velocities, density). */
  refresh(): void {
    const turns = this.#turns
    for (let b = 0; b < this.#count; b++)
      this.#copyState(this.#image[b]!, this.#source[b]!, turns[this.#turn[b]!]!)
  }

  /**
   * After the wall pass: a wall image takes its source's extrapolated pressure and density, and
   * its no-slip velocity and normal turned (its own extrapolation sees only part of the fluid).
   */
  refreshWalls(riemannWall: boolean): void {
    const a = this.#arrays
    const { packed, press, rho, invRho, viscVX, viscVY, viscVZ } = a
    const turns = this.#turns
    for (let b = 0; b < this.#count; b++) {
      const q = this.#image[b]!
      if (a.kind[q] === FLUID) continue
      const s = this.#source[b]!
      const m = turns[this.#turn[b]!]!
      press[q] = press[s]!
      rho[q] = rho[s]!
      invRho[q] = invRho[s]!
      packed[q * PACK_STRIDE + 6] = packed[s * PACK_STRIDE + 6]!
      packed[q * PACK_STRIDE + 7] = packed[s * PACK_STRIDE + 7]!
      const vx = viscVX[s]!
      const vy = viscVY[s]!
      const vz = viscVZ[s]!
      viscVX[q] = m[0]! * vx + m[1]! * vy + m[2]! * vz
      viscVY[q] = m[3]! * vx + m[4]! * vy + m[5]! * vz
      viscVZ[q] = m[6]! * vx + m[7]! * vy + m[8]! * vz
      if (riemannWall) {
        const nx = a.normalX[s]!
        const ny = a.normalY[s]!
        const nz = a.normalZ[s]!
        a.normalX[q] = m[0]! * nx + m[1]! * ny + m[2]! * nz
        a.normalY[q] = m[3]! * nx + m[4]! * ny + m[5]! * nz
        a.normalZ[q] = m[6]! * nx + m[7]! * ny + m[8]! * nz
      }
    }
  }

  /** Discards the images' accelerations and density rates (after each force pass). */
  clearForces(): void {
    const { accX, accY, accZ, drho, kind } = this.#arrays
    for (let b = 0; b < this.#count; b++) {
      const q = this.#image[b]!
      if (kind[q] !== FLUID) continue
      accX[q] = accY[q] = accZ[q] = drho[q] = 0
    }
  }

  /** True for the images' part index (left out of snapshots). */
  isImagePart(index: number): boolean {
    return index === this.imagePart
  }
}

/**
 * Room for the images (capacity beyond the particles): the particles within reach of a cut face
 * at the start, each with the turns that land near the slice, twice over and a margin, since the
 * fluid near the faces moves.
 */
export function imageReserve(
  slice: RotationalSlice,
  positions: ArrayLike<number>,
  count: number,
  support: number,
): number {
  const half = 0.5 * slice.angle
  const reach = 1.2 * support
  const n = sliceCount(slice)
  let images = 0
  for (let i = 0; i < count; i++) {
    const { psi, radius } = angleFromBisector(
      slice,
      positions[3 * i]!,
      positions[3 * i + 1]!,
      positions[3 * i + 2]!,
    )
    if (distanceToFaces(half, psi, radius) >= reach) continue
    for (let k = 1; k < n; k++) {
      let turned = psi + k * slice.angle
      turned -= 2 * Math.PI * Math.floor((turned + Math.PI) / (2 * Math.PI))
      if (distanceToWedge(half, turned, radius) < reach) images++
    }
  }
  return 2 * images + 256
}

/**
 * What a run with a rotational periodic boundary cannot do, named for the run-start message:
 * physics whose per-particle state the images do not carry yet (multiphase, surface tension,
 * thermodynamics, viscosity models, refinement, open boundaries, air drag), a deletion box (it
 * would delete images), a y-periodic slab, and a flow that is not the same in every slice: gravity
 * across the slice's axis, or a rotating system about another axis.
 */
export function unsupportedWithRotationalPeriodic(
  slice: RotationalSlice,
  settings: Pick<
    SimulationSettings,
    | 'multiphase'
    | 'surfaceTension'
    | 'thermodynamics'
    | 'airDrag'
    | 'calcDomainActive'
    | 'gravity'
    | 'rotatingSystem'
    | 'rotationAxis'
    | 'rotationCenter'
  >,
  run: {
    periodicY?: boolean
    openBoundaries?: boolean
    refinements?: boolean
    viscosityModels?: boolean
  } = {},
): string[] {
  const name = 'periodic boundary'
  const refused: string[] = []
  if (settings.multiphase) refused.push(`${name} with multiphase`)
  if (settings.surfaceTension) refused.push(`${name} with surface tension`)
  if (settings.thermodynamics) refused.push(`${name} with thermodynamics`)
  if (run.viscosityModels) refused.push(`${name} with a temperature or shear-rate viscosity`)
  if (settings.airDrag) refused.push(`${name} with air drag`)
  if (settings.calcDomainActive)
    refused.push(`${name} with the deletion boundary (the slice is the domain)`)
  if (run.periodicY) refused.push(`${name} with periodicY`)
  if (run.openBoundaries) refused.push(`${name} with open boundaries`)
  if (run.refinements) refused.push(`${name} with refinement zones`)
  const a = slice.axis
  const g = settings.gravity.map((c) => c ?? 0)
  const along = g[0]! * a[0] + g[1]! * a[1] + g[2]! * a[2]
  const across = Math.hypot(g[0]! - along * a[0], g[1]! - along * a[1], g[2]! - along * a[2])
  if (across > 1e-9 * Math.max(Math.hypot(...g), 1e-300))
    refused.push(`${name} with gravity across its axis (every slice must see the same flow)`)
  if (settings.rotatingSystem) {
    const r = settings.rotationAxis ?? [null, null, null]
    const c = settings.rotationCenter ?? [null, null, null]
    const rl = Math.hypot(r[0] ?? NaN, r[1] ?? NaN, r[2] ?? NaN)
    const parallel =
      rl > 0 &&
      Math.hypot(
        (r[1]! * a[2] - r[2]! * a[1]) / rl,
        (r[2]! * a[0] - r[0]! * a[2]) / rl,
        (r[0]! * a[1] - r[1]! * a[0]) / rl,
      ) < 1e-9
    const d = [0, 1, 2].map((i) => (c[i] ?? NaN) - slice.center[i]!)
    const dAlong = d[0]! * a[0] + d[1]! * a[1] + d[2]! * a[2]
    const off = Math.hypot(d[0]! - dAlong * a[0], d[1]! - dAlong * a[1], d[2]! - dAlong * a[2])
    if (!parallel || !(off < 1e-9))
      refused.push(`${name} about another axis than the rotating system's`)
  }
  return refused
}

/** What createSolver refuses with the config's rotational periodic boundary (none without one). */
export function rotationalPeriodicRefusals(config: SolverConfig): string[] {
  const slice = config.rotationalPeriodic
  if (!slice) return []
  return unsupportedWithRotationalPeriodic(slice, config.settings, {
    periodicY: Boolean(config.options?.periodicY),
    openBoundaries: (config.openBoundaries ?? []).length > 0,
    refinements: config.particles.spacings !== undefined,
    viscosityModels: config.materials.some((m) => (m.viscosityKind ?? 'constant') !== 'constant'),
  })
}

/** The images of a run with a rotational periodic boundary (adding to its part table), or null. */
export function createRotationalImages(
  config: SolverConfig,
  setup: { arrays: ParticleArrays; partIds: number[] },
  k: SphConstants,
  permutation: () => Int32Array,
): RotationalImages | null {
  const slice = config.rotationalPeriodic
  if (!slice) return null
  return new RotationalImages(slice, setup.arrays, k.support, setup.partIds, permutation)
}
