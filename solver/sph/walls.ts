/**
 * The equation of state and the generalized-wall extrapolation, each run on a particle or cell
 * range so that threads can share them (see stencil.ts).
 */
import { BOUNDARY_CODE, KERNEL_CODE } from './config.ts'
import { GRID_PARAM } from './grid.ts'
import { PACK_STRIDE, PARTICLE_KIND, type ParticleArrays } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows } from './stencil.ts'
import { addFrameAcceleration } from './rotatingFrame.ts'

// Imported constants copied into module bindings: inside hot loops an imported binding may be a
// getter (test runners rewrite imports into module objects).
const STRIDE = PACK_STRIDE
/** The body force at one wall particle (each thread has its own module). */
const bodyForce = new Float64Array(3)

/**
 * Tait pressure and 1/ρ for fluid particles (and dynamic boundary walls) in a particle index range,
 * and the neighbour records (see PACK) of every particle in the range: the last slot holds the
 * volume m/ρ (negative for walls; a generalized wall's is its lattice cell m/ρ0, it does not
 * compress). Generalized-wall records get their position, velocity and volume here (the sort
 * moved them), their pressure in extrapolateWalls.
 */
export function computePressures(ctx: InteractionContext, begin: number, end: number): void {
  const { posX, posY, posZ, velX, velY, velZ, rho, press, invRho, kind, mass, packed } = ctx.arrays
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
      packed[o + 7] = -mass[i]! * invRho0
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
    packed[o + 7] = fluid ? mass[i]! * inv : -mass[i]! * inv
  }
}

/**
 * The velocity wall particle i shows the viscous sums (viscVX..Z), from the fluid's kernel
 * average ṽ_f = (fx, fy, fz) around it: no-slip, 2 v_w − ṽ_f (the fluid's mirrored); a free-slip
 * wall in the sums (options.freeSlipViscosity 'mirror'), ṽ_f + 2((v_w − ṽ_f)·n)n: the fluid's
 * tangential velocity, the normal one mirrored, n opposite Σ ρ_f W (r_w − r_f) = (rx, ry, rz).
 */
export function setWallViscousVelocity(
  a: ParticleArrays,
  i: number,
  freeSlip: boolean,
  fx: number,
  fy: number,
  fz: number,
  rx: number,
  ry: number,
  rz: number,
): void {
  const { velX, velY, velZ, viscVX, viscVY, viscVZ } = a
  const length = freeSlip ? Math.sqrt(rx * rx + ry * ry + rz * rz) : 0
  if (length > 0) {
    const nx = -rx / length
    const ny = -ry / length
    const nz = -rz / length
    const dn = 2 * ((velX[i]! - fx) * nx + (velY[i]! - fy) * ny + (velZ[i]! - fz) * nz)
    viscVX[i] = fx + dn * nx
    viscVY[i] = fy + dn * ny
    viscVZ[i] = fz + dn * nz
  } else {
    viscVX[i] = 2 * velX[i]! - fx
    viscVY[i] = 2 * velY[i]! - fy
    viscVZ[i] = 2 * velZ[i]! - fz
  }
}

/**
 * Generalized wall boundary (Adami, Hu & Adams 2012): each wall particle takes the pressure
 * extrapolated from its fluid neighbours, p_w = max(0, (Σ p_f W + (g − a_w)·Σ ρ_f r_wf W) / Σ W), the
 * density from the inverse equation of state, and for no-slip the velocity 2 v_w − ṽ_f used by
 * the viscous terms. Wall accelerations a_w are in accX..accZ. In a rotating frame g takes the
 * centrifugal acceleration at the wall particle too (rotatingFrame.ts).
 */
export function extrapolateWalls(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
): void {
  const a = ctx.arrays
  const { posX, posY, posZ, velX, velY, velZ, rho, press, invRho, kind, accX, accY, accZ, packed } =
    a
  const { viscVX, viscVY, viscVZ, normalX, normalY, normalZ, mass } = a
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const riemann = k.riemannWall === 1
  const freeSlipMirror = k.freeSlipMirror
  const noSlip = a.noSlip
  const support2 = k.support2
  const h = k.h
  const invH = 1 / h
  const alpha = k.kernelAlpha
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const [gx, gy, gz] = k.gravity
  const rho0 = k.referenceDensity
  const invRho0 = 1 / rho0
  const invStiffness = 1 / k.stiffness
  const invGamma = 1 / k.gamma
  const densityMin = k.densityMin
  const densityMax = k.densityMax
  const FLUID = PARTICLE_KIND.fluid
  const dryGeneration = ctx.grid.dryGeneration
  const frame = k.rotation
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
        const yr = yi - rowShiftY[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          // fluid records have 1/ρ > 0; wall records (being rewritten in this pass) stay < 0
          if (!(packed[o + 7]! > 0)) continue
          const dx = xi - packed[o]!
          const dy = yr - packed[o + 1]!
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
        let fx = gx - accX[i]!
        let fy = gy - accY[i]!
        let fz = gz - accZ[i]!
        if (frame !== null) {
          bodyForce[0] = fx
          bodyForce[1] = fy
          bodyForce[2] = fz
          addFrameAcceleration(frame, xi, yi, zi, 0, 0, 0, false, bodyForce)
          fx = bodyForce[0]!
          fy = bodyForce[1]!
          fz = bodyForce[2]!
        }
        let p = (sumP + fx * sumRx + fy * sumRy + fz * sumRz) * invW
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
        setWallViscousVelocity(
          a,
          i,
          freeSlipMirror && noSlip[i] === 0,
          sumVx * invW,
          sumVy * invW,
          sumVz * invW,
          sumRx,
          sumRy,
          sumRz,
        )
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
      // the wall's volume in the pair terms is its lattice cell, m/ρ0: the wall does not compress
      packed[o + 7] = -mass[i]! * invRho0
    }
  }
}
