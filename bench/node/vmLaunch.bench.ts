/**
 * Remote VMs (issue 20): the local provider's launch-to-connected time (launch until the VM's VNC
 * server greets through its socket, the moment the browser's noVNC can connect) and the memory of
 * one idle VM (resident set of every process in its sandbox: Xvfb, openbox, ParaView, x11vnc, after
 * it sat idle). Reports only; skipped where the provider's programs are missing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { LocalMachineProvider } from '../../server/vms/localProvider.ts'
import type { MachineHandle } from '../../server/vms/provider.ts'
import { BenchSkip, type BenchCase, type BenchContext } from '../lib/types.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The RFB greeting through the VM's VNC socket, or null. */
function greeting(handle: MachineHandle): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = 'path' in handle.vnc ? connect({ path: handle.vnc.path }) : connect(handle.vnc)
    socket.setTimeout(1000, () => {
      socket.destroy()
      resolve(null)
    })
    socket.once('error', () => resolve(null))
    socket.once('data', (data) => {
      socket.destroy()
      resolve(data.toString('latin1'))
    })
  })
}

/** Resident bytes of a process and all its descendants. */
function treeRssBytes(pid: number): number {
  let total = 0
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const rss = /VmRSS:\s+(\d+) kB/.exec(status)
    if (rss) total += Number(rss[1]) * 1024
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    for (const child of children.split(/\s+/).filter(Boolean)) total += treeRssBytes(Number(child))
  } catch {
    // ended meanwhile
  }
  return total
}

async function run(context: BenchContext): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dive-vm-bench-'))
  const provider = new LocalMachineProvider({ dataDir })
  const missing = await provider.missingPrograms()
  if (missing.length > 0) throw new BenchSkip(`missing ${missing.join(', ')}`)
  const started = performance.now()
  const handle = await provider.launch({
    vmId: 1,
    password: 'bench-vm',
    writeOutputs: () => Promise.resolve(null),
    organizationStorage: join(dataDir, 'organization-storage', '1'),
  })
  try {
    let connectedMs = Number.NaN
    while (performance.now() - started < 120_000) {
      if ((await greeting(handle))?.startsWith('RFB ')) {
        connectedMs = performance.now() - started
        break
      }
      await sleep(50)
    }
    context.report({
      case: 'node/vmLaunch.connectedMs',
      value: Math.round(connectedMs),
      unit: 'ms',
      ratio: null,
      target: null,
      ok: null,
    })
    const idleMs = context.quick ? 5000 : 20_000
    context.log(`VM connected; idle for ${idleMs / 1000} s before reading its memory`)
    await sleep(idleMs)
    context.report({
      case: 'node/vmLaunch.idleMemory',
      value: Math.round(treeRssBytes(handle.pid) / 1024 ** 2),
      unit: 'MB',
      ratio: null,
      target: null,
      ok: null,
    })
  } finally {
    await provider.stop(1, handle)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const cases: BenchCase[] = [
  {
    name: 'node/vmLaunch',
    description:
      'One local VM: launch until its VNC greets (ms), then the resident memory of its sandbox after it sat idle (MB); reports only.',
    run,
  },
]
