/**
 * Time integration of (x, v, ρ) over a range of particles, so that threads can share it:
 * DualSPHysics' Symplectic scheme (predictor to t + dt/2, corrector to t + dt) and classical RK4.
 * Dynamic boundary walls integrate their density only; generalized walls nothing.
 */
import type { SphConstants } from './config.ts'
import { BOUNDARY_CODE } from './config.ts'
import type { ParticleArrays } from './particles.ts'
import { PARTICLE_KIND } from './particles.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const FLUID = PARTICLE_KIND.fluid

export const RK_STAGE = { first: 1, second: 2, third: 3, fourth: 4 } as const
export type RkStage = (typeof RK_STAGE)[keyof typeof RK_STAGE]

/** Dynamic boundary density: never below ρ0, so walls cannot pull fluid in (DualSPHysics). */
function clampWallDensity(value: number, rho0: number, rhoMax: number): number {
  return value < rho0 ? rho0 : value > rhoMax ? rhoMax : value
}

/** Symplectic predictor: x, v, ρ to t + dt/2 from the derivatives at t. */
export function predictSymplectic(
  a: ParticleArrays,
  k: SphConstants,
  begin: number,
  end: number,
  dt: number,
): void {
  const { posX, posY, posZ, velX, velY, velZ, rho, accX, accY, accZ, drho, kind } = a
  const { startX, startY, startZ, startVX, startVY, startVZ, startRho } = a
  const half = 0.5 * dt
  const dynamicWalls = k.boundaryCode === BOUNDARY_CODE.dynamic
  const rhoMin = k.densityMin
  const rhoMax = k.densityMax
  const rho0 = k.referenceDensity
  for (let i = begin; i < end; i++) {
    if (kind[i] !== FLUID) {
      if (dynamicWalls) {
        startRho[i] = rho[i]!
        rho[i] = clampWallDensity(rho[i]! + half * drho[i]!, rho0, rhoMax)
      }
      continue
    }
    const vx = velX[i]!
    const vy = velY[i]!
    const vz = velZ[i]!
    startX[i] = posX[i]!
    startY[i] = posY[i]!
    startZ[i] = posZ[i]!
    startVX[i] = vx
    startVY[i] = vy
    startVZ[i] = vz
    startRho[i] = rho[i]!
    posX[i] = posX[i]! + half * vx
    posY[i] = posY[i]! + half * vy
    posZ[i] = posZ[i]! + half * vz
    velX[i] = vx + half * accX[i]!
    velY[i] = vy + half * accY[i]!
    velZ[i] = vz + half * accZ[i]!
    const r = rho[i]! + half * drho[i]!
    rho[i] = r < rhoMin ? rhoMin : r > rhoMax ? rhoMax : r
  }
}

/** Symplectic corrector: v and ρ to t + dt from the derivatives at t + dt/2, x by the mean velocity. */
export function correctSymplectic(
  a: ParticleArrays,
  k: SphConstants,
  begin: number,
  end: number,
  dt: number,
): void {
  const { posX, posY, posZ, velX, velY, velZ, rho, accX, accY, accZ, drho, kind } = a
  const { startX, startY, startZ, startVX, startVY, startVZ, startRho } = a
  const dynamicWalls = k.boundaryCode === BOUNDARY_CODE.dynamic
  const rhoMin = k.densityMin
  const rhoMax = k.densityMax
  const rho0 = k.referenceDensity
  const half = 0.5 * dt
  for (let i = begin; i < end; i++) {
    const fluid = kind[i] === FLUID
    if (!fluid && !dynamicWalls) continue
    // ρ^{n+1} = ρ^n (2 − ε)/(2 + ε), ε = −(dρ/dt)/ρ^{n+1/2} dt: exact for a constant rate of dilatation
    const epsilon = (-drho[i]! / rho[i]!) * dt
    const r = (startRho[i]! * (2 - epsilon)) / (2 + epsilon)
    if (!fluid) {
      rho[i] = clampWallDensity(r, rho0, rhoMax)
      continue
    }
    rho[i] = r < rhoMin ? rhoMin : r > rhoMax ? rhoMax : r
    const vx0 = startVX[i]!
    const vy0 = startVY[i]!
    const vz0 = startVZ[i]!
    const vx = vx0 + dt * accX[i]!
    const vy = vy0 + dt * accY[i]!
    const vz = vz0 + dt * accZ[i]!
    velX[i] = vx
    velY[i] = vy
    velZ[i] = vz
    posX[i] = startX[i]! + half * (vx + vx0)
    posY[i] = startY[i]! + half * (vy + vy0)
    posZ[i] = startZ[i]! + half * (vz + vz0)
  }
}

