import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ssh2 from 'ssh2'
import { afterEach, describe, expect, it } from 'vitest'
import { loadHostKey } from './sftpServer.ts'

const { utils } = ssh2
const parses = (key: string) => !(utils.parseKey(key) instanceof Error)
const dirs: string[] = []
const freshPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dive-sftp-key-'))
  dirs.push(dir)
  return join(dir, 'vms', 'sftp_host_ed25519_key')
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('the SFTP host key', () => {
  it('is made once and kept: servers starting together on one data dir get the same key', async () => {
    const path = freshPath()
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadHostKey(path)))
    expect(new Set(keys).size).toBe(1)
    expect(parses(keys[0]!)).toBe(true)
    expect(await loadHostKey(path)).toBe(keys[0])
  })

  it('replaces a kept key that ssh2 cannot parse (its generator writes one now and then)', async () => {
    let malformed: string | null = null
    while (malformed === null) {
      const key = utils.generateKeyPairSync('ed25519').private
      if (!parses(key)) malformed = key
    }
    const path = freshPath()
    await loadHostKey(path) // makes the folder
    writeFileSync(path, malformed)
    const key = await loadHostKey(path)
    expect(key).not.toBe(malformed)
    expect(parses(key)).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe(key)
  })
})
