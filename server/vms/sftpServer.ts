import { randomUUID, timingSafeEqual } from 'node:crypto'
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import type { Kysely } from 'kysely'
import ssh2, { type Connection } from 'ssh2'
import { NO_STORAGE_LIMIT_FEATURE, storageFullMessage } from '../../domain/storage.ts'
import type { Database } from '../db/schema.ts'
import { organizationConsumedBytes } from '../storage/usage.ts'
import { serveSftpSession } from './sftpSession.ts'
import { refreshVmStorageBytes, vmStorageDirectory } from './storageUsage.ts'
import type { RemoteVmRow } from './vmRecords.ts'

/*
 * The VMs' SFTP endpoint (issue 20 item 5): one SSH listener for the server (ssh2's server, a host
 * key kept under the data directory so clients see the same key after a restart). The user is the
 * VM's id, the password the VM's own; only a running VM accepts, and its session is rooted at that
 * VM's storage folder (sftpSession.ts) with nothing else: no shell, no exec, no forwarding. A
 * wrong password, another VM's password or a VM out of reach read alike: authentication fails.
 */

const { Server, utils } = ssh2

export interface VmSftpOptions {
  db: Kysely<Database>
  dataDir: string
  /** Address to listen on and port (0: any free port). */
  host: string
  port: number
  /** Host name written in sftpUrl (default: the listen address, or localhost for a wildcard). */
  publicHost?: string
  log: (line: string) => void
}

/** Where the SFTP host key lives under the data directory. */
export function sftpHostKeyPath(dataDir: string): string {
  return join(dataDir, 'vms', 'sftp_host_ed25519_key')
}

/** The kept host key, made on first use (private to the server: mode 0600). */
/**
 * A new ed25519 host key in OpenSSH form. ssh2's generator writes a malformed key about 1 time in
 * 250 (a public key with a leading zero byte comes out 31 bytes long), which its own parser and
 * Server refuse: draw again until it parses.
 */
function newHostKey(): string {
  for (;;) {
    const key = utils.generateKeyPairSync('ed25519').private
    if (!(utils.parseKey(key) instanceof Error)) return key
  }
}

const parses = (key: string) => !(utils.parseKey(key) instanceof Error)

