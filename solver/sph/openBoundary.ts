/**
 * Open boundaries (inlets and outlets): the buffer-zone method of Tafuni et al. 2018 (CMAME 342,
 * "A versatile algorithm for the treatment of open boundary conditions in SPH GPU models", the
 * inlet/outlet buffers of DualSPHysics). Each open-boundary part is a plane with a unit normal n
 * into the fluid; behind it lies a buffer of particles `thickness` deep (at least the support 2h),
 * made by the discretizer. Buffer particles are fluid particles of the solver (kind fluid, so the
 * fluid sees them as neighbours with their own density, pressure and velocity) whose part index is
 * their boundary's; their own forces are discarded (clearForces): they move with the velocity the
 * boundary gives them.
 *
 * - Inflow: velocity imposed (a constant speed along n, or the vector of a table over time,
 *   interpolated linearly); density taken from the fluid.
 * - Outflow: pressure imposed (density from the equation of state); velocity taken from the fluid.
 *
 * "Taken from the fluid": the first-order consistent (corrected) interpolation of
 * openBoundaryExtrapolation.ts at the node h inside the plane in front of the buffer particle,
 * held across the buffer's depth: every particle of a column moves alike, so the buffer stays a
 * lattice. The mirror-image extrapolation of Tafuni et al. (the node at the particle's image,
 * the gradient continued back to it over up to twice the buffer's depth) was tried first: in the
 * channel of validation/openChannel.ts the outlet buffer's back layers, extrapolated over up to
 * 8 dp, ran faster than its front, opened voids at the outlet and sped the channel up by 20-50 %.
 *
 * Each step, before the sort (beforeSort): a buffer particle past the plane (s ≥ 0) becomes fluid;
 * at an inlet a new buffer particle takes its place one thickness behind (same velocity, density,
 * mass), so the mass that enters is exactly the mass of the particles converted. A fluid particle
 * that crosses into a buffer becomes a buffer particle (at an inlet it was shifted or pushed back
 * across the plane: it enters again); one beyond a buffer's back (s < −thickness) leaves the run
 * (its position becomes NaN, and the sort drops it, counted as deleted outside).
 *
 * Particle count: new particles are appended after the last one before the sort, into capacity
 * reserved at the start (openBoundaryReserve); the sort compacts the deleted ones away and deals
 * the new count to the threads. Particle ids of new particles come from a free list of ids not
 * in use, rebuilt (in ascending order) whenever it runs dry, so ids stay below the capacity.
 */
import type { Vec3 } from '../../domain/vector.ts'
import type { SphConstants } from './config.ts'
import { densityFromPressure } from './equationOfState.ts'
import type { GridView } from './grid.ts'
import type { ParticleArrays } from './particles.ts'
import { PARTICLE_KIND } from './particles.ts'
import { extrapolateGhost, GHOST_VALUES } from './openBoundaryExtrapolation.ts'
import type { OpenBoundaryReport, SolverOpenBoundary } from './openBoundaryZone.ts'
import { dot, interpolateProfile, tangents } from './openBoundaryZone.ts'

export type { OpenBoundaryReport, SolverOpenBoundary } from './openBoundaryZone.ts'
export { interpolateProfile, openBoundaryReserve } from './openBoundaryZone.ts'

const FLUID = PARTICLE_KIND.fluid

/** One open boundary with its part indices and the buffer's lateral extent (openZones). */
export interface OpenZone {
  spec: SolverOpenBoundary
  /** Part index of the buffer particles, and of the fluid particles that came through it. */
  bufferIndex: number
  fluidIndex: number
  t1: Vec3
  t2: Vec3
  /** The buffer's extent along t1 and t2 (its particles' range ± dp/2). */
  lateral: [number, number, number, number]
}
type Zone = OpenZone

/**
 * The zones of a run's open boundaries, a second part index per zone appended to `partIds` (the
 * solver's part table: index → part id) for the fluid that entered through it (either backend).
 */
