import { constants, type Stats } from 'node:fs'
import {
  chown,
  lstat,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  rmdir,
  type FileHandle,
} from 'node:fs/promises'
import ssh2, { type Attributes, type FileEntry, type SFTPWrapper } from 'ssh2'
import { crossesSymlink, jailPath, type JailedPath } from './sftpPaths.ts'

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp

/*
 * One SFTP session's file operations, all inside the VM's storage folder (sftpPaths.ts): list,
 * stat, read, write, create folders, rename and remove. Links are neither followed nor created,
 * files open with O_NOFOLLOW, and what is created belongs to the sandbox's user (nobody when the
 * server runs as root) so the VM's desktop can change it too.
 */

/** The user the sandboxes run as when the server runs as root (localProvider.ts). */
const NOBODY = 65534

/** What the session asks of the server around writes. */
export interface SftpSessionHooks {
  /** Bytes the organization may still add (Infinity without a limit), read when a file opens to write. */
  roomBytes: () => Promise<number>
  /** The message a write past the room is refused with. */
  fullMessage: () => Promise<string>
  /** Something in the folder changed (a write closed, a remove, a rename): measure it again. */
  changed: () => void
}

interface OpenFile {
  kind: 'file'
  file: FileHandle
  /** Size when opened, and bytes written past it so far (what the storage limit counts). */
  sizeBytes: number
  grownBytes: number
  roomBytes: number
  writable: boolean
}

interface OpenDirectory {
  kind: 'dir'
  path: JailedPath
  sent: boolean
}

class Refusal extends Error {
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

const denied = (message = 'Permission denied') =>
  new Refusal(STATUS_CODE.PERMISSION_DENIED, message)

function toAttributes(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  }
}

/** `ls -l`'s line for an entry (what OpenSSH's `ls -l` prints). */
function longName(name: string, stats: Stats): string {
  const type = stats.isDirectory() ? 'd' : stats.isSymbolicLink() ? 'l' : '-'
  const bits = 'rwxrwxrwx'
    .split('')
    .map((letter, i) => (stats.mode & (1 << (8 - i)) ? letter : '-'))
    .join('')
  const date = new Date(stats.mtimeMs).toUTCString().slice(5, 22)
  return `${type}${bits} 1 vm vm ${String(stats.size).padStart(12)} ${date} ${name}`
}

function openFlags(flags: number): number {
  const read = (flags & OPEN_MODE.READ) !== 0
  const write = (flags & OPEN_MODE.WRITE) !== 0
  let result = read && write ? constants.O_RDWR : write ? constants.O_WRONLY : constants.O_RDONLY
  if (flags & OPEN_MODE.CREAT) result |= constants.O_CREAT
  if (flags & OPEN_MODE.TRUNC) result |= constants.O_TRUNC
  if (flags & OPEN_MODE.EXCL) result |= constants.O_EXCL
  if (flags & OPEN_MODE.APPEND) result |= constants.O_APPEND
  return result | constants.O_NOFOLLOW
}

function statusOf(error: unknown): { code: number; message: string } {
  if (error instanceof Refusal) return { code: error.code, message: error.message }
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return { code: STATUS_CODE.NO_SUCH_FILE, message: 'No such file' }
  if (code === 'EACCES' || code === 'EPERM' || code === 'ELOOP')
    return { code: STATUS_CODE.PERMISSION_DENIED, message: 'Permission denied' }
  return { code: STATUS_CODE.FAILURE, message: code ?? 'Failure' }
}

