import { Color, LineSegments, type BufferGeometry, type ShaderMaterial } from 'three'
import { afterEach, describe, expect, it } from 'vitest'
import { unitCube } from '../../data/testing.ts'
import { DEFECT_MARKER_COLOUR } from './defectMarker.ts'
import {
  createSetupHarness,
  partView,
  type ServedResource,
  type SetupHarness,
} from './setupHarness.ts'

/*
 * The setup scene's defect marker through the engine (engine/setupProtocol.ts
 * 'setup_defect_marker'): the rings of the defect the Mesh Check dialog zoomed to, shown only in
 * mesh-health mode, and both reported in the snapshot.
 */

const harnesses: SetupHarness[] = []
afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.dispose()
})

const centred = partView('part:1', 'a', [-0.5, -0.5, -0.5])

function colourOf(material: ShaderMaterial): string {
  return `#${(material.uniforms.uColour!.value as Color).getHexString()}`
}

describe('setup scene: the mesh defect marker', () => {
  it('rings the defect zoomed to while mesh-health mode is on, and reports both', async () => {
    const harness = await createSetupHarness(
      new Map<string, ServedResource>([['/api/parts/part:1/mesh?v=a', { mesh: unitCube() }]]),
    )
    harnesses.push(harness)
    harness.engine.dispatch({ type: 'setup_objects', objects: [centred], endTimeS: 1 })
    await harness.flush()
    const marker = () => harness.objects().filter((o) => o.name === 'defect-marker')
    harness.engine.dispatch({
      type: 'setup_defect_marker',
      marker: { center: [0, 0, 0.5], sizeM: 0.2 },
    })
    await harness.flush()
    // Mesh-health mode is off: the rings wait hidden.
    expect(marker().map((o) => o.visible)).toEqual([false])
    expect(harness.setup().meshHealth).toBe(false)
    harness.engine.dispatch({ type: 'setup_mesh_health', enabled: true })
    await harness.flush()
    expect(marker().map((o) => o.visible)).toEqual([true])
    expect(colourOf((marker()[0] as LineSegments<BufferGeometry, ShaderMaterial>).material)).toBe(
      DEFECT_MARKER_COLOUR,
    )
    expect(harness.setup()).toMatchObject({
      meshHealth: true,
      defectMarker: { center: [0, 0, 0.5], sizeM: 0.2 },
    })
    // Another defect replaces the rings; none removes them.
    harness.engine.dispatch({
      type: 'setup_defect_marker',
      marker: { center: [0.5, 0, 0], sizeM: 0.1 },
    })
    await harness.flush()
    expect(marker()).toHaveLength(1)
    harness.engine.dispatch({ type: 'setup_defect_marker', marker: null })
    await harness.flush()
    expect(marker()).toHaveLength(0)
    expect(harness.setup().defectMarker).toBeNull()
  })
})
