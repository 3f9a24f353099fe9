import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'

/* Real server and worker processes for the tests of remote workers (issue 18). */

export const REPO = new URL('../..', import.meta.url).pathname

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface Proc {
  child: ChildProcess
  output: string[]
  /** Resolves with the first match of `pattern` in its stdout. */
  match: Promise<RegExpMatchArray>
}

/** A TypeScript entry of the repository as its own process (tsx), its output collected. */
export function startProcess(
  entry: string,
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, entry), ...args], {
    cwd: REPO,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  const match = new Promise<RegExpMatchArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString())
      const found = output.join('').match(pattern)
      if (found) resolve(found)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    child.once('exit', (code) =>
      reject(new Error(`${entry} exited (${code}) before ready:\n${output.join('')}`)),
    )
  })
  return { child, output, match }
}

/**
 * SIGKILL, settled once the process has exited. One that had exited already settles at once: its
 * 'exit' event has passed and would never come again.
 */
export async function killProcess(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return
  const exited = new Promise((resolve) => proc.child.once('exit', resolve))
  proc.child.kill('SIGKILL')
  await exited
}

export async function stopProcess(proc: Proc | undefined): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return
  const exited = new Promise((resolve) => proc.child.once('exit', resolve))
  proc.child.kill('SIGTERM')
  await Promise.race([exited, sleep(15_000)])
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL')
}
