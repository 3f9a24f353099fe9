import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ssh2, { type SFTPWrapper } from 'ssh2'

/*
 * Clients of the VMs' SFTP endpoint for the tests: ssh2's client (password authentication inside
 * the test process) and OpenSSH's own `sftp` binary in batch mode. sshpass is not installed and
 * `-b` alone sets BatchMode, which turns password prompts off; so the binary runs with
 * `-o BatchMode=no` before `-b` (ssh keeps an option's first value) and SSH_ASKPASS_REQUIRE=force
 * with an SSH_ASKPASS script that prints the password: no terminal, no key, no prompt.
 */

/** The parts of 'sftp://<user>@<host>:<port>'. */
export function parseSftpUrl(url: string): { user: string; host: string; port: number } {
  const parsed = new URL(url)
  if (parsed.protocol !== 'sftp:') throw new Error(`Not an SFTP URL: ${url}`)
  return {
    user: decodeURIComponent(parsed.username),
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || 22),
  }
}

/** An ssh2 SFTP session (with `end()` to close its connection); rejects when refused. */
export function openSftp(
  url: string,
  password: string,
  user = parseSftpUrl(url).user,
): Promise<{ sftp: SFTPWrapper; end: () => void; closed: Promise<void> }> {
  const { host, port } = parseSftpUrl(url)
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client()
    const closed = new Promise<void>((done) => client.once('close', () => done()))
    client.once('error', reject)
    client.once('ready', () => {
      client.sftp((error, sftp) => {
        if (error) return reject(error)
        resolve({ sftp, end: () => client.end(), closed })
      })
    })
    client.connect({
      host,
      port,
      username: user,
      password,
      tryKeyboard: false,
      readyTimeout: 10_000,
      hostVerifier: () => true,
    })
  })
}

/** Names in a folder of the session, sorted. */
export function listNames(sftp: SFTPWrapper, path: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    sftp.readdir(path, (error, list) =>
      error ? reject(error) : resolve(list.map((entry) => entry.filename).sort()),
    ),
  )
}

/** The text of a file of the session. */
export function readText(sftp: SFTPWrapper, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    sftp
      .createReadStream(path)
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('error', reject)
      .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

/** Writes a file through the session. */
export function writeText(sftp: SFTPWrapper, path: string, text: string): Promise<void> {
  return new Promise((resolve, reject) =>
    sftp.writeFile(path, text, (error) => (error ? reject(error) : resolve())),
  )
}

/** The error of a call on the session that is expected to fail (null when it succeeded). */
export function failureOf(call: (done: (error?: Error | null) => void) => void) {
  return new Promise<(Error & { code?: number }) | null>((resolve) =>
    call((error) => resolve(error ?? null)),
  )
}

/**
 * Runs OpenSSH's `sftp` in batch mode with the password (see the module comment): its exit code
 * and output.
 */
export function runSftpBatch(
  url: string,
  password: string,
  commands: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { user, host, port } = parseSftpUrl(url)
  const dir = mkdtempSync(join(tmpdir(), 'dive-sftp-'))
  const askpass = join(dir, 'askpass.sh')
  writeFileSync(askpass, '#!/bin/sh\nprintf "%s\\n" "$DIVE_SFTP_PASSWORD"\n')
  chmodSync(askpass, 0o700)
  const batch = join(dir, 'batch')
  writeFileSync(batch, `${commands.join('\n')}\n`)
  const args = [
    ...['-o', 'BatchMode=no', '-o', 'StrictHostKeyChecking=no'],
    ...['-o', 'UserKnownHostsFile=/dev/null', '-o', 'PreferredAuthentications=password'],
    ...['-o', 'NumberOfPasswordPrompts=1', '-o', 'LogLevel=ERROR', '-P', String(port)],
    ...['-b', batch, `${user}@${host}`],
  ]
  return new Promise((resolve, reject) => {
    const child = spawn('sftp', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: dir,
        SSH_ASKPASS: askpass,
        SSH_ASKPASS_REQUIRE: 'force',
        DISPLAY: ':0',
        DIVE_SFTP_PASSWORD: password,
      },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()))
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true })
      resolve({ code: code ?? -1, stdout, stderr })
    })
  })
}
