/**
 * SPH smoothing kernels with support radius 2h (q = r/h in [0, 2)).
 *
 * The force loop does not call these functions: it inlines the same formulas with the factors
 * from {@link kernelFactors}. These are the reference versions used by tests and by the setup.
 */

export const KERNEL_KINDS = ['wendland', 'cubic'] as const
export type KernelKind = (typeof KERNEL_KINDS)[number]

/** Spatial dimension of the kernel normalisation; the solver itself is 3D. */
export type KernelDimension = 2 | 3

/** Normalisation factors so that W integrates to 1 over its support, and gradient factors. */
export interface KernelFactors {
  kind: KernelKind
  h: number
  /** αD: W(q) = αD · f(q). */
  alpha: number
  /**
   * Factor of the gradient: ∇_i W = F(r) · (x_i − x_j) with F = dW/dr / r.
   * Wendland: F = gradFactor · (1 − q/2)³. Cubic: F = gradFactor · g(q), see {@link kernelGradientFactor}.
   */
  gradFactor: number
}

/** Normalisation αD for a kernel kind, dimension and smoothing length h. */
export function kernelFactors(
  kind: KernelKind,
  h: number,
  dimension: KernelDimension = 3,
): KernelFactors {
  if (kind === 'wendland') {
    const alpha = dimension === 3 ? 21 / (16 * Math.PI * h ** 3) : 7 / (4 * Math.PI * h ** 2)
    // dW/dr = αD/h · (−5q)(1 − q/2)³ and q/r = 1/h, so F needs no division by r
    return { kind, h, alpha, gradFactor: (-5 * alpha) / (h * h) }
  }
  const alpha = dimension === 3 ? 1 / (Math.PI * h ** 3) : 10 / (7 * Math.PI * h ** 2)
  return { kind, h, alpha, gradFactor: alpha / (h * h) }
}

/** Kernel value W(r). */
export function kernelValue(factors: KernelFactors, r: number): number {
  const q = r / factors.h
  if (q >= 2) return 0
  if (factors.kind === 'wendland') {
    const t = 1 - 0.5 * q
    return factors.alpha * t * t * t * t * (2 * q + 1)
  }
  if (q < 1) return factors.alpha * (1 - 1.5 * q * q + 0.75 * q * q * q)
  const t = 2 - q
  return factors.alpha * 0.25 * t * t * t
}

/**
 * F(r) = (dW/dr) / r, so that ∇_i W_ij = F · (x_i − x_j). Negative inside the support: the kernel
 * decreases with distance, so the gradient at i points away from j.
 */
export function kernelGradientFactor(factors: KernelFactors, r: number): number {
  const q = r / factors.h
  if (q >= 2) return 0
  if (factors.kind === 'wendland') {
    const t = 1 - 0.5 * q
    return factors.gradFactor * t * t * t
  }
  if (q < 1) return factors.gradFactor * (-3 + 2.25 * q)
  const t = 2 - q
  // dW/dr = αD/h · (−0.75 (2 − q)²), divided by r = q h
  return (factors.gradFactor * (-0.75 * t * t)) / q
}
