import { describe, expect, it } from 'vitest'
import {
  decodePointCloudFile,
  encodePointCloudFile,
  POINT_CLOUD_FILE_HEADER_BYTES,
  PointCloudFileError,
} from './pointCloudFile.ts'

describe('point cloud file', () => {
  it('round-trips positions as Float32', () => {
    const positions = new Float64Array([0.1, 0.2, 0.3, -1, 2.5, 1e-3])
    const decoded = decodePointCloudFile(encodePointCloudFile(positions))
    expect(decoded.count).toBe(2)
    expect(Array.from(decoded.positions)).toEqual(Array.from(new Float32Array(positions)))
  })

  it('reads bytes that sit at an offset of a larger buffer', () => {
    const bytes = encodePointCloudFile([1, 2, 3])
    const padded = new Uint8Array(bytes.length + 8)
    padded.set(bytes, 8)
    expect(Array.from(decodePointCloudFile(padded.subarray(8)).positions)).toEqual([1, 2, 3])
  })

  it('refuses a wrong magic, a wrong version and a size that does not match the count', () => {
    const bytes = encodePointCloudFile([1, 2, 3])
    const wrongMagic = bytes.slice()
    wrongMagic[0] = 0
    expect(() => decodePointCloudFile(wrongMagic)).toThrow('Not a point cloud file.')
    const wrongVersion = bytes.slice()
    new DataView(wrongVersion.buffer).setUint32(4, 9, true)
    expect(() => decodePointCloudFile(wrongVersion)).toThrow('version 9 is not supported')
    expect(() => decodePointCloudFile(bytes.subarray(0, bytes.length - 4))).toThrow(
      PointCloudFileError,
    )
    expect(() =>
      decodePointCloudFile(bytes.subarray(0, POINT_CLOUD_FILE_HEADER_BYTES - 1)),
    ).toThrow('shorter than its header')
  })
})
