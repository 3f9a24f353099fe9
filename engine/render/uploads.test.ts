import { BufferAttribute, BufferGeometry, Points } from 'three'
import { describe, expect, it } from 'vitest'
import { UploadCounter } from './uploads.ts'

describe('upload counter', () => {
  it('counts new attributes and indices once, and again only when they change', () => {
    const geometry = new BufferGeometry()
    geometry.setAttribute('px', new BufferAttribute(new Float32Array(100), 1))
    geometry.setIndex(new BufferAttribute(new Uint32Array(30), 1))
    const points = new Points(geometry)
    const counter = new UploadCounter()
    counter.countObjects([points])
    expect(counter.totalBytes()).toBe(400 + 120)
    counter.countObjects([points])
    expect(counter.totalBytes()).toBe(520)
    // A draw range (a detail level) is not an upload.
    geometry.setDrawRange(0, 10)
    counter.countObjects([points])
    expect(counter.totalBytes()).toBe(520)
    geometry.getAttribute('px').needsUpdate = true
    counter.countObjects([points])
    expect(counter.totalBytes()).toBe(920)
  })
})
