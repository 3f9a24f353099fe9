import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { listZipEntries } from '../files/zip.ts'
import { storedZipSizeBytes, streamArchive } from './archive.ts'

it('announces the exact size of the archive it streams, UTF-8 names included', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'dive-archive-'))
  try {
    const entries = [
      { name: 'Wasser_Ü_000001.vtu', bytes: Buffer.alloc(70_001, 7) },
      { name: 'logs.csv', bytes: Buffer.from('a;b\n1;2\n') },
      { name: 'empty.json', bytes: Buffer.alloc(0) },
    ].map((entry) => {
      const path = join(directory, entry.name)
      writeFileSync(path, entry.bytes)
      return { ...entry, path }
    })
    const chunks: Uint8Array[] = []
    for await (const chunk of streamArchive(entries)) chunks.push(chunk)
    const archive = Buffer.concat(chunks)
    expect(
      storedZipSizeBytes(entries.map((e) => ({ name: e.name, sizeBytes: e.bytes.length }))),
    ).toBe(archive.length)
    expect(listZipEntries(archive)).toEqual(
      entries.map((e) => ({ name: e.name, size: e.bytes.length })),
    )
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
})
