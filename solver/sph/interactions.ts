/**
 * The per-step passes over particles, each run on a contiguous range of sorted cells so that
 * threads can share them: equation of state, generalized-wall extrapolation, forces.
 *
 * The loops are written for speed: typed arrays in locals, constants hoisted, no allocation, no
 * closures, and every particle only writes its own entries (a gather over the full 27-cell
 * stencil). That makes a threaded pass produce exactly the numbers of the single-threaded one.
 */
import type { SphConstants } from './config.ts'
import { BOUNDARY_CODE, KERNEL_CODE } from './config.ts'
import type { GridView } from './grid.ts'
import { GRID_PARAM } from './grid.ts'
import type { ParticleArrays } from './particles.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'

// Imported constants copied into module bindings: inside hot loops an imported binding may be a
// getter (test runners rewrite imports into module objects).
const STRIDE = PACK_STRIDE
const P_NX = GRID_PARAM.nx
const P_NY = GRID_PARAM.ny
const P_NZ = GRID_PARAM.nz
const P_REACH = GRID_PARAM.reach

/** Stencil rows of a cell at the largest reach (3): 7 × 7. */
const MAX_STENCIL_ROWS = 49

/** Per-thread results of a force pass (Float64Array slots of STAT_STRIDE values). */
export const STAT = { maxAcceleration2: 0, maxViscous: 1, interactions: 2, checksum: 3 } as const
export const STAT_STRIDE = 4

export interface InteractionContext {
  arrays: ParticleArrays
  grid: GridView
  constants: SphConstants
  /** STAT_STRIDE values per thread. */
  stats: Float64Array
  /** Scratch for the stencil rows of a cell (at most MAX_STENCIL_ROWS). */
  rowBegin: Int32Array
  rowEnd: Int32Array
}

export function createInteractionContext(
  arrays: ParticleArrays,
  grid: GridView,
  constants: SphConstants,
  stats: Float64Array,
): InteractionContext {
  return {
    arrays,
    grid,
    constants,
    stats,
    rowBegin: new Int32Array(MAX_STENCIL_ROWS),
    rowEnd: new Int32Array(MAX_STENCIL_ROWS),
  }
}

/**
 * Fills the particle ranges of the stencil rows around cell c ((2·reach + 1)², fewer at the
 * grid's edges and for empty rows); returns how many. With `fluidOnly` (callers that only sum
 * over fluid neighbours), only rows holding fluid, and 0 when no cell of the stencil does.
 */
function fillStencilRows(ctx: InteractionContext, c: number, fluidOnly: boolean): number {
  const p = ctx.grid.params
  const cellStart = ctx.grid.cellStart
  const fluidBefore = ctx.grid.fluidBefore
  const nx = p[P_NX]!
  const ny = p[P_NY]!
  const nz = p[P_NZ]!
  const reach = p[P_REACH]!
  const cx = c % nx
  const cyz = (c - cx) / nx
  const cy = cyz % ny
  const cz = (cyz - cy) / ny
  const x0 = cx > reach ? cx - reach : 0
  const x1 = cx < nx - 1 - reach ? cx + reach : nx - 1
  const z0 = cz > reach ? cz - reach : 0
  const z1 = cz < nz - 1 - reach ? cz + reach : nz - 1
  const y0 = cy > reach ? cy - reach : 0
  const y1 = cy < ny - 1 - reach ? cy + reach : ny - 1
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  let rows = 0
  let fluid = 0
  for (let z = z0; z <= z1; z++) {
    for (let y = y0; y <= y1; y++) {
      const row = nx * (y + ny * z)
      const begin = cellStart[row + x0]!
      const end = cellStart[row + x1 + 1]!
      if (end > begin) {
        if (fluidOnly) {
          // rows without fluid add nothing to a sum over fluid neighbours: leave them out
          const rowFluid = fluidBefore[row + x1 + 1]! - fluidBefore[row + x0]!
          if (rowFluid === 0) continue
          fluid += rowFluid
        }
        rowBegin[rows] = begin
        rowEnd[rows] = end
        rows++
      }
    }
  }
  return fluidOnly && fluid === 0 ? 0 : rows
}

