/**
 * The force pass (momentum and continuity), run on a cell range so that threads can share it (the
 * plain reference loop over the same pairs is referencePass.ts). Every particle only writes its
 * own entries (a gather over the full stencil), so a threaded pass produces exactly the numbers of
 * the single-threaded one. The loops are written for speed: typed arrays in locals, constants
 * hoisted, no allocation, no closures.
 */
import { BOUNDARY_CODE, KERNEL_CODE } from './config.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows, STAT_STRIDE, storeAcceleration, writeStats } from './stencil.ts'
import { frameAccelerationAt } from './rotatingFrame.ts'
import { wallShearVelocity2 } from './wallFunction.ts'

// Imported constants copied into module bindings: inside hot loops an imported binding may be a
// getter (test runners rewrite imports into module objects).
const STRIDE = PACK_STRIDE

/**
 * Momentum and continuity for the fluid particles of a cell range (and the continuity of dynamic
 * boundary walls). Writes accX..accZ (gravity included) and drho; records the largest |a|², the
 * largest viscous rate h|v·r|/(r² + η²) and the count of pair interactions in the thread's slot.
 *
 * With V_j = m_j/ρ_j the neighbour's volume (the record's last slot; a generalized wall's is its
 * lattice cell m/ρ0) and u the viscous velocity difference:
 *   a_i = −Σ V_j (p_i + p_j)/ρ_i ∇W + Σ α c0 μ_ij (V_i + V_j)/2 ∇W   (μ_ij = h v·r/(r²+η²) < 0)
 *         + ν Σ (V_i + V_j) (r·∇W)/(r²+η²) u_ij + g   (Morris laminar viscosity)
 *         [− 2Ω × v_i − Ω × (Ω × r_i) in a rotating frame, rotatingFrame.ts]
 *   dρ_i/dt = ρ_i Σ V_j v_ij·∇W + 2δhc0 Σ V_j (p_j − p_i + ρ_i g·r_ij)/c_i² (−r·∇W)/(r²+η²)
 * For equal masses these are the usual m(p_i + p_j)/(ρ_iρ_j), m(1/ρ_i + 1/ρ_j) terms. The last term
 * is the density diffusion written with pressures, (ρ_j − ρ_i) = (p_j − p_i)/c_i² to first order
 * (c_i² = γ(p_i + B)/ρ_i, the sound speed at i's density): Fourtakas' hydrostatic correction
 * ρ_i g·r_ij then holds at any depth (the density form ρ0 g·r/c0² is 5 % too steep at the foot of
 * a column of c0 = 10√(gH)); omitted for Molteni–Colagrossi; between fluid particles only.
 */
