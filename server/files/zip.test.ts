import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  listZipEntries,
  listZipFileEntries,
  writeZip,
  ZipFormatError,
  type ZipSource,
} from './zip.ts'

function source(name: string, ...chunks: Uint8Array[]): ZipSource {
  return {
    name,
    async *chunks() {
      for (const chunk of chunks) yield await Promise.resolve(chunk)
    },
  }
}

async function collect(sources: ZipSource[]): Promise<Buffer> {
  const parts: Uint8Array[] = []
  for await (const part of writeZip(sources)) parts.push(part)
  return Buffer.concat(parts)
}

function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'import zipfile'])
    return true
  } catch {
    return false
  }
}

describe('zip archives', () => {
  const big = new Uint8Array(300_000).map((_, index) => index % 251)

  it('lists what it wrote, with sizes, names in UTF-8 and files split over chunks', async () => {
    const archive = await collect([
      source('jobfile_0.json', Buffer.from('{"a":1}')),
      source('outputs/000001/fluid-1.full.arrow', big.subarray(0, 1000), big.subarray(1000)),
      source('empty.txt'),
      source('Düse.txt', Buffer.from('x')),
    ])
    expect(listZipEntries(archive)).toEqual([
      { name: 'jobfile_0.json', size: 7 },
      { name: 'outputs/000001/fluid-1.full.arrow', size: big.length },
      { name: 'empty.txt', size: 0 },
      { name: 'Düse.txt', size: 1 },
    ])
  })

  it('reads the directory of an archive on disk from its end', async () => {
    const archive = await collect([source('a.bin', big), source('b.json', Buffer.from('{}'))])
    const path = join(mkdtempSync(join(tmpdir(), 'dive-zip-')), 'x.zip')
    writeFileSync(path, archive)
    expect((await listZipFileEntries(path)).map((entry) => entry.name)).toEqual(['a.bin', 'b.json'])
  })

  it.runIf(hasPython())(
    'writes archives that a standard unzip verifies byte for byte',
    async () => {
      const archive = await collect([
        source('a.bin', big),
        source('dir/b.txt', Buffer.from('hello')),
      ])
      const path = join(mkdtempSync(join(tmpdir(), 'dive-zip-')), 'x.zip')
      writeFileSync(path, archive)
      const script =
        'import sys, zipfile, zlib\n' +
        'z = zipfile.ZipFile(sys.argv[1])\n' +
        'assert z.testzip() is None\n' +
        'print(";".join(f"{i.filename}:{i.file_size}:{zlib.crc32(z.read(i))}" for i in z.infolist()))'
      const listing = execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }).trim()
      expect(listing).toBe(
        `a.bin:${big.length}:${crc32(big)};dir/b.txt:5:${crc32(Buffer.from('hello'))}`,
      )
    },
  )

  it('refuses bytes that are not an archive, and a damaged directory', async () => {
    expect(() => listZipEntries(Buffer.from('PNG not a zip at all, just text'))).toThrow(
      ZipFormatError,
    )
    const archive = await collect([source('a.txt', Buffer.from('abc'))])
    const damaged = Buffer.from(archive)
    damaged.writeUInt32LE(0, damaged.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])))
    expect(() => listZipEntries(damaged)).toThrow('The ZIP archive is damaged.')
  })
})
