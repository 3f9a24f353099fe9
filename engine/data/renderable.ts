/**
 * Decoded object views as RenderableObjects: column offsets into the one buffer the payload lies
 * in (nothing copied), ready to transfer to the render worker.
 */
import type { ObjectView } from '../../domain/output/reader.ts'
import type { ColumnSlice, RenderableMesh, RenderableObject } from '../protocol.ts'

function columnSlices(
  columns: Record<string, Float32Array>,
  ranges: ObjectView['ranges'],
  units: ObjectView['units'],
  buffer: ArrayBufferLike,
): ColumnSlice[] {
  return Object.entries(columns).map(([name, values]) => {
    if (values.buffer !== buffer) throw new Error(`Column ${name} is not in the payload's buffer.`)
    return {
      name,
      byteOffset: values.byteOffset,
      length: values.length,
      range: ranges[name] ?? null,
      unit: units[name] ?? '',
    }
  })
}

/**
 * A RenderableObject over the buffer the view's columns lie in: column offsets only, no copy.
 * A mask object has one Uint8 column `inside`.
 */
export function buildRenderableObject(view: ObjectView): RenderableObject {
  const buffer = (view.mask ?? view.columns.x)!.buffer as ArrayBuffer
  const columns =
    view.mask !== null
      ? [
          {
            name: 'inside',
            byteOffset: view.mask.byteOffset,
            length: view.mask.length,
            range: null,
            unit: '',
          },
        ]
      : columnSlices(view.columns, view.ranges, view.units, buffer)
  let mesh: RenderableMesh | null = null
  if (view.mesh !== null) {
    mesh = {
      buffer,
      columns: columnSlices(view.mesh.columns, view.mesh.ranges, view.mesh.units, buffer),
      indices: { byteOffset: view.mesh.indices.byteOffset, length: view.mesh.indices.length },
      triangleCount: view.mesh.triangleCount,
    }
    if (view.mesh.indices.buffer !== buffer) throw new Error('Mesh indices are not in the payload.')
  }
  return {
    objectId: view.meta.objectId,
    kind: view.meta.objectKind,
    name: view.meta.objectId,
    dataset: view.meta.dataset === 'fast' ? 'fast' : 'full',
    particleCount: view.rowCount,
    buffer,
    columns,
    mesh,
    materialId: view.meta.materialId,
    targetObjectId: view.meta.targetObjectId,
  }
}
