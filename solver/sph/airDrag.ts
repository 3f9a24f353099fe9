/**
 * Air drag on fluid particles exposed to the air (settings.airDrag with the air drag domain),
 * after Gissler, Band, Peer, Ihmsen & Teschner (2017), "Approximate air-fluid interactions for
 * SPH" (VRIPHYS 2017), without their droplet deformation (Taylor analogy breakup):
 *
 *   a_i = ½ ρ_a C_D,i A_i |w_i| w_i / m_i,   w_i = u_air(x_i, t) − v_i
 *
 * for each fluid particle inside the air drag domain (outside it: none), with
 *   n_i    the particle's neighbours (fluid and wall) within the support,
 *   f_i    = min(1, n_i / n_face), n_face the neighbours of a particle on a flat face of the
 *          lattice (Gissler eq. 10 with 2/3 of a full neighbourhood; ours is the half space's
 *          count, so that a particle on a flat surface counts as surface fully),
 *   e_i    = clamp(1 − max_j ŵ_i·r̂_ij, 0, 1) over fluid neighbours j, r̂_ij = (x_i − x_j)/|x_i − x_j|
 *          (eq. 15): 0 when a fluid neighbour stands straight upwind, 1 when none is upwind
 *          (walls count in n_i but do not shield, as in Gissler et al.),
 *   A_i    = e_i ((1 − f_i) π L² + f_i dp²) (eqs. 12–14 without deformation), L = (3/(4π))^(1/3) dp
 *          the radius of the particle's volume as a sphere,
 *   C_D,i  = (1 − f_i) C_sphere(Re_i) + f_i · 1 (eq. 10), Re_i = ρ_a |w_i| 2L / μ_a,
 *          C_sphere = 24/Re (1 + Re^(2/3)/6) for Re ≤ 1000, else 0.424 (eq. 9 without deformation).
 *
 * An isolated particle (spray) is a sphere of its volume; a particle on a flat face normal to the
 * wind shows its dp² with C_D = 1, so a flat face of area A takes ½ ρ_a A |w| w; particles with a
 * neighbour straight upwind are shielded. Air: ρ_a = 1.204 kg/m³, μ_a = 1.81e-5 Pa·s (20 °C).
 *
 * The pass runs after the force pass (phases.ts) on the forces split, adds to accX..accZ and
 * raises the thread's largest |a|² (time step) where drag acts; each particle writes only its own
 * entries, so threaded runs stay bit-identical.
 */
import type { AirDragConstants } from './airDragField.ts'
import { BULK_DRAG_COEFFICIENT, locateTime, uniformAirVelocity } from './airDragField.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows, STAT, STAT_STRIDE } from './stencil.ts'

const STRIDE = PACK_STRIDE

/** C_D of a sphere at Reynolds number re (Gissler et al. 2017, eq. 9 without deformation). */
export function sphereDragCoefficient(re: number): number {
  if (re > 1000) return 0.424
  const r = re > 0.1 ? re : 0.1
  return (24 / r) * (1 + Math.cbrt(r * r) / 6)
}

/** Scratch of the air velocity lookup, per thread: the velocity, and the frame and weight of t. */
const scratch = new WeakMap<InteractionContext, { air: Float64Array; time: Float64Array }>()

/**
 * The air velocity at time t of a grid cell (into out[0..2]): frames blended linearly; `time`
 * holds the frame and weight of t (locateTime).
 */
function gridVelocity(
  k: AirDragConstants,
  frames: Float32Array,
  x: number,
  y: number,
  z: number,
  time: Float64Array,
  out: Float64Array,
): void {
  const [nx, ny, nz] = k.dims
  const inv = 1 / k.cellSize
  let ix = Math.floor((x - k.min[0]) * inv)
  let iy = Math.floor((y - k.min[1]) * inv)
  let iz = Math.floor((z - k.min[2]) * inv)
  ix = ix < 0 ? 0 : ix >= nx ? nx - 1 : ix
  iy = iy < 0 ? 0 : iy >= ny ? ny - 1 : iy
  iz = iz < 0 ? 0 : iz >= nz ? nz - 1 : iz
  const cells = nx * ny * nz
  const o = 3 * (time[0]! * cells + ix + nx * (iy + ny * iz))
  const w = time[1]!
  for (let c = 0; c < 3; c++) {
    const a = frames[o + c]!
    out[c] = w === 0 ? a : a + w * (frames[o + 3 * cells + c]! - a)
  }
}

