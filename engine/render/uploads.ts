/**
 * Counts the bytes three.js uploads to the GPU: an attribute (or index) whose version the counter
 * has not seen is uploaded whole at the next draw. The snapshot reports the running total, so a
 * bench can prove that a detail, scheme or range change uploads nothing.
 */
import type { BufferAttribute, BufferGeometry, InterleavedBufferAttribute, Object3D } from 'three'

/** Running total of uploaded bytes over the objects drawn. */
export class UploadCounter {
  #seen = new WeakMap<object, number>()
  #totalBytes = 0

  /** Adds what drawing these objects uploads now (new or changed attributes and indices). */
  countObjects(objects: readonly Object3D[]): void {
    for (const object of objects) {
      const geometry = (object as Object3D & { geometry?: BufferGeometry }).geometry
      if (geometry === undefined) continue
      for (const attribute of Object.values(geometry.attributes)) this.#count(attribute)
      if (geometry.index !== null) this.#count(geometry.index)
    }
  }

  /** Bytes uploaded since creation. */
  totalBytes(): number {
    return this.#totalBytes
  }

  #count(attribute: BufferAttribute | InterleavedBufferAttribute): void {
    if ('isInterleavedBufferAttribute' in attribute) return
    if (this.#seen.get(attribute) === attribute.version) return
    this.#seen.set(attribute, attribute.version)
    this.#totalBytes += attribute.array.byteLength
  }
}
