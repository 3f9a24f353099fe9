import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Solver } from '../../domain/rest/runRoutes.ts'
import type { RunBackendKind } from '../../solver/run/runBackend.ts'

/*
 * The solvers a run can use (GET /solvers): the CPU solver always, the GPU solver where an adapter
 * can be created. The adapter is probed once per process, in a child process
 * (solver/gpu/probe.ts) so that a missing or broken Vulkan driver never touches the server; the
 * server starts the probe at boot (startGpuProbe), off the request path, and a request that comes
 * earlier waits for the same probe. Its environment is the server's: the job threads that run
 * the GPU solver find the same adapter.
 */

/** The CPU solver (solver/sph): always there. */
export const CPU_SOLVER: Solver = { id: 1, name: 'Dive SPH (CPU)', latest: true, gpu: false }
/** Id of the GPU solver (solver/gpu), listed where an adapter exists. */
export const GPU_SOLVER_ID = 2

/** What the probe found: the adapter's name and whether it is a software one. */
export interface GpuAdapter {
  name: string
  fallback: boolean
}

/** Longest wait for the probe; a driver that hangs counts as none. */
const PROBE_TIMEOUT_MS = 30_000

let probed: Promise<GpuAdapter | null> | null = null

function tsxLoaderUrl(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json')
  return pathToFileURL(join(dirname(manifest), 'dist', 'loader.mjs')).href
}

function runProbe(): Promise<GpuAdapter | null> {
  const script = fileURLToPath(new URL('../../solver/gpu/probe.ts', import.meta.url))
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>
    try {
      child = spawn(process.execPath, ['--import', tsxLoaderUrl(), script], {
        stdio: ['ignore', 'pipe', 'ignore'],
      })
    } catch {
      resolve(null)
      return
    }
    let output = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS)
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    child.on('error', () => {
      clearTimeout(timer)
      resolve(null)
    })
    child.on('close', () => {
      clearTimeout(timer)
      try {
        const line = output.trim().split('\n').at(-1) ?? ''
        const found = (JSON.parse(line) as { gpu: GpuAdapter | null }).gpu
        resolve(found && typeof found.name === 'string' ? found : null)
      } catch {
        resolve(null)
      }
    })
  })
}

/**
 * Starts the adapter probe (once per process) and answers its finding; never rejects.
 * DIVE_GPU=off skips it (no GPU solver).
 */
export function startGpuProbe(): Promise<GpuAdapter | null> {
  probed ??= process.env.DIVE_GPU === 'off' ? Promise.resolve(null) : runProbe()
  return probed
}

/**
 * 'SwiftShader' of 'SwiftShader driver 5.0.0', 'llvmpipe (Mesa 25.0.7)' of lavapipe's
 * 'llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) 0.0.1'; a card's name as it is ('NVIDIA H200').
 */
export function adapterShortName(name: string): string {
  const mesa = /^([^:]+):\s*Mesa\s+(\d+(?:\.\d+)*)/.exec(name)
  if (mesa) return `${mesa[1]!.trim()} (Mesa ${mesa[2]})`
  return name.replace(/\s+driver\b.*$/i, '').trim() || name
}

/** The GPU solver of an adapter: 'Dive SPH GPU (NVIDIA H200)'. */
export function gpuSolverOf(adapter: GpuAdapter): Solver {
  return {
    id: GPU_SOLVER_ID,
    name: `Dive SPH GPU (${adapterShortName(adapter.name)})`,
    latest: true,
    gpu: true,
  }
}

/**
 * The solvers of this server, the default first: the GPU solver on a real card, the CPU solver
 * where the only adapter is a software one (SwiftShader, lavapipe: correct, not fast) or none.
 */
export async function listSolvers(): Promise<Solver[]> {
  const adapter = await startGpuProbe()
  if (!adapter) return [CPU_SOLVER]
  const gpu = gpuSolverOf(adapter)
  return adapter.fallback ? [CPU_SOLVER, gpu] : [gpu, CPU_SOLVER]
}

/** The backend a solver id runs on; null for an id that is no solver here. */
export function backendOfSolver(solverId: number): RunBackendKind | null {
  if (solverId === CPU_SOLVER.id) return 'cpu'
  if (solverId === GPU_SOLVER_ID) return 'gpu'
  return null
}