/**
 * Tait pressure and 1/ρ for fluid particles (and dynamic boundary walls) in a particle index range,
 * and the neighbour records (see PACK) of every particle in the range. Generalized-wall records
 * get their position, velocity and sign here (the sort moved them), their pressure and density in
 * extrapolateWalls.
 */
export function computePressures(ctx: InteractionContext, begin: number, end: number): void {
  const { posX, posY, posZ, velX, velY, velZ, rho, press, invRho, kind, packed } = ctx.arrays
  const k = ctx.constants
  const rho0 = k.referenceDensity
  const invRho0 = 1 / rho0
  const stiffness = k.stiffness
  const gamma = k.gamma
  const walls = k.boundaryCode === BOUNDARY_CODE.dynamic
  const FLUID = PARTICLE_KIND.fluid
  for (let i = begin; i < end; i++) {
    const fluid = kind[i] === FLUID
    const o = i * STRIDE
    packed[o] = posX[i]!
    packed[o + 1] = posY[i]!
    packed[o + 2] = posZ[i]!
    packed[o + 3] = velX[i]!
    packed[o + 4] = velY[i]!
    packed[o + 5] = velZ[i]!
    if (!fluid && !walls) {
      packed[o + 6] = 0
      packed[o + 7] = -1 / rho0
      continue
    }
    const density = rho[i]!
    const ratio = density * invRho0
    let power: number
    if (gamma === 7) {
      const r2 = ratio * ratio
      power = r2 * r2 * r2 * ratio
    } else {
      power = Math.pow(ratio, gamma)
    }
    const p = stiffness * (power - 1)
    const inv = 1 / density
    press[i] = p
    invRho[i] = inv
    packed[o + 6] = p
    packed[o + 7] = fluid ? inv : -inv
  }
}

/**
 * Generalized wall boundary (Adami, Hu & Adams 2012): each wall particle takes the pressure
 * extrapolated from its fluid neighbours, p_w = max(0, (Σ p_f W + (g − a_w)·Σ ρ_f r_wf W) / Σ W), the
 * density from the inverse equation of state, and for no-slip the velocity 2 v_w − ṽ_f used by
 * the viscous terms. Wall accelerations a_w are in accX..accZ.
 */
export function extrapolateWalls(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
): void {
  const a = ctx.arrays
  const { posX, posY, posZ, velX, velY, velZ, rho, press, invRho, kind, accX, accY, accZ, packed } =
    a
  const { viscVX, viscVY, viscVZ, normalX, normalY, normalZ } = a
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const k = ctx.constants
  const riemann = k.riemannWall === 1
  const support2 = k.support2
  const h = k.h
  const invH = 1 / h
  const alpha = k.kernelAlpha
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const [gx, gy, gz] = k.gravity
  const rho0 = k.referenceDensity
  const invStiffness = 1 / k.stiffness
  const invGamma = 1 / k.gamma
  const densityMin = k.densityMin
  const densityMax = k.densityMax
  const FLUID = PARTICLE_KIND.fluid
  const dryGeneration = ctx.grid.dryGeneration
  const generation = ctx.grid.params[GRID_PARAM.generation]!
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    // no fluid around: its walls were set to p = 0, ρ0 in this sort's first pass
    if (pBegin === pEnd || dryGeneration[c] === generation) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      if (kind[i] === FLUID) continue
      if (rows < 0) {
        rows = fillStencilRows(ctx, c, true)
        if (rows === 0) dryGeneration[c] = generation
      }
      const xi = posX[i]!
      const yi = posY[i]!
      const zi = posZ[i]!
      let sumW = 0
      let sumP = 0
      let sumRx = 0
      let sumRy = 0
      let sumRz = 0
      let sumVx = 0
      let sumVy = 0
      let sumVz = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          // fluid records have 1/ρ > 0; wall records (being rewritten in this pass) stay < 0
          if (!(packed[o + 7]! > 0)) continue
          const dx = xi - packed[o]!
          const dy = yi - packed[o + 1]!
          const dz = zi - packed[o + 2]!
          const r2 = dx * dx + dy * dy + dz * dz
          if (r2 >= support2) continue
          const q = Math.sqrt(r2) * invH
          let w: number
          if (wendland) {
            const t = 1 - 0.5 * q
            const t2 = t * t
            w = alpha * t2 * t2 * (2 * q + 1)
          } else if (q < 1) {
            w = alpha * (1 - 1.5 * q * q + 0.75 * q * q * q)
          } else {
            const t = 2 - q
            w = alpha * 0.25 * t * t * t
          }
          sumW += w
          sumP += packed[o + 6]! * w
          const rw = rho[j]! * w
          sumRx += rw * dx
          sumRy += rw * dy
          sumRz += rw * dz
          sumVx += packed[o + 3]! * w
          sumVy += packed[o + 4]! * w
          sumVz += packed[o + 5]! * w
        }
      }
      if (sumW > 0) {
        const invW = 1 / sumW
        let p =
          (sumP + (gx - accX[i]!) * sumRx + (gy - accY[i]!) * sumRy + (gz - accZ[i]!) * sumRz) *
          invW
        // never below zero, so that a wall cannot pull fluid in (DualSPHysics keeps its boundary
        // density at or above ρ0 for the same reason)
        if (p < 0) p = 0
        const ratio = p * invStiffness + 1
        let density = rho0 * Math.pow(ratio, invGamma)
        if (density < densityMin) density = densityMin
        else if (density > densityMax) density = densityMax
        press[i] = p
        rho[i] = density
        invRho[i] = 1 / density
        viscVX[i] = 2 * velX[i]! - sumVx * invW
        viscVY[i] = 2 * velY[i]! - sumVy * invW
        viscVZ[i] = 2 * velZ[i]! - sumVz * invW
        if (riemann) {
          // Σ ρ_f W (r_w − r_f) points from the fluid into the wall: its opposite is the normal
          const length = Math.sqrt(sumRx * sumRx + sumRy * sumRy + sumRz * sumRz)
          const inv = length > 0 ? -1 / length : 0
          normalX[i] = sumRx * inv
          normalY[i] = sumRy * inv
          normalZ[i] = sumRz * inv
        }
      } else {
        press[i] = 0
        rho[i] = rho0
        invRho[i] = 1 / rho0
        viscVX[i] = velX[i]!
        viscVY[i] = velY[i]!
        viscVZ[i] = velZ[i]!
        if (riemann) normalX[i] = normalY[i] = normalZ[i] = 0
      }
      const o = i * STRIDE
      packed[o + 6] = press[i]!
      packed[o + 7] = -invRho[i]!
    }
  }
}