/** Serves one SFTP session rooted at `root` (the VM's storage folder). */
export function serveSftpSession(sftp: SFTPWrapper, root: string, hooks: SftpSessionHooks): void {
  const handles = new Map<number, OpenFile | OpenDirectory>()
  let nextHandle = 1
  const ownedBySandbox = process.getuid?.() === 0

  const resolve = async (requested: string): Promise<JailedPath> => {
    const path = jailPath(root, requested)
    if (!path) throw denied('The path leaves the VM storage')
    if (await crossesSymlink(root, path)) throw denied('Links are not followed')
    return path
  }
  const newHandle = (entry: OpenFile | OpenDirectory): Buffer => {
    const id = nextHandle++
    handles.set(id, entry)
    const buffer = Buffer.alloc(4)
    buffer.writeUInt32BE(id)
    return buffer
  }
  const handleOf = (buffer: Buffer) => {
    const entry = buffer.length === 4 ? handles.get(buffer.readUInt32BE(0)) : undefined
    if (!entry) throw new Refusal(STATUS_CODE.FAILURE, 'Invalid handle')
    return { id: buffer.readUInt32BE(0), entry }
  }
  const fileOf = (buffer: Buffer): OpenFile => {
    const { entry } = handleOf(buffer)
    if (entry.kind !== 'file') throw new Refusal(STATUS_CODE.FAILURE, 'Not a file handle')
    return entry
  }
  const own = async (path: string) => {
    if (ownedBySandbox) await chown(path, NOBODY, NOBODY)
  }
  /** Runs one request; a thrown error becomes its status. */
  const serve = (reqId: number, work: () => Promise<void>) => {
    Promise.resolve()
      .then(work)
      .catch((error: unknown) => {
        const { code, message } = statusOf(error)
        sftp.status(reqId, code, message)
      })
  }
  const ok = (reqId: number) => sftp.status(reqId, STATUS_CODE.OK)

  sftp.on('REALPATH', (reqId, requested) =>
    serve(reqId, async () => {
      const path = await resolve(requested)
      sftp.name(reqId, [
        { filename: path.virtual, longname: path.virtual, attrs: {} as Attributes },
      ])
    }),
  )
  const statPath = (reqId: number, requested: string) =>
    serve(reqId, async () => {
      const path = await resolve(requested)
      sftp.attrs(reqId, toAttributes(await lstat(path.host)))
    })
  sftp.on('STAT', statPath)
  sftp.on('LSTAT', statPath)
  sftp.on('FSTAT', (reqId, buffer) =>
    serve(reqId, async () => sftp.attrs(reqId, toAttributes(await fileOf(buffer).file.stat()))),
  )
  // Attribute changes (modes, times) are accepted and left as they are: the folder stays the sandbox's.
  sftp.on('SETSTAT', (reqId, requested) =>
    serve(reqId, async () => {
      await resolve(requested)
      ok(reqId)
    }),
  )
  sftp.on('FSETSTAT', (reqId, buffer) =>
    serve(reqId, () => {
      fileOf(buffer)
      ok(reqId)
      return Promise.resolve()
    }),
  )

  sftp.on('OPENDIR', (reqId, requested) =>
    serve(reqId, async () => {
      const path = await resolve(requested)
      if (!(await lstat(path.host)).isDirectory())
        throw new Refusal(STATUS_CODE.FAILURE, 'Not a directory')
      sftp.handle(reqId, newHandle({ kind: 'dir', path, sent: false }))
    }),
  )
  sftp.on('READDIR', (reqId, buffer) =>
    serve(reqId, async () => {
      const { entry } = handleOf(buffer)
      if (entry.kind !== 'dir') throw new Refusal(STATUS_CODE.FAILURE, 'Not a directory handle')
      if (entry.sent) return sftp.status(reqId, STATUS_CODE.EOF)
      entry.sent = true
      const names: FileEntry[] = []
      for (const name of await readdir(entry.path.host)) {
        const stats = await lstat(`${entry.path.host}/${name}`).catch(() => null)
        if (stats)
          names.push({
            filename: name,
            longname: longName(name, stats),
            attrs: toAttributes(stats),
          })
      }
      if (names.length === 0) return sftp.status(reqId, STATUS_CODE.EOF)
      sftp.name(reqId, names)
    }),
  )

  sftp.on('OPEN', (reqId, requested, flags) =>
    serve(reqId, async () => {
      const path = await resolve(requested)
      if (path.parts.length === 0) throw new Refusal(STATUS_CODE.FAILURE, 'Not a file')
      const writable = (flags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND)) !== 0
      const roomBytes = writable ? await hooks.roomBytes() : 0
      if (writable && !(roomBytes > 0))
        throw new Refusal(STATUS_CODE.FAILURE, await hooks.fullMessage())
      const existed = await lstat(path.host).then(
        () => true,
        () => false,
      )
      const file = await open(path.host, openFlags(flags), 0o644)
      if (!existed) await own(path.host)
      const stats = await file.stat()
      if (!stats.isFile()) {
        await file.close()
        throw new Refusal(STATUS_CODE.FAILURE, 'Not a file')
      }
      sftp.handle(
        reqId,
        newHandle({
          kind: 'file',
          file,
          sizeBytes: stats.size,
          grownBytes: 0,
          roomBytes,
          writable,
        }),
      )
    }),
  )
  sftp.on('READ', (reqId, buffer, offset, length) =>
    serve(reqId, async () => {
      const file = fileOf(buffer)
      const data = Buffer.alloc(Math.min(length, 256 * 1024))
      const { bytesRead } = await file.file.read(data, 0, data.length, offset)
      if (bytesRead === 0) return sftp.status(reqId, STATUS_CODE.EOF)
      sftp.data(reqId, data.subarray(0, bytesRead))
    }),
  )
  sftp.on('WRITE', (reqId, buffer, offset, data) =>
    serve(reqId, async () => {
      const file = fileOf(buffer)
      if (!file.writable) throw denied('The file is open for reading')
      const end = offset + data.length
      const grown = Math.max(0, end - file.sizeBytes - file.grownBytes)
      if (file.grownBytes + grown > file.roomBytes)
        throw new Refusal(STATUS_CODE.FAILURE, await hooks.fullMessage())
      await file.file.write(data, 0, data.length, offset)
      file.grownBytes += grown
      ok(reqId)
    }),
  )
  sftp.on('CLOSE', (reqId, buffer) =>
    serve(reqId, async () => {
      const { id, entry } = handleOf(buffer)
      handles.delete(id)
      if (entry.kind === 'file') {
        await entry.file.close()
        if (entry.writable) hooks.changed()
      }
      ok(reqId)
    }),
  )

  sftp.on('REMOVE', (reqId, requested) =>
    serve(reqId, async () => {
      const path = await resolve(requested)
      if ((await lstat(path.host)).isDirectory())
        throw new Refusal(STATUS_CODE.FAILURE, 'Is a directory')
      await rm(path.host)
      hooks.changed()
      ok(reqId)
    }),
  )
  sftp.on('RMDIR', (reqId, requested) =>
    serve(reqId, async () => {
      const path = await resolve(requested)
      if (path.parts.length === 0) throw denied()
      await rmdir(path.host)
      hooks.changed()
      ok(reqId)
    }),
  )
  sftp.on('MKDIR', (reqId, requested) =>
    serve(reqId, async () => {
      const path = await resolve(requested)
      await mkdir(path.host, { mode: 0o755 })
      await own(path.host)
      ok(reqId)
    }),
  )
  sftp.on('RENAME', (reqId, from, to) =>
    serve(reqId, async () => {
      const source = await resolve(from)
      const target = await resolve(to)
      if (source.parts.length === 0 || target.parts.length === 0) throw denied()
      await rename(source.host, target.host)
      hooks.changed()
      ok(reqId)
    }),
  )
  const unsupported = (reqId: number) =>
    sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED, 'Links are not supported')
  sftp.on('READLINK', unsupported)
  sftp.on('SYMLINK', unsupported)
  sftp.on('EXTENDED', unsupported)

  // The client is done (OpenSSH's sftp at the end of its batch): close the channel, or it waits.
  sftp.on('end', () => sftp.end())
  sftp.on('close', () => {
    for (const entry of handles.values()) if (entry.kind === 'file') void entry.file.close()
    handles.clear()
  })
}