export function openZones(
  zones: readonly SolverOpenBoundary[],
  arrays: Pick<ParticleArrays, 'partIndex' | 'posX' | 'posY' | 'posZ'>,
  count: number,
  dp: number,
  partIds: number[],
): OpenZone[] {
  return zones.map((spec) => {
    let bufferIndex = partIds.indexOf(spec.partId)
    if (bufferIndex < 0) bufferIndex = partIds.push(spec.partId) - 1
    const fluidIndex = partIds.push(spec.partId) - 1
    const [t1, t2] = tangents(spec.normal)
    const lateral: Zone['lateral'] = [Infinity, -Infinity, Infinity, -Infinity]
    for (let i = 0; i < count; i++) {
      if (arrays.partIndex[i] !== bufferIndex) continue
      const r: Vec3 = [
        arrays.posX[i]! - spec.origin[0],
        arrays.posY[i]! - spec.origin[1],
        arrays.posZ[i]! - spec.origin[2],
      ]
      const u = dot(r, t1)
      const w = dot(r, t2)
      lateral[0] = Math.min(lateral[0], u - 0.5 * dp)
      lateral[1] = Math.max(lateral[1], u + 0.5 * dp)
      lateral[2] = Math.min(lateral[2], w - 0.5 * dp)
      lateral[3] = Math.max(lateral[3], w + 0.5 * dp)
    }
    return { spec, bufferIndex, fluidIndex, t1, t2, lateral }
  })
}

/** The open boundaries of a run; null without any (see the module comment). */
export class OpenBoundaries {
  #zones: Zone[] = []
  #arrays: ParticleArrays
  #k: SphConstants
  /** 1 at the part index of every buffer. */
  #bufferPart: Uint8Array
  /** Zone of each part index (−1: none), for buffer and fluid indices alike. */
  #zoneOfBuffer: Int32Array
  /** Buffer particles' indices after the last sort, and their count. */
  #buffers: Int32Array
  #bufferCount = 0
  #freeIds: number[] = []
  #removed = 0
  #inflowMass = 0
  #outflowMass = 0
  #held = new Float64Array(0)