/**
 * Momentum and continuity for the fluid particles of a cell range (and the continuity of dynamic
 * boundary walls). Writes accX..accZ (gravity included) and drho; records the largest |a|², the
 * largest viscous rate h|v·r|/(r² + η²) and the count of pair interactions in the thread's slot.
 *
Momentum (m: the common particle mass, u: the viscous velocity difference):
 *   a_i = −m Σ (p_i + p_j)/(ρ_iρ_j) ∇W + m Σ α c0 μ_ij (1/ρ_i + 1/ρ_j)/2 ∇W   (μ_ij = h v·r/(r²+η²) < 0)
 *         + ν m Σ (1/ρ_i + 1/ρ_j) (r·∇W)/(r²+η²) u_ij + g   (Morris laminar viscosity)
 * Continuity:
 *   dρ_i/dt = ρ_i m Σ v_ij·∇W/ρ_j + 2δhc0 m Σ (ρ_j − ρ_i + ρ0 g·r_ij/c0²) (−r·∇W)/((r²+η²)ρ_j)
 * The last term is Fourtakas' hydrostatic correction (linearised; omitted for Molteni–Colagrossi),
 * applied between fluid particles only. The mean 1/ρ̄ of the artificial viscosity is the mean of
 * 1/ρ (not 2/(ρ_i+ρ_j)): equal to second order in the density variation, and free of divisions.
 */
