/**
 * A real server process for the fault suite (issue 13): server/main.ts run as `npm run serve`
 * would, on a data directory and (for PostgreSQL) a database URL, so that it can be killed with
 * SIGKILL and started again on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { DEMO_PASSWORD } from '../../server/db/demoAccounts.ts'

const REPO_ROOT = join(import.meta.dirname, '..', '..')

export interface ServerProcess {
  baseUrl: string
  port: number
  child: ChildProcess
  /** What the process wrote on stderr so far (warnings, errors). */
  stderr(): string
  /** SIGKILL: no shutdown hook runs. Resolves once the process is gone. */
  kill(): Promise<void>
  /** SIGTERM and wait. */
  stop(): Promise<void>
}

export interface ServerProcessOptions {
  dataDir: string
  /** PostgreSQL URL; without it the server uses dataDir/dive.sqlite. */
  databaseUrl?: string
  startTimeoutMs?: number
}

/** Starts server/main.ts and resolves once it prints its address. */
export function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DIVE_DATA_DIR: options.dataDir,
  }
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl
  else delete env.DATABASE_URL
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.on('exit', () => resolve())
  })
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the server did not start: ${stdout} ${stderr}`))
    }, options.startTimeoutMs ?? 30_000)
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const port = /http:\/\/localhost:(\d+)/.exec(stdout)?.[1]
      if (!port) return
      clearTimeout(timer)
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        port: Number(port),
        child,
        stderr: () => stderr,
        kill: async () => {
          child.kill('SIGKILL')
          await exited
        },
        stop: async () => {
          child.kill('SIGTERM')
          await exited
        },
      })
    })
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`the server exited before it started: ${stderr}`))
    })
  })
}

/** A JSON client of one server process. */
export interface ApiClient {
  request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T; text: string }>
  token: string
}

export async function loginTo(baseUrl: string, email: string): Promise<ApiClient> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  })
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${await login.text()}`)
  const { accessToken } = (await login.json()) as { accessToken: string }
  return {
    token: accessToken,
    request: async <T>(method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` }
      if (body !== undefined) headers['content-type'] = 'application/json'
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      let parsed: unknown = text
      if ((response.headers.get('content-type') ?? '').includes('application/json') && text !== '')
        parsed = JSON.parse(text)
      return { status: response.status, body: parsed as T, text }
    },
  }
}
