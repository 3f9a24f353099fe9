/**
 * Multiphase weakly-compressible SPH (settings.multiphase, up to 5 materials), after Colagrossi &
 * Landrini (2003): every fluid particle carries its phase (the index of its material in the phase
 * table), its mass ρ0_k dp³ and the Tait equation of state of its material,
 * p = B_k((ρ/ρ0_k)^γ_k − 1), B_k = c_k²ρ0_k/γ_k. The momentum and continuity equations are the
 * single-phase ones, which already have Colagrossi & Landrini's form for a density jump:
 * a_i = −Σ m_j (p_i + p_j)/(ρ_iρ_j) ∇W = −Σ V_j (p_i + p_j)/ρ_i ∇W (continuous in p, not in ρ)
 * and dρ_i/dt = ρ_i Σ V_j v_ij·∇W (the neighbour's volume, not its density: no smoothing of ρ
 * across the interface). Differences from the single-phase pass (forces.ts):
 * - a background pressure p_b (options.backgroundPressure) in the fluid pairs' pressure term,
 *   (p_i + p_j + 2p_b), so that the lighter phase near the interface is not in tension; it acts
 *   only through the kernel's consistency error, and outputs show the physical pressure;
 * - with options.pressureReference 'localMinimum' (the default), the fluid and wall pairs'
 *   pressure term taken against a reference, −Σ V_j (p_i + p_j − 2 p_ref,i)/ρ_i ∇W_ij, with
 *   p_ref,i = w_i p_min,i, p_min,i = min p over i and its neighbours (walls included): the same
 *   gradient, but the kernel's zeroth-order error 2p_i Σ V_j ∇W_ij, which restores a sheared
 *   lattice like an elastic solid with a modulus of about 0.03 p, becomes 2(p_i − p_ref,i)
 *   Σ V_j ∇W_ij. Added as 2 p_ref,i Σ V_j ∇W_ij/ρ_i after the sum. Not momentum-conserving by
 *   2(p_ref,j − p_ref,i) per pair, which in a hydrostatic column shows as a pressure excess where
 *   the level is low against its variation over a support, and at a free surface the missing
 *   neighbours would count as p = 2p_ref − p_i instead of −p_i; so the weight w_i (levelWeight)
 *   is 1 where the level is at least 3 × the pressure's variation over the support (pressurised
 *   boxes, deep fluid) and fades to 0 where it is 1 × or less (near a free surface), where the
 *   plain form holds the surface's condition (NUMERICS.md, Rayleigh–Taylor);
 * - density diffusion (Fourtakas, pressure form) only between particles of the same phase, with
 *   c_i² of i's own material: diffusing across the interface would smear the density jump;
 * - laminar viscosity with the harmonic mean of the dynamic viscosities,
 *   (2μ_iμ_j/(μ_i + μ_j))/ρ_i (V_i + V_j)(r·∇W)/(r² + η²) u_ij (Morris 1997 / Hu & Adams 2006:
 *   continuous shear stress across the interface; the single-phase form for equal materials);
 * - surface tension (surfaceTension.ts) when σ > 0.
 * As the single-phase pass: in a rotating frame (rotatingFrame.ts) the Coriolis and centrifugal
 * accelerations after the pair sums, the centrifugal one joining gravity in the hydrostatic
 * correction; with options.freeSlipViscosity 'mirror' free-slip walls in the viscous sums with
 * their mirrored velocity (walls.ts).
 * Generalized and Riemann walls (wall normal 'wall') only; dynamic boundaries, the fluid normal
 * and the log-law wall function are refused with multiphase (phaseTable.ts, which also derives
 * the per-material constants).
 */
import { KERNEL_CODE } from './config.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows, STAT_STRIDE, storeAcceleration, writeStats } from './stencil.ts'
import { frameAccelerationAt } from './rotatingFrame.ts'

const STRIDE = PACK_STRIDE

/**
 * The local minimum reference's weight (options.pressureReference 'localMinimum'): 1 where the
 * pressure level (p_min + p_b) is LEVEL_FULL times its variation over i's support or more, 0 at
 * LEVEL_NONE times or less, linear between. The reference pays where the level is high against
 * the local variation (a pressurised box, deep fluid); near a free surface the level is of the
 * order of the variation and the reference's imbalance (2(p_min,j − p_min,i) per pair) shows in
 * the hydrostatic pressure (NUMERICS.md, Multiphase: the pressure reference).
 */
export const LEVEL_NONE = 1
export const LEVEL_FULL = 3

function levelWeight(level: number, variation: number): number {
  if (level >= LEVEL_FULL * variation) return 1
  if (level <= LEVEL_NONE * variation) return 0
  return (level - LEVEL_NONE * variation) / ((LEVEL_FULL - LEVEL_NONE) * variation)
}

