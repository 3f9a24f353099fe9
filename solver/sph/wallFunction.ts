/**
 * The log-law wall function of no-slip walls (options.wallShear 'logLaw', applied in the force
 * pass, forces.ts): the wall shear stress from a fluid particle's tangential speed and its
 * distance to the wall.
 */

/** Log law: κ and B, and the y+ where it meets the laminar sublayer's u+ = y+. */
export const KAPPA = 0.41
export const LOG_B = 5.2
export const Y_PLUS_SUBLAYER = 11.06

/**
 * The squared friction velocity u_τ² (the wall shear stress over ρ) of a flow at speed ut
 * parallel to a no-slip wall at distance y: the laminar sublayer's u_τ² = ν ut/y while
 * y+ = y u_τ/ν < 11.06, else the log law ut/u_τ = ln(y u_τ/ν)/κ + B solved by Newton's method
 * (the residual is convex and increasing in u_τ, so the iterates stay above the root after the
 * first step).
 */
export function wallShearVelocity2(ut: number, y: number, nu: number): number {
  const laminar = (nu * ut) / y
  if ((y * Math.sqrt(laminar)) / nu < Y_PLUS_SUBLAYER) return laminar
  const c = y / nu
  let u = ut / 20
  for (let k = 0; k < 30; k++) {
    const l = Math.log(c * u) / KAPPA + LOG_B
    const next = u - (u * l - ut) / (l + 1 / KAPPA)
    if (Math.abs(next - u) <= 1e-10 * u) {
      u = next
      break
    }
    u = next
  }
  return u * u
}
