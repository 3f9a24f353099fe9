import { afterEach, describe, expect, it } from 'vitest'
import { unitCube } from '../../data/testing.ts'
import {
  createSetupHarness,
  partView,
  type ServedResource,
  type SetupHarness,
} from './setupHarness.ts'

const harnesses: SetupHarness[] = []
afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.dispose()
})

async function start(): Promise<SetupHarness> {
  const served = new Map<string, ServedResource>([
    ['/api/parts/part:1/mesh?v=a', { mesh: unitCube() }],
  ])
  const harness = await createSetupHarness(served)
  harnesses.push(harness)
  harness.engine.dispatch({
    type: 'setup_objects',
    objects: [partView('part:1', 'a', [-0.5, -0.5, -0.5])],
    endTimeS: null,
  })
  await harness.flush()
  return harness
}

describe('hover answers', () => {
  it('reports the hovered part when its pointermove comes, before any frame is drawn', async () => {
    const harness = await start()
    const renders = harness.scene.renders
    const sent = harness.snapshots.length
    const centre = harness.screenOf([0, 0, 0.5])
    harness.pointer('pointermove', centre.x, centre.y, { buttons: 0 })
    // No frame ran: the answer went out with the event (a frame may be far off on a busy GPU).
    expect(harness.scene.renders).toBe(renders)
    expect(harness.snapshots.length).toBe(sent + 1)
    expect(harness.setup().hovered).toBe('part:1')
    // The highlight is drawn by the next frame.
    await harness.advance(16)
    expect(harness.scene.renders).toBeGreaterThan(renders)
    // Moving off it, past the 30 ms throttle: answered at once again.
    await harness.advance(40)
    harness.pointer('pointermove', 2, 2, { buttons: 0 })
    expect(harness.setup().hovered).toBeNull()
  })

  it('does not pick under a camera drag', async () => {
    const harness = await start()
    const centre = harness.screenOf([0, 0, 0.5])
    harness.pointer('pointerdown', centre.x - 40, centre.y)
    harness.pointer('pointermove', centre.x, centre.y)
    expect(harness.setup().hovered).toBeNull()
    await harness.advance(16)
    expect(harness.setup().hovered).toBeNull()
  })
})