  /**
   * `partIds` is the solver's part table (index → part id) of the prepared particles; a second
   * entry per zone is appended to it for the fluid that entered through the zone.
   */
  constructor(
    zones: readonly SolverOpenBoundary[],
    arrays: ParticleArrays,
    count: number,
    k: SphConstants,
    partIds: number[],
  ) {
    this.#arrays = arrays
    this.#k = k
    this.#zones = openZones(zones, arrays, count, k.particleDiameter, partIds)
    this.#bufferPart = new Uint8Array(partIds.length)
    this.#zoneOfBuffer = new Int32Array(partIds.length).fill(-1)
    this.#zones.forEach((zone, z) => {
      this.#bufferPart[zone.bufferIndex] = 1
      this.#zoneOfBuffer[zone.bufferIndex] = z
    })
    this.#buffers = new Int32Array(Math.max(arrays.capacity, 1))
  }

  /** Mass through the boundaries so far, and the buffer particles now. */
  report(): OpenBoundaryReport {
    return {
      inflowMass: this.#inflowMass,
      outflowMass: this.#outflowMass,
      bufferCount: this.#bufferCount,
    }
  }

  /** Particles that left through a buffer's back since the last call (the sort dropped them). */
  takeRemoved(): number {
    const removed = this.#removed
    this.#removed = 0
    return removed
  }

  /**
   * Moves particles between fluid and buffers, creates inlet particles and marks leaving ones
   * (see the module comment); returns the new count. Call before the sort.
   */
  beforeSort(count: number): number {
    const a = this.#arrays
    const { posX, posY, posZ, kind, partIndex, mass } = a
    const zones = this.#zones
    let n = count
    for (let i = 0; i < count; i++) {
      if (kind[i] !== FLUID) continue
      const x = posX[i]!
      const y = posY[i]!
      const z = posZ[i]!
      const own = this.#zoneOfBuffer[partIndex[i]!]!
      if (own >= 0) {
        const zone = zones[own]!
        const s = this.#depth(zone, x, y, z)
        if (s >= 0) {
          partIndex[i] = zone.fluidIndex
          if (zone.spec.direction === 'inflow') {
            this.#inflowMass += mass[i]!
            n = this.#createBehind(i, n, zone)
          } else this.#outflowMass -= mass[i]!
        } else if (s < -zone.spec.thickness) {
          if (zone.spec.direction === 'inflow') this.#inflowMass -= mass[i]!
          this.#remove(i)
        }
        continue
      }
      for (const zone of zones) {
        if (!this.#inside(zone, x, y, z)) continue
        const s = this.#depth(zone, x, y, z)
        if (s >= 0 || s < -zone.spec.thickness) continue
        // back into the buffer (at an inlet: shifted or pushed back; it enters again)
        partIndex[i] = zone.bufferIndex
        if (zone.spec.direction === 'outflow') this.#outflowMass += mass[i]!
        else this.#inflowMass -= mass[i]!
        break
      }
    }
    return n
  }

  #depth(zone: Zone, x: number, y: number, z: number): number {
    const o = zone.spec.origin
    const nn = zone.spec.normal
    return (x - o[0]) * nn[0] + (y - o[1]) * nn[1] + (z - o[2]) * nn[2]
  }

  #inside(zone: Zone, x: number, y: number, z: number): boolean {
    const o = zone.spec.origin
    const r: Vec3 = [x - o[0], y - o[1], z - o[2]]
    const u = dot(r, zone.t1)
    const w = dot(r, zone.t2)
    const l = zone.lateral
    return u >= l[0] && u <= l[1] && w >= l[2] && w <= l[3]
  }

  #remove(i: number): void {
    this.#arrays.posX[i] = Number.NaN
    this.#removed++
  }

  /** Appends a copy of particle i one buffer thickness behind it, in the zone's buffer. */
  #createBehind(i: number, n: number, zone: Zone): number {
    const a = this.#arrays
    if (n >= a.capacity)
      throw new Error(
        `The open boundaries need more than the ${a.capacity} particles reserved for this run.`,
      )
    const d = zone.spec.thickness
    const nn = zone.spec.normal
    a.posX[n] = a.refX[n] = a.posX[i]! - d * nn[0]
    a.posY[n] = a.refY[n] = a.posY[i]! - d * nn[1]
    a.posZ[n] = a.refZ[n] = a.posZ[i]! - d * nn[2]
    a.velX[n] = a.velX[i]!
    a.velY[n] = a.velY[i]!
    a.velZ[n] = a.velZ[i]!
    a.rho[n] = a.rho[i]!
    a.temp[n] = a.temp[i]!
    a.mass[n] = a.mass[i]!
    a.kind[n] = FLUID
    a.noSlip[n] = a.noSlip[i]!
    a.phase[n] = a.phase[i]!
    a.partIndex[n] = zone.bufferIndex
    a.particleId[n] = this.#nextId(n)
    return n + 1
  }

  /** A particle id not in use among particles [0, n). */
  #nextId(n: number): number {
    if (this.#freeIds.length === 0) {
      const used = new Uint8Array(this.#arrays.capacity)
      const ids = this.#arrays.particleId
      for (let i = 0; i < n; i++) used[ids[i]!] = 1
      for (let id = this.#arrays.capacity - 1; id >= 0; id--) if (!used[id]) this.#freeIds.push(id)
    }
    return this.#freeIds.pop()!
  }

  /**
   * After the sort: lists the buffer particles and gives them the boundary's values at `timeS`
   * (imposed, or extrapolated from the fluid through `grid`, the sort's cells).
   */
  afterSort(timeS: number, count: number, grid: GridView): void {
    const a = this.#arrays
    const { posX, posY, posZ, kind, partIndex, velX, velY, velZ, rho } = a
    const k = this.#k
    const tait = {
      referenceDensity: k.referenceDensity,
      speedOfSound: k.speedOfSound,
      gamma: k.gamma,
    }
    const imposed = this.#zones.map((zone) => interpolateProfile(zone.spec.profile, timeS))
    const out = new Float64Array(GHOST_VALUES)
    let b = 0
    for (let i = 0; i < count; i++) {
      if (kind[i] !== FLUID) continue
      const z = this.#zoneOfBuffer[partIndex[i]!]!
      if (z < 0) continue
      this.#buffers[b++] = i
      const zone = this.#zones[z]!
      const value = imposed[z]!
      const nn = zone.spec.normal
      const x = posX[i]!
      const y = posY[i]!
      const zz = posZ[i]!
      const s = this.#depth(zone, x, y, zz)
      // the node h inside the plane in front of the particle (see the module comment)
      const back = k.h - s
      const node = [x + back * nn[0], y + back * nn[1], zz + back * nn[2]] as const
      const found = extrapolateGhost(a, grid, k, this.#bufferPart, node, node, out)
      if (zone.spec.direction === 'inflow') {
        velX[i] = value.velocity[0]
        velY[i] = value.velocity[1]
        velZ[i] = value.velocity[2]
        rho[i] = found > 0 && out[0]! > 0 ? out[0]! : k.referenceDensity
      } else {
        rho[i] = densityFromPressure(tait, value.pressure)
        if (found > 0) {
          velX[i] = out[1]!
          velY[i] = out[2]!
          velZ[i] = out[3]!
        }
      }
    }
    this.#bufferCount = b
  }

  /** Discards the buffer particles' accelerations and density rates (after each force pass). */
  clearForces(): void {
    const { accX, accY, accZ, drho } = this.#arrays
    const buffers = this.#buffers
    for (let b = 0; b < this.#bufferCount; b++) {
      const i = buffers[b]!
      accX[i] = accY[i] = accZ[i] = drho[i] = 0
    }
  }

  /**
   * Keeps the buffer particles where they are through `body` (the shifting moves fluid particles;
   * a buffer's lattice moves only with its velocity).
   */
  holdPositions(body: () => void): void {
    const { posX, posY, posZ } = this.#arrays
    const buffers = this.#buffers
    const count = this.#bufferCount
    if (this.#held.length < 3 * count) this.#held = new Float64Array(3 * count)
    const held = this.#held
    for (let b = 0; b < count; b++) {
      const i = buffers[b]!
      held[3 * b] = posX[i]!
      held[3 * b + 1] = posY[i]!
      held[3 * b + 2] = posZ[i]!
    }
    body()
    for (let b = 0; b < count; b++) {
      const i = buffers[b]!
      posX[i] = held[3 * b]!
      posY[i] = held[3 * b + 1]!
      posZ[i] = held[3 * b + 2]!
    }
  }

  /** Marks the buffer particles of a snapshot ordered like `partIndexOf` reports them. */
  isBufferPart(index: number): boolean {
    return this.#bufferPart[index] === 1
  }
}

/** The open boundaries of a run (adding to the prepared part table), or null without any. */
export function createOpenBoundaries(
  config: { openBoundaries?: readonly SolverOpenBoundary[] | undefined },
  setup: { arrays: ParticleArrays; count: number; partIds: number[] },
  k: SphConstants,
): OpenBoundaries | null {
  const zones = config.openBoundaries ?? []
  if (zones.length === 0) return null
  return new OpenBoundaries(zones, setup.arrays, setup.count, k, setup.partIds)
}

/** Runs body (the shifting) with the buffer particles held in place (OpenBoundaries.holdPositions). */
export function holdBuffers(open: OpenBoundaries | null, body: () => void): void {
  if (open) open.holdPositions(body)
  else body()
}
