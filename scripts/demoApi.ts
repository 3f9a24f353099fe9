/** A Dive server on the embedded defaults in a child process, and JSON calls as the demo manager. */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { DEMO_PASSWORD, DEMO_USERS } from '../server/db/demoAccounts.ts'

const REPO_ROOT = join(import.meta.dirname, '..')

export async function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DIVE_DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(`[server] ${chunk.toString()}`))
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const match = /http:\/\/localhost:(\d+)/.exec(stdout)
      if (match) resolve(Number(match[1]))
    })
    child.on('exit', (code) => reject(new Error(`the server exited (${code})`)))
  })
  return { child, baseUrl: `http://127.0.0.1:${port}` }
}

export type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

export async function logIn(baseUrl: string): Promise<string> {
  const reply = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_USERS.manager.email, password: DEMO_PASSWORD }),
  })
  if (reply.status !== 200) throw new Error(`login: ${reply.status} ${await reply.text()}`)
  return ((await reply.json()) as { accessToken: string }).accessToken
}

/** JSON calls as the demo manager; logs in again when the access token expired (15 min). */
export function apiClient(baseUrl: string) {
  let token: string | null = null
  const call = async (method: string, path: string, body?: unknown) => {
    token ??= await logIn(baseUrl)
    return fetch(`${baseUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  }
  return async (method: string, path: string, body?: unknown): Promise<Json> => {
    let reply = await call(method, path, body)
    if (reply.status === 401) {
      token = null
      reply = await call(method, path, body)
    }
    const text = await reply.text()
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${text}`)
    return text === '' ? {} : (JSON.parse(text) as Json)
  }
}
