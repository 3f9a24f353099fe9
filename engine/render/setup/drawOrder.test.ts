import { describe, expect, it } from 'vitest'
import {
  MAX_OFFSET_RANK,
  offsetRanks,
  RENDER_ORDER,
  surfaceOffsetSteps,
  TRANSLUCENT_OFFSET_STEPS,
  translucentSlots,
} from './drawOrder.ts'

describe('setup draw order', () => {
  it('draws translucent objects back to front: the farthest gets the lowest renderOrder', () => {
    const [near, far, middle] = translucentSlots([2, 9, 5])
    expect(far!.surface).toBeLessThan(middle!.surface)
    expect(middle!.surface).toBeLessThan(near!.surface)
    // The whole of a farther object (particles, surface, edges, rim) comes before a nearer one.
    expect(far!.rim).toBeLessThan(middle!.particles)
  })

  it('draws in a slot the particles, then the surface, its edges and its rim', () => {
    const [slot] = translucentSlots([1])
    expect(slot!.particles).toBeLessThan(slot!.surface)
    expect(slot!.surface).toBeLessThan(slot!.edges)
    expect(slot!.edges).toBeLessThan(slot!.rim)
  })

  it('keeps every translucent slot after the opaque rims and before what is drawn on top', () => {
    const slots = translucentSlots(Array.from({ length: 500 }, (_, i) => i))
    for (const slot of slots) {
      expect(slot.particles).toBeGreaterThan(RENDER_ORDER.opaqueRim)
      expect(slot.rim).toBeLessThan(RENDER_ORDER.meshHealth)
    }
    expect(RENDER_ORDER.meshHealth).toBeLessThan(RENDER_ORDER.gizmo)
  })

  it('keeps equal depths in their order', () => {
    const [first, second] = translucentSlots([3, 3])
    expect(first!.surface).toBeLessThan(second!.surface)
  })

  it('pushes bigger surfaces further back, so the object inside shows on a shared face', () => {
    // A tank (diagonal 1.0), the water column in its corner (0.55), a sensor mesh (0.1).
    const [tank, water, sensor] = offsetRanks([1.0, 0.55, 0.1])
    expect(sensor).toBe(0)
    expect(water).toBeGreaterThan(sensor!)
    expect(tank).toBeGreaterThan(water!)
    // Equal sizes are still told apart; ranks stop at MAX_OFFSET_RANK.
    expect(new Set(offsetRanks([1, 1])).size).toBe(2)
    expect(Math.max(...offsetRanks(Array.from({ length: 30 }, (_, i) => i)))).toBe(MAX_OFFSET_RANK)
  })

  it('pulls a translucent surface forward over the opaque faces it shares', () => {
    expect(surfaceOffsetSteps(3, false)).toBe(3)
    expect(surfaceOffsetSteps(3, true)).toBe(TRANSLUCENT_OFFSET_STEPS)
    expect(TRANSLUCENT_OFFSET_STEPS).toBeLessThan(0)
  })
})