/**
 * Adds the air drag acceleration to the fluid particles of a cell range inside the domain at
 * time `timeS` (the stage's time), from the neighbour records of the pressures pass.
 */
export function applyAirDrag(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  slot: number,
  timeS: number,
): void {
  const k = ctx.constants.airDrag
  if (!k) return
  let own = scratch.get(ctx)
  if (!own) {
    own = { air: new Float64Array(3), time: new Float64Array(2) }
    scratch.set(ctx, own)
  }
  const { air, time } = own
  const frames = k.frames
  if (frames) locateTime(k.timesS, timeS, time)
  else uniformAirVelocity(k, timeS, air)
  const a = ctx.arrays
  const { packed, kind, mass, accX, accY, accZ } = a
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const support2 = ctx.constants.support2
  const MIN_R2 = 1e-24 * support2
  const [x0, y0, z0] = k.min
  const [x1, y1, z1] = k.max
  const halfRhoAir = 0.5 * k.airDensity
  const reFactor = (k.airDensity * 2 * k.sphereRadius) / k.airViscosity
  const sphereArea = Math.PI * k.sphereRadius * k.sphereRadius
  const faceArea = k.faceArea
  const invFace = 1 / k.faceNeighbours
  const FLUID = PARTICLE_KIND.fluid
  const stats = ctx.stats
  const base = slot * STAT_STRIDE
  let maxAcceleration2 = stats[base + STAT.maxAcceleration2]!
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    if (pBegin === pEnd) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      if (kind[i] !== FLUID) continue
      const oi = i * STRIDE
      const xi = packed[oi]!
      const yi = packed[oi + 1]!
      const zi = packed[oi + 2]!
      if (xi < x0 || xi > x1 || yi < y0 || yi > y1 || zi < z0 || zi > z1) continue
      if (frames) gridVelocity(k, frames, xi, yi, zi, time, air)
      const wx = air[0]! - packed[oi + 3]!
      const wy = air[1]! - packed[oi + 4]!
      const wz = air[2]! - packed[oi + 5]!
      const speed = Math.sqrt(wx * wx + wy * wy + wz * wz)
      if (!(speed > 1e-9)) continue
      const inv = 1 / speed
      const ux = wx * inv
      const uy = wy * inv
      const uz = wz * inv
      if (rows < 0) rows = fillStencilRows(ctx, c, false)
      let neighbours = 0
      let upwind = 0
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
          neighbours++
          // only fluid shields (Gissler et al. loop over fluid neighbours): a wall beside the
          // particle is not in the wind's way
          if (!(packed[o + 7]! > 0)) continue
          const along = (ux * dx + uy * dy + uz * dz) / Math.sqrt(r2)
          if (along > upwind) upwind = along
        }
      }
      const exposure = upwind >= 1 ? 0 : 1 - upwind
      if (exposure === 0) continue
      const f = neighbours * invFace < 1 ? neighbours * invFace : 1
      const cd = (1 - f) * sphereDragCoefficient(reFactor * speed) + f * BULK_DRAG_COEFFICIENT
      const area = exposure * ((1 - f) * sphereArea + f * faceArea)
      const s = (halfRhoAir * cd * area * speed) / mass[i]!
      const aix = accX[i]! + s * wx
      const aiy = accY[i]! + s * wy
      const aiz = accZ[i]! + s * wz
      accX[i] = aix
      accY[i] = aiy
      accZ[i] = aiz
      const a2 = aix * aix + aiy * aiy + aiz * aiz
      if (a2 > maxAcceleration2) maxAcceleration2 = a2
    }
  }
  stats[base + STAT.maxAcceleration2] = maxAcceleration2
}
