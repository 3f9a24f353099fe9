import { describe, expect, it } from 'vitest'
import type { KernelDimension, KernelKind } from './kernels.ts'
import { kernelFactors, kernelGradientFactor, kernelValue } from './kernels.ts'

/** Midpoint-rule integral of W over a box covering the support. */
function integrateKernel(kind: KernelKind, dimension: KernelDimension, h: number): number {
  const factors = kernelFactors(kind, h, dimension)
  const n = dimension === 3 ? 80 : 400
  const step = (4 * h) / n
  let sum = 0
  for (let i = 0; i < n; i++) {
    const x = -2 * h + (i + 0.5) * step
    for (let j = 0; j < n; j++) {
      const y = -2 * h + (j + 0.5) * step
      if (dimension === 2) {
        sum += kernelValue(factors, Math.hypot(x, y)) * step * step
        continue
      }
      for (let k = 0; k < n; k++) {
        const z = -2 * h + (k + 0.5) * step
        sum += kernelValue(factors, Math.hypot(x, y, z)) * step ** 3
      }
    }
  }
  return sum
}

describe('kernels', () => {
  for (const kind of ['wendland', 'cubic'] as const) {
    for (const dimension of [2, 3] as const) {
      it(`${kind} integrates to 1 in ${dimension}D`, () => {
        expect(integrateKernel(kind, dimension, 0.013)).toBeCloseTo(1, 3)
      })
    }

    it(`${kind} vanishes at and beyond 2h`, () => {
      const factors = kernelFactors(kind, 0.5)
      expect(kernelValue(factors, 1)).toBe(0)
      expect(kernelValue(factors, 1.2)).toBe(0)
      expect(kernelGradientFactor(factors, 1)).toBe(0)
    })

    it(`${kind} has a negative gradient factor inside the support, matching dW/dr / r`, () => {
      const h = 0.02
      const factors = kernelFactors(kind, h)
      for (let q = 0.05; q < 1.99; q += 0.07) {
        const r = q * h
        const f = kernelGradientFactor(factors, r)
        expect(f).toBeLessThan(0)
        const dr = 1e-7 * h
        const derivative = (kernelValue(factors, r + dr) - kernelValue(factors, r - dr)) / (2 * dr)
        expect(f * r).toBeCloseTo(derivative, -Math.log10(Math.abs(derivative)) + 4)
      }
    })
  }
})
