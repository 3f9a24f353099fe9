import { describe, expect, it } from 'vitest'
import { slidingLayerLoss } from './slidingLayer.ts'

// a layer 3 cm thick sliding at 1 m/s along the floor, dp 1 cm (slidingLayer.ts)
describe("free-slip walls in the viscous sums (options.freeSlipViscosity 'mirror')", () => {
  it('fills the support without braking a layer that slides along the wall', async () => {
    const mirrored = await slidingLayerLoss(0.01, 'slip', { freeSlipViscosity: 'mirror' })
    const noSlip = await slidingLayerLoss(0.01, 'no_slip', {})
    // the no-slip floor's pair viscosity brakes the layer (0.024); a free-slip floor in the sums
    // with the fluid's own tangential velocity hardly does (0.003, the collapsing block's own
    // velocity differences across the wall's support; left out of the sums: 0.000006), where a
    // mirror of the whole velocity, as no-slip takes, would brake it like the no-slip floor
    expect(noSlip).toBeGreaterThan(0.01)
    expect(Math.abs(mirrored)).toBeLessThan(0.2 * noSlip)
  }, 90_000)
})