/** computePressures (walls.ts) with each fluid particle's own material. */
export function computeMultiphasePressures(
  ctx: InteractionContext,
  begin: number,
  end: number,
): void {
  const { posX, posY, posZ, velX, velY, velZ, rho, press, invRho, kind, mass, packed, phase } =
    ctx.arrays
  const k = ctx.constants
  const phases = k.phases!
  const invRho0 = 1 / k.referenceDensity
  const rho0s = phases.referenceDensity
  const stiffnesses = phases.stiffness
  const gammas = phases.gamma
  const FLUID = PARTICLE_KIND.fluid
  for (let i = begin; i < end; i++) {
    const o = i * STRIDE
    packed[o] = posX[i]!
    packed[o + 1] = posY[i]!
    packed[o + 2] = posZ[i]!
    packed[o + 3] = velX[i]!
    packed[o + 4] = velY[i]!
    packed[o + 5] = velZ[i]!
    if (kind[i] !== FLUID) {
      packed[o + 6] = 0
      packed[o + 7] = -mass[i]! * invRho0
      continue
    }
    const ph = phase[i]!
    const density = rho[i]!
    const ratio = density / rho0s[ph]!
    const gamma = gammas[ph]!
    let power: number
    if (gamma === 7) {
      const r2 = ratio * ratio
      power = r2 * r2 * r2 * ratio
    } else power = Math.pow(ratio, gamma)
    const p = stiffnesses[ph]! * (power - 1)
    const inv = 1 / density
    press[i] = p
    invRho[i] = inv
    packed[o + 6] = p
    packed[o + 7] = mass[i]! * inv
  }
}

/**
 * The force pass of a multiphase run (see the module comment; otherwise as computeForces):
 * writes accX..accZ (gravity and surface tension included) and drho of the fluid particles of a
 * cell range, and the thread's stats.
 */
