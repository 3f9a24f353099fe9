import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { BUNDLE_PIECE_BYTES, BundleBody, parseRangeHeader } from './bundleBody.ts'
import type { PreparedBundle } from './bundleStream.ts'

describe('parseRangeHeader', () => {
  it('reads one range, an open end and a suffix, clamped to the body', () => {
    expect(parseRangeHeader('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 })
    expect(parseRangeHeader('bytes=900-', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRangeHeader('bytes=-100', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRangeHeader('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 })
    expect(parseRangeHeader('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 })
  })

  it('ignores what it cannot serve as one range and refuses a range past the end', () => {
    expect(parseRangeHeader(undefined, 1000)).toBeNull()
    expect(parseRangeHeader('bytes=0-1,5-9', 1000)).toBeNull()
    expect(parseRangeHeader('items=0-9', 1000)).toBeNull()
    expect(parseRangeHeader('bytes=9-1', 1000)).toBeNull()
    expect(parseRangeHeader('bytes=-', 1000)).toBeNull()
    expect(parseRangeHeader('bytes=1000-', 1000)).toBe('unsatisfiable')
    expect(parseRangeHeader('bytes=-0', 1000)).toBe('unsatisfiable')
  })
})

describe('BundleBody', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dive-bundle-body-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  // Two files, the first over two pieces long, laid out after an 8-byte header with padding.
  const first = new Uint8Array(2 * BUNDLE_PIECE_BYTES + 12_345).map((_, i) => (i * 7) & 0xff)
  const second = new Uint8Array(1000).map((_, i) => (i * 13 + 5) & 0xff)
  writeFileSync(join(dir, 'a.arrow'), first)
  writeFileSync(join(dir, 'b.arrow'), second)
  const header = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])
  const secondOffset = 8 + first.length + 3
  const bundle: Pick<PreparedBundle, 'header' | 'files' | 'offsets'> = {
    header,
    files: [
      { objectId: 'a', path: join(dir, 'a.arrow'), sizeBytes: first.length, modifiedMs: 0 },
      { objectId: 'b', path: join(dir, 'b.arrow'), sizeBytes: second.length, modifiedMs: 0 },
    ],
    offsets: [8, secondOffset],
  }
  const expected = new Uint8Array(secondOffset + second.length)
  expected.set(header, 0)
  expected.set(first, 8)
  expected.set(second, secondOffset)

  const viaPipe = async (range: { start: number; end: number }) => {
    const sink = new PassThrough()
    const chunks: Buffer[] = []
    sink.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)))
    const ended = new Promise((resolve) => sink.on('end', resolve))
    new BundleBody(bundle, range).pipe(sink)
    await ended
    return new Uint8Array(Buffer.concat(chunks))
  }
  const viaRead = async (range: { start: number; end: number }) => {
    const chunks: Buffer[] = []
    for await (const chunk of new BundleBody(bundle, range)) chunks.push(chunk as Buffer)
    return new Uint8Array(Buffer.concat(chunks))
  }

  it('writes the header, the padding and every file, piped or read', async () => {
    const whole = { start: 0, end: expected.length - 1 }
    expect(Buffer.from(await viaPipe(whole)).equals(Buffer.from(expected))).toBe(true)
    expect(Buffer.from(await viaRead(whole)).equals(Buffer.from(expected))).toBe(true)
  })

  it('sends exactly a range that spans the header, a piece boundary and the second file', async () => {
    for (const range of [
      { start: 3, end: 20 },
      { start: BUNDLE_PIECE_BYTES - 5, end: BUNDLE_PIECE_BYTES + 20 },
      { start: secondOffset - 10, end: expected.length - 1 },
    ]) {
      const bytes = await viaPipe(range)
      expect(
        Buffer.from(bytes).equals(Buffer.from(expected.subarray(range.start, range.end + 1))),
      ).toBe(true)
    }
  })

  it('fails the stream when a file is shorter than announced', async () => {
    const short: typeof bundle = {
      ...bundle,
      files: [{ ...bundle.files[1]!, sizeBytes: second.length + 10 }],
      offsets: [8],
    }
    const body = new BundleBody(short, { start: 0, end: 8 + second.length + 9 })
    await expect(
      (async () => {
        for await (const chunk of body) void chunk
      })(),
    ).rejects.toThrow(/shrank/)
  })
})