export function computeForces(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  slot: number,
): void {
  const a = ctx.arrays
  const { packed, rho, kind, noSlip, viscVX, viscVY, viscVZ, accX, accY, accZ, drho } = a
  const { normalX, normalY, normalZ } = a
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const k = ctx.constants
  const support2 = k.support2
  const h = k.h
  const invH = 1 / h
  const eta2 = k.eta2
  const m = k.particleMass
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const [gx, gy, gz] = k.gravity
  // α c0 m/2 · min(μ, 0) = α c0 m/4 · (μ − |μ|): branch-free, the sign of v·r is unpredictable
  const quarterAlphaC0M = 0.25 * k.alpha * k.speedOfSound * m
  const nuM = k.nu * m
  const diffusionCoefficient = k.diffusionCoefficient * m
  const [kx, ky, kz] = k.hydrostaticDensityGradient
  const dynamicWalls = k.boundaryCode === BOUNDARY_CODE.dynamic
  const riemann = k.riemannWall === 1
  const c0 = k.speedOfSound
  const FLUID = PARTICLE_KIND.fluid
  const MIN_R2 = 1e-24 * support2
  // read every property before the loops: named accesses first reached after an on-stack
  // replacement have no type feedback and would deoptimise the function on every call
  const stats = ctx.stats
  const base = slot * STAT_STRIDE
  let interactions = 0
  let maxAcceleration2 = 0
  let maxViscous = 0
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    if (pBegin === pEnd) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      const fluid = kind[i] === FLUID
      if (!fluid && !dynamicWalls) continue
      if (rows < 0) rows = fillStencilRows(ctx, c, !fluid)
      const oi = i * STRIDE
      const xi = packed[oi]!
      const yi = packed[oi + 1]!
      const zi = packed[oi + 2]!
      const vxi = packed[oi + 3]!
      const vyi = packed[oi + 4]!
      const vzi = packed[oi + 5]!
      const pi = packed[oi + 6]!
      const rhoi = rho[i]!
      if (!fluid) {
        // dynamic boundary particle: continuity from fluid neighbours only
        let arp = 0
        for (let r = 0; r < rows; r++) {
          const jEnd = rowEnd[r]!
          for (let j = rowBegin[r]!; j < jEnd; j++) {
            const o = j * STRIDE
            const dx = xi - packed[o]!
            const dy = yi - packed[o + 1]!
            const dz = zi - packed[o + 2]!
            const r2 = dx * dx + dy * dy + dz * dz
            const invRhoj = packed[o + 7]!
            if (r2 >= support2 || invRhoj < 0) continue
            interactions++
            const rr = Math.sqrt(r2)
            let f: number
            if (wendland) {
              const t = 1 - 0.5 * rr * invH
              f = gradFactor * t * t * t
            } else {
              const q = rr * invH
              if (q < 1) f = gradFactor * (-3 + 2.25 * q)
              else {
                const t = 2 - q
                f = (gradFactor * (-0.75 * t * t)) / q
              }
            }
            arp +=
              invRhoj *
              f *
              ((vxi - packed[o + 3]!) * dx +
                (vyi - packed[o + 4]!) * dy +
                (vzi - packed[o + 5]!) * dz)
          }
        }
        drho[i] = rhoi * m * arp
        continue
      }
      const invRhoi = 1 / rhoi
      const pOverRhoi = pi * invRhoi
      let ax = 0
      let ay = 0
      let az = 0
      let lx = 0
      let ly = 0
      let lz = 0
      let arp = 0
      let diff = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          const dx = xi - packed[o]!
          const dy = yi - packed[o + 1]!
          const dz = zi - packed[o + 2]!
          const r2 = dx * dx + dy * dy + dz * dz
          if (r2 >= support2 || r2 < MIN_R2) continue
          interactions++
          const rr = Math.sqrt(r2)
          let f: number
          if (wendland) {
            const t = 1 - 0.5 * rr * invH
            f = gradFactor * t * t * t
          } else {
            const q = rr * invH
            if (q < 1) f = gradFactor * (-3 + 2.25 * q)
            else {
              const t = 2 - q
              f = (gradFactor * (-0.75 * t * t)) / q
            }
          }
          const dvx = vxi - packed[o + 3]!
          const dvy = vyi - packed[o + 4]!
          const dvz = vzi - packed[o + 5]!
          let pj = packed[o + 6]!
          let invRhoj = packed[o + 7]!
          const invR2 = 1 / (r2 + eta2)
          const fr = f * r2 * invR2
          let ux = dvx
          let uy = dvy
          let uz = dvz
          let viscous = 1
          if (invRhoj > 0) {
            // (ρ_j − ρ_i + ρ0 g·r_ij/c0²)/ρ_j
            diff += (1 - (rhoi - kx * dx - ky * dy - kz * dz) * invRhoj) * fr
          } else {
            invRhoj = -invRhoj
            if (riemann) {
              // one-sided Riemann problem along the wall normal n (towards the fluid), mirrored
              // state u_R = −u_L: 2P* = p_i + p_w + 2ρ_i β U with U the approach speed and Zhang
              // et al.'s (2017) low-dissipation limiter β = min(3 (u_L − u_R), c0)
              const approach = -(dvx * normalX[j]! + dvy * normalY[j]! + dvz * normalZ[j]!)
              if (approach > 0) {
                const beta = 6 * approach < c0 ? 6 * approach : c0
                pj += 2 * rhoi * beta * approach
              }
            }
            if (noSlip[j] === 0) viscous = 0
            else {
              ux = vxi - viscVX[j]!
              uy = vyi - viscVY[j]!
              uz = vzi - viscVZ[j]!
            }
          }
          const fj = f * invRhoj
          arp += fj * (dvx * dx + dvy * dy + dvz * dz)
          const vdotr = (ux * dx + uy * dy + uz * dz) * viscous
          const mu = h * vdotr * invR2
          const muAbs = Math.abs(mu)
          const sumInvRho = invRhoi + invRhoj
          // −m (p_i + p_j)/(ρ_iρ_j) + artificial viscosity, times f below
          const coef =
            -m * (pOverRhoi + pj * invRhoi) * invRhoj + quarterAlphaC0M * (mu - muAbs) * sumInvRho
          const lam = nuM * sumInvRho * fr * viscous
          lx += lam * ux
          ly += lam * uy
          lz += lam * uz
          if (muAbs > maxViscous) maxViscous = muAbs
          const cf = coef * f
          ax += cf * dx
          ay += cf * dy
          az += cf * dz
        }
      }
      const aix = ax + lx + gx
      const aiy = ay + ly + gy
      const aiz = az + lz + gz
      accX[i] = aix
      accY[i] = aiy
      accZ[i] = aiz
      drho[i] = rhoi * m * arp - diffusionCoefficient * diff
      const a2 = aix * aix + aiy * aiy + aiz * aiz
      if (a2 > maxAcceleration2) maxAcceleration2 = a2
    }
  }
  stats[base + STAT.maxAcceleration2] = maxAcceleration2
  stats[base + STAT.maxViscous] = maxViscous
  stats[base + STAT.interactions] = interactions
}