export function computeForces(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  slot: number,
): void {
  const a = ctx.arrays
  const { packed, rho, kind, noSlip, viscVX, viscVY, viscVZ, drho } = a
  const { normalX, normalY, normalZ } = a
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const freeSlipMirror = k.freeSlipMirror
  const support2 = k.support2
  const h = k.h
  const invH = 1 / h
  const eta2 = k.eta2
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const [gx, gy, gz] = k.gravity
  // α c0 (V_i + V_j)/2 · min(μ, 0) = α c0/4 · (μ − |μ|)(V_i + V_j): branch-free, the sign of v·r
  // is unpredictable
  const quarterAlphaC0 = 0.25 * k.alpha * k.speedOfSound
  const nu = k.nu
  // a temperature or shear-rate viscosity: each fluid particle's ν (viscosityModels.ts), the pair
  // taking the harmonic mean 2 ν_i ν_j/(ν_i + ν_j); walls the fluid particle's own
  const visc = a.visc
  const variableNu = k.heat.viscosityModel !== 0 && nu > 0
  const diffusionCoefficient = k.diffusionCoefficient
  // Fourtakas' hydrostatic correction (zero for Molteni–Colagrossi)
  const [kx, ky, kz] = k.hydrostaticDensityGradient
  const hydrostatic = kx !== 0 || ky !== 0 || kz !== 0
  const hx = hydrostatic ? gx : 0
  const hy = hydrostatic ? gy : 0
  const hz = hydrostatic ? gz : 0
  // a rotating frame (rotatingFrame.ts): Coriolis and centrifugal accelerations; the centrifugal
  // one joins gravity in the hydrostatic correction
  const frame = k.rotation
  const hydrostaticFrame = hydrostatic ? frame : null
  const stiffness = k.stiffness
  const gamma = k.gamma
  const dynamicWalls = k.boundaryCode === BOUNDARY_CODE.dynamic
  // 1: along each wall particle's normal (towards the fluid it sees); 2: along the wall's kernel
  // gradient at the fluid particle
  const riemann = k.riemannWall === 1
  const riemannGeometric = k.riemannWall === 2
  const c0 = k.speedOfSound
  // log-law wall function on no-slip walls (options.wallShear 'logLaw'): ν, and the wall surface's
  // offset from the first layer's centres (half a particle)
  const wallNu = k.wallFunctionNu
  const wallFunction = wallNu > 0
  const halfDp = 0.5 * k.particleDiameter
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
    // a dynamic wall's rows hold fluid only: a fluid particle after it in the cell needs them all
    let fluidRowsOnly = false
    for (let i = pBegin; i < pEnd; i++) {
      const fluid = kind[i] === FLUID
      if (!fluid && !dynamicWalls) continue
      if (rows < 0 || (fluid && fluidRowsOnly)) {
        rows = fillStencilRows(ctx, c, !fluid)
        fluidRowsOnly = !fluid
      }
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
          const yr = yi - rowShiftY[r]!
          for (let j = rowBegin[r]!; j < jEnd; j++) {
            const o = j * STRIDE
            const dx = xi - packed[o]!
            const dy = yr - packed[o + 1]!
            const dz = zi - packed[o + 2]!
            const r2 = dx * dx + dy * dy + dz * dz
            const vj = packed[o + 7]!
            if (r2 >= support2 || vj < 0) continue
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
              vj *
              f *
              ((vxi - packed[o + 3]!) * dx +
                (vyi - packed[o + 4]!) * dy +
                (vzi - packed[o + 5]!) * dz)
          }
        }
        drho[i] = rhoi * arp
        continue
      }
      const invRhoi = 1 / rhoi
      const vi = packed[oi + 7]!
      const nui = variableNu ? visc[i]! : nu
      // 1/c_i²: dρ/dp at i's density, ρ_i/(γ (p_i + B))
      const invC2i = rhoi / (gamma * (pi + stiffness))
      const ghi = rhoi
      const gi = frameAccelerationAt(hydrostaticFrame, hx, hy, hz, packed, oi, false)
      const hxi = gi[0]!
      const hyi = gi[1]!
      const hzi = gi[2]!
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
      // the no-slip walls' kernel gradient, weighted velocity and nearest particle (wall function)
      let sgx = 0
      let sgy = 0
      let sgz = 0
      let ssum = 0
      let svx = 0
      let svy = 0
      let svz = 0
      let nearR2 = Infinity
      let nearX = 0
      let nearY = 0
      let nearZ = 0
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
          const invR2 = 1 / (r2 + eta2)
          const fr = f * r2 * invR2
          let ux = dvx
          let uy = dvy
          let uz = dvz
          let viscous = 1
          let nuij = nui
          if (vj > 0) {
            if (variableNu) {
              const nuj = visc[j]!
              nuij = (2 * nui * nuj) / (nui + nuj)
            }
            // V_j (p_j − p_i + ρ_i g·r_ij): c_i² (ρ_j − ρ_i) less its hydrostatic part
            diff += vj * (pj - pi + ghi * (hxi * dx + hyi * dy + hzi * dz)) * fr
          } else {
            vj = -vj
            if (riemann) {
              // one-sided Riemann problem along the wall normal n (towards the fluid), mirrored
              // state u_R = −u_L: 2P* = p_i + p_w + 2ρ_i β U with U the approach speed and Zhang
              // et al.'s (2017) low-dissipation limiter β = min(3 (u_L − u_R), c0)
              const approach = -(dvx * normalX[j]! + dvy * normalY[j]! + dvz * normalZ[j]!)
              if (approach > 0) {
                const beta = 6 * approach < c0 ? 6 * approach : c0
                pj += 2 * rhoi * beta * approach
              }
            } else if (riemannGeometric) {
              // the wall's own kernel gradient at i, Σ_w V_w ∇W_iw, and its weighted velocity
              const wf = vj * f
              wgx += wf * dx
              wgy += wf * dy
              wgz += wf * dz
              wsum += wf
              wvx += wf * packed[o + 3]!
              wvy += wf * packed[o + 4]!
              wvz += wf * packed[o + 5]!
            }
            // a wall pushes, never pulls: p_w ≥ 0 alone does not ensure it, a fluid particle in
            // tension (p_i < 0) would be drawn into the wall by −V_w (p_i + p_w)/ρ_i ∇W
            if (pi + pj < 0) pj = -pi
            if (noSlip[j] === 0) {
              if (freeSlipMirror) {
                ux = vxi - viscVX[j]!
                uy = vyi - viscVY[j]!
                uz = vzi - viscVZ[j]!
              } else viscous = 0
            } else if (wallFunction) {
              // the wall function replaces the wall's pair viscosity
              viscous = 0
              const wf = vj * f
              sgx += wf * dx
              sgy += wf * dy
              sgz += wf * dz
              ssum += wf
              svx += wf * packed[o + 3]!
              svy += wf * packed[o + 4]!
              svz += wf * packed[o + 5]!
              if (r2 < nearR2) {
                nearR2 = r2
                nearX = dx
                nearY = dy
                nearZ = dz
              }
            } else {
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
          // −V_j (p_i + p_j)/ρ_i + artificial viscosity, times f below
          const coef = -(pi + pj) * invRhoi * vj + quarterAlphaC0 * (mu - muAbs) * sumV
          const lam = nuij * sumV * fr * viscous
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
      if (wsum !== 0) {
        // the same Riemann problem along n = −G/|G|, G = Σ_w V_w ∇W_iw (the wall's geometry seen
        // from i, no fluid in it), U = −(v_i − v̄_w)·n: summed over the wall pairs the extra term
        // 2ρ_i β U is −2βU G
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
      if (ssum !== 0) {
        // log-law wall function: n = −G/|G| (into the fluid), y = the nearest wall particle's
        // distance along n less half a particle, u_t the velocity relative to the wall along it
        const g = Math.sqrt(sgx * sgx + sgy * sgy + sgz * sgz)
        if (g > 0) {
          const iw = 1 / ssum
          const nx = -sgx / g
          const ny = -sgy / g
          const nz = -sgz / g
          const ux = vxi - svx * iw
          const uy = vyi - svy * iw
          const uz = vzi - svz * iw
          const un = ux * nx + uy * ny + uz * nz
          const tx = ux - un * nx
          const ty = uy - un * ny
          const tz = uz - un * nz
          const ut = Math.sqrt(tx * tx + ty * ty + tz * tz)
          if (ut > 0) {
            let y = nearX * nx + nearY * ny + nearZ * nz - halfDp
            if (y < 0.25 * halfDp) y = 0.25 * halfDp
            const tau = wallShearVelocity2(ut, y, wallNu)
            // −u_τ² · 2|G| along the tangential velocity
            const s = (-2 * tau * g) / ut
            ax += s * tx
            ay += s * ty
            az += s * tz
          }
        }
      }
      const a2 = storeAcceleration(a, i, frame, ax + lx + gx, ay + ly + gy, az + lz + gz)
      drho[i] = rhoi * arp - diffusionCoefficient * invC2i * diff
      if (a2 > maxAcceleration2) maxAcceleration2 = a2
    }
  }
  writeStats(stats, base, maxAcceleration2, maxViscous, interactions)
}