export async function loadHostKey(path: string): Promise<string> {
  const kept = await readFile(path, 'utf8').catch(() => null)
  if (kept !== null && parses(kept)) return kept
  // Servers sharing a data dir may start together: the key appears whole (written aside, then
  // linked into place), and only the first one made is kept. A kept key that does not parse
  // (written by the malformed generator above) is replaced.
  await mkdir(dirname(path), { recursive: true })
  const aside = `${path}.${randomUUID()}`
  await writeFile(aside, newHostKey(), { mode: 0o600, flag: 'wx' })
  try {
    if (kept === null) await link(aside, path)
    else await rename(aside, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    await unlink(aside).catch(() => undefined)
  }
  return await readFile(path, 'utf8')
}

function samePassword(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The SFTP endpoint of the VMs (see the module comment). */
export class VmSftpServer {
  readonly #options: VmSftpOptions
  #server: InstanceType<typeof Server> | null = null
  #port = 0
  /** Open connections by VM id: stopping or deleting the VM ends them. */
  readonly #sessions = new Map<number, Set<Connection>>()
  /** Every open connection, signed in or not: closing the server ends them. */
  readonly #connections = new Set<Connection>()

  constructor(options: VmSftpOptions) {
    this.#options = options
  }

  /** Starts listening; answers the port. */
  async listen(): Promise<number> {
    const hostKey = await loadHostKey(sftpHostKeyPath(this.#options.dataDir))
    const server = new Server({ hostKeys: [hostKey] }, (client) => this.#accept(client))
    this.#server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.#options.port, this.#options.host, () => {
        server.off('error', reject)
        resolve()
      })
    })
    server.on('error', (error: Error) => this.#options.log(`SFTP: ${error.message}`))
    this.#port = (server.address() as AddressInfo).port
    return this.#port
  }

  /** 'sftp://<id>@<host>:<port>' for a running VM; null otherwise or before listen(). */
  url(row: RemoteVmRow): string | null {
    if (row.state !== 'running' || this.#port === 0) return null
    const host =
      this.#options.publicHost ??
      (['0.0.0.0', '::'].includes(this.#options.host) ? 'localhost' : this.#options.host)
    const shownHost = host.includes(':') ? `[${host}]` : host
    return `sftp://${row.id}@${shownHost}:${this.#port}`
  }

  /** Ends the VM's open SFTP sessions (it stopped, failed or was deleted). */
  closeSessions(vmId: number): void {
    for (const client of this.#sessions.get(vmId) ?? []) client.end()
    this.#sessions.delete(vmId)
  }

  async close(): Promise<void> {
    for (const vmId of [...this.#sessions.keys()]) this.closeSessions(vmId)
    for (const client of this.#connections) client.end()
    const server = this.#server
    this.#server = null
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  /** The running VM that `username` and `password` open, if any. */
  async #authorize(username: string, password: string): Promise<RemoteVmRow | undefined> {
    if (!/^[1-9]\d{0,9}$/.test(username)) return undefined
    const row = await this.#options.db
      .selectFrom('remote_vms')
      .selectAll()
      .where('id', '=', Number(username))
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    if (!row || row.state !== 'running' || !samePassword(password, row.password)) return undefined
    return row
  }

  #accept(client: Connection): void {
    let vm: RemoteVmRow | undefined
    this.#connections.add(client)
    client.on('close', () => this.#connections.delete(client))
    client.on('error', () => client.end())
    client.on('authentication', (context) => {
      if (context.method !== 'password') return context.reject(['password'])
      void this.#authorize(context.username, context.password).then(
        (row) => {
          if (!row) {
            this.#options.log(`SFTP: authentication refused for user ${context.username}`)
            // A refusal takes a moment: password guessing stays slow.
            setTimeout(() => context.reject(['password']), 300)
            return
          }
          vm = row
          context.accept()
        },
        () => context.reject(['password']),
      )
    })
    client.on('ready', () => {
      const row = vm
      if (!row) {
        client.end()
        return
      }
      const sessions = this.#sessions.get(row.id) ?? new Set<Connection>()
      sessions.add(client)
      this.#sessions.set(row.id, sessions)
      client.on('close', () => sessions.delete(client))
      client.on('session', (acceptSession) => {
        const session = acceptSession()
        session.on('sftp', (acceptSftp) => {
          serveSftpSession(acceptSftp(), vmStorageDirectory(this.#options.dataDir, row.id), {
            roomBytes: () => this.#roomBytes(row.organization_id),
            fullMessage: () => this.#fullMessage(row.organization_id),
            changed: () => this.#measure(row.id),
          })
        })
        // No shell, no exec, no subsystem but sftp.
        session.on('shell', (_accept, reject) => reject())
        session.on('exec', (_accept, reject) => reject())
        session.on('pty', (_accept, reject) => reject?.())
      })
    })
  }

  async #organization(organizationId: number) {
    const { db } = this.#options
    const organization = await db
      .selectFrom('organizations')
      .select(['features', 'storage_available_bytes'])
      .where('id', '=', organizationId)
      .executeTakeFirstOrThrow()
    const features = JSON.parse(organization.features) as unknown
    return {
      unlimited: Array.isArray(features) && features.includes(NO_STORAGE_LIMIT_FEATURE),
      available: Number(organization.storage_available_bytes),
      consumed: await organizationConsumedBytes(db, organizationId),
    }
  }

  async #roomBytes(organizationId: number): Promise<number> {
    const { unlimited, available, consumed } = await this.#organization(organizationId)
    return unlimited ? Infinity : available - consumed
  }

  async #fullMessage(organizationId: number): Promise<string> {
    const { available, consumed } = await this.#organization(organizationId)
    return storageFullMessage(consumed, available)
  }

  #measure(vmId: number): void {
    refreshVmStorageBytes(this.#options.db, this.#options.dataDir, vmId).catch((error: unknown) =>
      this.#options.log(`SFTP: measuring VM ${vmId}'s storage failed: ${String(error)}`),
    )
  }
}