/**
 * A plain reference loop over the same pairs as computeForces with a trivial kernel (it sums r²),
 * to measure how close the force loop is to the cost of visiting the neighbours at all.
 */
export function runReferencePass(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  slot: number,
): void {
  const { packed, kind, accX } = ctx.arrays
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const k = ctx.constants
  const support2 = k.support2
  const MIN_R2 = 1e-24 * support2
  const FLUID = PARTICLE_KIND.fluid
  const stats = ctx.stats
  const base = slot * STAT_STRIDE
  let interactions = 0
  let checksum = 0
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    if (pBegin === pEnd) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      if (kind[i] !== FLUID) continue
      if (rows < 0) rows = fillStencilRows(ctx, c, false)
      const oi = i * STRIDE
      const xi = packed[oi]!
      const yi = packed[oi + 1]!
      const zi = packed[oi + 2]!
      let sum = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          const dx = xi - packed[o]!
          const dy = yi - packed[o + 1]!
          const dz = zi - packed[o + 2]!
          const r2 = dx * dx + dy * dy + dz * dz
          if (r2 >= support2 || r2 < MIN_R2) continue
          interactions++
          sum += r2
        }
      }
      accX[i] = sum
      checksum += sum
    }
  }
  stats[base + STAT.interactions] = interactions
  stats[base + STAT.checksum] = checksum
}

/** Free-surface thresholds of the shifting on ∇·r (3 inside the fluid, in 3D). */
export const SHIFT_NEAR_SURFACE_DIVERGENCE = 2.75
export const SHIFT_SPLASH_DIVERGENCE = 1.5
/** Tensile-instability term 1 + R (W/W(dp))ⁿ of the shifting (Sun et al. 2017: R = 0.2, n = 4). */
const SHIFT_R = 0.2
/** Largest shift per step, in particle diameters. */
export const SHIFT_MAX_DP = 0.1

