import { lstat } from 'node:fs/promises'
import { join } from 'node:path'

/*
 * The SFTP session's jail: every path a client names is read as a path under the VM's storage
 * folder ('/' is that folder). A path that climbs above it ('..' past the root) is refused, not
 * clamped, and no symbolic link is followed anywhere on the way: the sandbox can write links in
 * its home that point anywhere on the server, so a link is refused as a whole.
 */

/** A client's path inside the jail: `virtual` as the client sees it, `host` on the server. */
export interface JailedPath {
  virtual: string
  host: string
  /** The path's parts below the root (empty: the root itself). */
  parts: string[]
}

/** Why a path was refused. */
export type JailRefusal = 'escape' | 'symlink'

/**
 * Resolves a client's path (absolute, or relative to the root, which is the session's only
 * working directory) inside `root`; null when it climbs above the root or holds a NUL.
 */
export function jailPath(root: string, requested: string): JailedPath | null {
  if (requested.includes('\0')) return null
  const parts: string[] = []
  for (const part of requested.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (parts.length === 0) return null
      parts.pop()
      continue
    }
    parts.push(part)
  }
  return { virtual: `/${parts.join('/')}`, host: join(root, ...parts), parts }
}

/**
 * Whether any existing part of the path (the root excluded) is a symbolic link. Parts that do not
 * exist yet (a file about to be created) end the walk: nothing below them can exist.
 */
export async function crossesSymlink(root: string, path: JailedPath): Promise<boolean> {
  let current = root
  for (const part of path.parts) {
    current = join(current, part)
    try {
      if ((await lstat(current)).isSymbolicLink()) return true
    } catch {
      return false
    }
  }
  return false
}