/**
 * Classical RK4 on (x, v, ρ) after the derivatives k of a stage were computed:
 * first: start ← y, sum ← k1, y ← start + dt/2 k1; second: sum += 2k2, y ← start + dt/2 k2;
 * third: sum += 2k3, y ← start + dt k3; fourth: y ← start + dt/6 (sum + k4).
 */
export function updateRungeKutta(
  a: ParticleArrays,
  k: SphConstants,
  begin: number,
  end: number,
  stage: RkStage,
  dt: number,
): void {
  const { posX, posY, posZ, velX, velY, velZ, rho, accX, accY, accZ, drho, kind } = a
  const { startX, startY, startZ, startVX, startVY, startVZ, startRho } = a
  const { sumX, sumY, sumZ, sumVX, sumVY, sumVZ, sumRho } = a
  const dynamicWalls = k.boundaryCode === BOUNDARY_CODE.dynamic
  const rhoMin = k.densityMin
  const rhoMax = k.densityMax
  const rho0 = k.referenceDensity
  const first = stage === RK_STAGE.first
  const fourth = stage === RK_STAGE.fourth
  const weight = fourth ? 1 : 2
  const step = fourth ? dt / 6 : stage === RK_STAGE.third ? dt : 0.5 * dt
  for (let i = begin; i < end; i++) {
    const fluid = kind[i] === FLUID
    if (!fluid && !dynamicWalls) continue
    let dr = drho[i]!
    if (first) {
      startRho[i] = rho[i]!
      sumRho[i] = dr
    } else {
      sumRho[i]! += weight * dr
      if (fourth) dr = sumRho[i]!
    }
    const r = startRho[i]! + step * dr
    if (!fluid) {
      rho[i] = clampWallDensity(r, rho0, rhoMax)
      continue
    }
    rho[i] = r < rhoMin ? rhoMin : r > rhoMax ? rhoMax : r
    let kx = velX[i]!
    let ky = velY[i]!
    let kz = velZ[i]!
    let kvx = accX[i]!
    let kvy = accY[i]!
    let kvz = accZ[i]!
    if (first) {
      startX[i] = posX[i]!
      startY[i] = posY[i]!
      startZ[i] = posZ[i]!
      startVX[i] = kx
      startVY[i] = ky
      startVZ[i] = kz
      sumX[i] = kx
      sumY[i] = ky
      sumZ[i] = kz
      sumVX[i] = kvx
      sumVY[i] = kvy
      sumVZ[i] = kvz
    } else {
      sumX[i]! += weight * kx
      sumY[i]! += weight * ky
      sumZ[i]! += weight * kz
      sumVX[i]! += weight * kvx
      sumVY[i]! += weight * kvy
      sumVZ[i]! += weight * kvz
      if (fourth) {
        kx = sumX[i]!
        ky = sumY[i]!
        kz = sumZ[i]!
        kvx = sumVX[i]!
        kvy = sumVY[i]!
        kvz = sumVZ[i]!
      }
    }
    posX[i] = startX[i]! + step * kx
    posY[i] = startY[i]! + step * ky
    posZ[i] = startZ[i]! + step * kz
    velX[i] = startVX[i]! + step * kvx
    velY[i] = startVY[i]! + step * kvy
    velZ[i] = startVZ[i]! + step * kvz
  }
}

/**
 * Walls of parts at rest, over a particle range: back at their rest position with zero velocity
 * and acceleration (what placeWalls does for a part at rest), so that threads can share it after
 * a sort, which does not carry the accelerations and viscous velocities.
 */
export function restWalls(a: ParticleArrays, begin: number, end: number): void {
  const { posX, posY, posZ, refX, refY, refZ, velX, velY, velZ, accX, accY, accZ, kind } = a
  const { viscVX, viscVY, viscVZ } = a
  for (let i = begin; i < end; i++) {
    if (kind[i] === FLUID) continue
    posX[i] = refX[i]!
    posY[i] = refY[i]!
    posZ[i] = refZ[i]!
    velX[i] = velY[i] = velZ[i] = 0
    accX[i] = accY[i] = accZ[i] = 0
    viscVX[i] = viscVY[i] = viscVZ[i] = 0
  }
}