export function computeMultiphaseForces(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  slot: number,
): void {
  const a = ctx.arrays
  const { packed, rho, kind, noSlip, viscVX, viscVY, viscVZ, drho, phase } = a
  const { colourX, colourY, colourZ, colourNorm } = a
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const phases = k.phases!
  const stiffnesses = phases.stiffness
  const gammas = phases.gamma
  const mus = phases.dynamicViscosity
  const twoPb = 2 * phases.backgroundPressure
  const localMinimum = phases.localMinimumReference
  const support2 = k.support2
  const h = k.h
  const invH = 1 / h
  const eta2 = k.eta2
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const [gx, gy, gz] = k.gravity
  const quarterAlphaC0 = 0.25 * k.alpha * k.speedOfSound
  const diffusionCoefficient = k.diffusionCoefficient
  const [kx, ky, kz] = k.hydrostaticDensityGradient
  const hydrostatic = kx !== 0 || ky !== 0 || kz !== 0
  const hx = hydrostatic ? gx : 0
  const hy = hydrostatic ? gy : 0
  const hz = hydrostatic ? gz : 0
  const riemannGeometric = k.riemannWall === 2
  const freeSlipMirror = k.freeSlipMirror
  const frame = k.rotation
  const hydrostaticFrame = hydrostatic ? frame : null
  const c0 = k.speedOfSound
  const sigma = k.surfaceTension
  const tension = sigma > 0
  const FLUID = PARTICLE_KIND.fluid
  const MIN_R2 = 1e-24 * support2
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
      if (kind[i] !== FLUID) continue
      if (rows < 0) rows = fillStencilRows(ctx, c, false)
      const oi = i * STRIDE
      const xi = packed[oi]!
      const yi = packed[oi + 1]!
      const zi = packed[oi + 2]!
      const vxi = packed[oi + 3]!
      const vyi = packed[oi + 4]!
      const vzi = packed[oi + 5]!
      const pi = packed[oi + 6]!
      const vi = packed[oi + 7]!
      const rhoi = rho[i]!
      const invRhoi = 1 / rhoi
      const phi = phase[i]!
      const invC2i = rhoi / (gammas[phi]! * (pi + stiffnesses[phi]!))
      const mui = mus[phi]!
      const gi = frameAccelerationAt(hydrostaticFrame, hx, hy, hz, packed, oi, false)
      const hxi = gi[0]!
      const hyi = gi[1]!
      const hzi = gi[2]!
      // surface tension: i on the interface (its colour normal set) takes the curvature
      const nix = tension ? colourX[i]! : 0
      const niy = tension ? colourY[i]! : 0
      const niz = tension ? colourZ[i]! : 0
      const interface_ = tension && colourNorm[i]! > 0
      let curvatureSum = 0
      let curvatureWeight = 0
      let ax = 0
      let ay = 0
      let az = 0
      let lx = 0
      let ly = 0
      let lz = 0
      let arp = 0
      let diff = 0
      let wgx = 0
      let wgy = 0
      let wgz = 0
      let wsum = 0
      let wvx = 0
      let wvy = 0
      let wvz = 0
      // the local minimum reference: min p over i and its neighbours, and Σ V_j ∇W_ij
      let pMin = pi
      let pMax = pi
      let gvx = 0
      let gvy = 0
      let gvz = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        const yr = yi - rowShiftY[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          const dx = xi - packed[o]!
          const dy = yr - packed[o + 1]!
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
          let vj = packed[o + 7]!
          if (localMinimum) {
            if (pj < pMin) pMin = pj
            else if (pj > pMax) pMax = pj
            const vf = (vj > 0 ? vj : -vj) * f
            gvx += vf * dx
            gvy += vf * dy
            gvz += vf * dz
          }
          const invR2 = 1 / (r2 + eta2)
          const fr = f * r2 * invR2
          let ux = dvx
          let uy = dvy
          let uz = dvz
          let viscous = 1
          let muij = mui
          if (vj > 0) {
            const phj = phase[j]!
            if (phj === phi) diff += vj * (pj - pi + rhoi * (hxi * dx + hyi * dy + hzi * dz)) * fr
            else {
              const muj = mus[phj]!
              muij = mui + muj > 0 ? (2 * mui * muj) / (mui + muj) : 0
            }
            pj += twoPb
            if (interface_ && colourNorm[j]! > 0) {
              // Σ V_j (n̂_i − n̂_j)·∇W over neighbours with a normal, and the same sum's
              // tangential moment Σ V_j |r_t|² |∇W|/|r| (r_t = r − (n̂_i·r) n̂_i)
              const vf = vj * f
              const rn = nix * dx + niy * dy + niz * dz
              curvatureSum +=
                vf *
                ((nix - colourX[j]!) * dx + (niy - colourY[j]!) * dy + (niz - colourZ[j]!) * dz)
              curvatureWeight -= vf * (r2 - rn * rn)
            }
          } else {
            vj = -vj
            pj += twoPb
            if (riemannGeometric) {
              const wf = vj * f
              wgx += wf * dx
              wgy += wf * dy
              wgz += wf * dz
              wsum += wf
              wvx += wf * packed[o + 3]!
              wvy += wf * packed[o + 4]!
              wvz += wf * packed[o + 5]!
            }
            // a wall pushes, never pulls (see forces.ts; where the local minimum reference is
            // in full, every pair's term is 0 or more already)
            if (pi + pj < 0) pj = -pi
            if (noSlip[j] === 0 && !freeSlipMirror) viscous = 0
            else {
              ux = vxi - viscVX[j]!
              uy = vyi - viscVY[j]!
              uz = vzi - viscVZ[j]!
            }
          }
          arp += f * vj * (dvx * dx + dvy * dy + dvz * dz)
          const vdotr = (ux * dx + uy * dy + uz * dz) * viscous
          const mu = h * vdotr * invR2
          const muAbs = Math.abs(mu)
          const sumV = vi + vj
          const coef = -(pi + pj) * invRhoi * vj + quarterAlphaC0 * (mu - muAbs) * sumV
          const lam = muij * invRhoi * sumV * fr * viscous
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
      if (localMinimum) {
        // −Σ V_j (p_i + p_j + 2p_b − 2w(p_min + p_b))/ρ_i ∇W: the sum above less the weighted
        // reference (w = 1: the full local minimum; w = 0: the plain form)
        const level = pMin + 0.5 * twoPb
        const s = 2 * level * levelWeight(level, pMax - pMin) * invRhoi
        ax += s * gvx
        ay += s * gvy
        az += s * gvz
      }
      if (wsum !== 0) {
        // the Riemann wall along the wall's geometry (see forces.ts)
        const g = Math.sqrt(wgx * wgx + wgy * wgy + wgz * wgz)
        if (g > 0) {
          const iw = 1 / wsum
          const approach =
            ((vxi - wvx * iw) * wgx + (vyi - wvy * iw) * wgy + (vzi - wvz * iw) * wgz) / g
          if (approach > 0) {
            const beta = 6 * approach < c0 ? 6 * approach : c0
            const s = -2 * beta * approach
            ax += s * wgx
            ay += s * wgy
            az += s * wgz
          }
        }
      }
      if (curvatureWeight > 0) {
        // CSF: a = σ κ ∇C/ρ with κ = −∇·n̂ = 2 Σ V_j (n̂_i − n̂_j)·∇W / Σ V_j |r_t|²|∇W|/|r|:
        // n̂ varies only along the interface, so the sum is normalised by its moment in the
        // tangent plane (2 directions), which the band of neighbours with a normal holds whole
        // (Adami et al. 2010's 3 / Σ V_j |r||∇W| also counts the normal direction, which the band
        // cuts short: κ 5–7 % too large, see NUMERICS.md)
        const kappa = (2 * curvatureSum) / curvatureWeight
        const s = sigma * kappa * colourNorm[i]! * invRhoi
        ax += s * nix
        ay += s * niy
        az += s * niz
      }
      const a2 = storeAcceleration(a, i, frame, ax + lx + gx, ay + ly + gy, az + lz + gz)
      drho[i] = rhoi * arp - diffusionCoefficient * invC2i * diff
      if (a2 > maxAcceleration2) maxAcceleration2 = a2
    }
  }
  writeStats(stats, base, maxAcceleration2, maxViscous, interactions)
}