/**
 * Particle shifting on the fluid particles of a cell range, after a step, from the positions and
 * volumes in the neighbour records (computePressures ran on the new positions):
 *   δr_i = −scale · Σ_j V_j (1 + R (W_ij/W(dp))⁴) ∇W_ij,   scale = 4 h U_max dt
 * (Sun et al. 2017's −CFL·Ma·(2h)² with the step's own Courant number dt c0/h and Ma = U_max/c0).
 * ∇·r = −Σ V_j r_ij·∇W_ij tells the free surface apart and n = −Σ V_j ∇W_ij / |…| is its normal:
 * near the surface (∇·r < 2.75) sun17 keeps the tangential part of δr; lyu21 also keeps an
 * inward normal part (δr·n < 0, it fills voids behind the surface, never pushes particles out)
 * and does not shift splashes (∇·r < 1.5). |δr| ≤ 0.1 dp. Writes posX..posZ of its own particles
 * only; reads the records, so threads can share it.
 */
export function shiftParticles(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  scale: number,
): void {
  const { packed, kind, posX, posY, posZ } = ctx.arrays
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const k = ctx.constants
  const support2 = k.support2
  const invH = 1 / k.h
  const alpha = k.kernelAlpha
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const m = k.particleMass
  const invWdp = 1 / k.kernelAtDp
  const lyu = k.shiftingCode === 2
  const maxShift = SHIFT_MAX_DP * k.particleDiameter
  const maxShift2 = maxShift * maxShift
  const FLUID = PARTICLE_KIND.fluid
  const MIN_R2 = 1e-24 * support2
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    if (pBegin === pEnd) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      if (kind[i] !== FLUID) continue
      if (rows < 0) rows = fillStencilRows(ctx, c, false)
      const oi = i * STRIDE
      const xi = packed[oi]!
      const yi = packed[oi + 1]!
      const zi = packed[oi + 2]!
      let gx = 0
      let gy = 0
      let gz = 0
      let sx = 0
      let sy = 0
      let sz = 0
      let divergence = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          const dx = xi - packed[o]!
          const dy = yi - packed[o + 1]!
          const dz = zi - packed[o + 2]!
          const r2 = dx * dx + dy * dy + dz * dz
          if (r2 >= support2 || r2 < MIN_R2) continue
          const q = Math.sqrt(r2) * invH
          let w: number
          let f: number
          if (wendland) {
            const t = 1 - 0.5 * q
            const t3 = t * t * t
            w = alpha * t3 * t * (2 * q + 1)
            f = gradFactor * t3
          } else if (q < 1) {
            w = alpha * (1 - 1.5 * q * q + 0.75 * q * q * q)
            f = gradFactor * (-3 + 2.25 * q)
          } else {
            const t = 2 - q
            w = alpha * 0.25 * t * t * t
            f = (gradFactor * (-0.75 * t * t)) / q
          }
          const invRhoj = packed[o + 7]!
          const vf = m * (invRhoj < 0 ? -invRhoj : invRhoj) * f
          gx += vf * dx
          gy += vf * dy
          gz += vf * dz
          const ratio = w * invWdp
          const r4 = ratio * ratio * ratio * ratio
          const tensile = vf * (1 + SHIFT_R * r4)
          sx += tensile * dx
          sy += tensile * dy
          sz += tensile * dz
          divergence -= vf * r2
        }
      }
      if (lyu && divergence < SHIFT_SPLASH_DIVERGENCE) continue
      let ddx = -scale * sx
      let ddy = -scale * sy
      let ddz = -scale * sz
      if (divergence < SHIFT_NEAR_SURFACE_DIVERGENCE) {
        const g = Math.sqrt(gx * gx + gy * gy + gz * gz)
        if (g > 0) {
          const nx = -gx / g
          const ny = -gy / g
          const nz = -gz / g
          const normal = ddx * nx + ddy * ny + ddz * nz
          // sun17 removes the normal part; lyu21 keeps it when it points into the fluid
          const removed = lyu && normal < 0 ? 0 : normal
          ddx -= removed * nx
          ddy -= removed * ny
          ddz -= removed * nz
        }
      }
      const d2 = ddx * ddx + ddy * ddy + ddz * ddz
      if (d2 > maxShift2) {
        const s = maxShift / Math.sqrt(d2)
        ddx *= s
        ddy *= s
        ddz *= s
      }
      posX[i] = posX[i]! + ddx
      posY[i] = posY[i]! + ddy
      posZ[i] = posZ[i]! + ddz
    }
  }
}
