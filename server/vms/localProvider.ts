import { spawn } from 'node:child_process'
import { createWriteStream, openSync, closeSync } from 'node:fs'
import {
  access,
  chmod,
  chown,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises'
import { connect, createServer, type Socket } from 'node:net'
import { basename, delimiter, join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { VmStorageFile } from '../../domain/rest/vmRoutes.ts'
import {
  MissingProgramError,
  type LaunchSpec,
  type MachineHandle,
  type MachineProvider,
  type MachineState,
} from './provider.ts'

/*
 * The local provider: each VM is a bubblewrap sandbox on this machine holding Xvfb on its own
 * display, openbox, ParaView on the simulation's outputs (a .pvd time series, mounted read-only at
 * /data), the organization storage at /organization and x11vnc on 127.0.0.1 with the VM's password. The sandbox sees /usr and /etc read-only,
 * its own /tmp, its storage folder as its home and the organization storage (the only places it
 * can write) and nothing else of
 * the data directory; it runs as an unprivileged user (nobody when the server runs as root) with a
 * cap on its address space. It starts in its own session, so it outlives a server restart and the
 * next server finds it again by its pid.
 */

/** Programs the local provider runs. */
export const LOCAL_PROGRAMS = ['bwrap', 'Xvfb', 'openbox', 'paraview', 'x11vnc'] as const

/** The user the sandboxes run as when the server runs as root. */
const NOBODY = 65534

export interface LocalProviderOptions {
  /** The data directory; VMs live under its vms/ folder. */
  dataDir: string
  /** Address space cap per VM in bytes (RLIMIT_AS); default 4 GiB. */
  memoryLimitBytes?: number
  /** PATH searched for the programs; default process.env.PATH. */
  path?: string
  /** Desktop size. */
  screen?: { width: number; height: number }
}

/** Default address-space cap of one VM (ParaView with software OpenGL needs about 1 GiB). */
export const DEFAULT_VM_MEMORY_BYTES = 4 * 1024 ** 3

/** The folder of one VM, relative paths inside it: home (storage), data (outputs), run (private). */
export function vmDirectory(dataDir: string, vmId: number): string {
  return join(dataDir, 'vms', String(vmId))
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, 1)
    return true
  } catch {
    return false
  }
}

/** The programs of LOCAL_PROGRAMS not found on `path`. */
export async function findMissingPrograms(
  programs: readonly string[],
  path = process.env.PATH ?? '',
): Promise<string[]> {
  const missing: string[] = []
  for (const program of programs) {
    const dirs = path.split(delimiter).filter(Boolean)
    let found = false
    for (const dir of dirs) if (!found && (await isExecutable(join(dir, program)))) found = true
    if (!found) missing.push(program)
  }
  return missing
}

/** A TCP port free on loopback now. */
async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** Whether something accepts connections on the loopback port and speaks RFB. */
export async function vncAnswers(handle: MachineHandle): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTo(handle)
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('data', (data) => done(data.toString('latin1').startsWith('RFB ')))
    // A desktop that ends between accepting and greeting closes the socket without an error, and
    // a destroyed socket's timeout never fires: without this the probe, and with it the
    // supervisor's every later pass, would wait forever.
    socket.once('close', () => done(false))
  })
}

function connectTo(handle: MachineHandle): Socket {
  return 'path' in handle.vnc ? connect({ path: handle.vnc.path }) : connect(handle.vnc)
}

/** Whether the process lives and is this VM's sandbox (a reused pid is not). */
async function isSandboxOf(pid: number, vmDir: string): Promise<boolean> {
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8')
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    // A zombie (state Z) has ended.
    if (/^\d+ \(.*\) Z/.test(stat)) return false
    return cmdline.includes(vmDir)
  } catch {
    return false
  }
}

/** The child processes of a process. */
async function childrenOf(pid: number): Promise<number[]> {
  try {
    const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')
    return text.split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** The shell script the sandbox runs: the desktop's processes; it ends when one of them ends. */
function desktopScript(display: number, port: number, screen: string, pvd: string | null): string {
  const paraview = pvd === null ? 'paraview' : `paraview --data=/data/${pvd}`
  return [
    'set -u',
    'export HOME=/home/vm XDG_CONFIG_HOME=/tmp/config XDG_CACHE_HOME=/tmp/cache',
    `export DISPLAY=:${display} LIBGL_ALWAYS_SOFTWARE=1 QT_X11_NO_MITSHM=1`,
    // No TCP and no abstract socket: the X server is reachable only through the sandbox's /tmp.
    `Xvfb :${display} -screen 0 ${screen} -nolisten tcp -nolisten local +extension GLX &`,
    'for i in $(seq 1 100); do [ -e /tmp/.X11-unix/X' + display + ' ] && break; sleep 0.1; done',
    // ParaView applies the opened outputs at once (the time series shows without a click).
    'mkdir -p /tmp/config/ParaView',
    `echo '{"settings":{"GeneralSettings":{"AutoApply":1}}}' > /tmp/config/ParaView/ParaView-UserSettings.json`,
    // No welcome dialog over the render view: a Qt setting of ParaView's, in the file named for its version.
    "printf '[General]\\nGeneralSettings.ShowWelcomeDialog=0\\n' > /tmp/config/ParaView/ParaView5.11.0.ini",
    'openbox &',
    `${paraview} &`,
    // On 127.0.0.1 only, with the VM's password; the server's websocket is its one client.
    `x11vnc -display :${display} -localhost -rfbport ${port} -rfbauth /run/vm/passwd -forever -shared -noxdamage -nopw -quiet -noipv6 &`,
    'wait -n',
    'echo "a desktop process ended: the VM stops"',
    'kill $(jobs -p) 2>/dev/null',
    'wait',
  ].join('\n')
}

/** The local provider (see the module comment). */
export class LocalMachineProvider implements MachineProvider {
  readonly name = 'local'
  readonly #dataDir: string
  readonly #memoryLimitBytes: number
  readonly #path: string
  readonly #screen: string

  constructor(options: LocalProviderOptions) {
    this.#dataDir = options.dataDir
    this.#memoryLimitBytes = options.memoryLimitBytes ?? DEFAULT_VM_MEMORY_BYTES
    this.#path = options.path ?? process.env.PATH ?? ''
    const screen = options.screen ?? { width: 1280, height: 800 }
    this.#screen = `${screen.width}x${screen.height}x24`
  }

  #dir(vmId: number): string {
    return vmDirectory(this.#dataDir, vmId)
  }

  missingPrograms(): Promise<string[]> {
    return findMissingPrograms(LOCAL_PROGRAMS, this.#path)
  }

  async launch(spec: LaunchSpec): Promise<MachineHandle> {
    const missing = await this.missingPrograms()
    if (missing.length > 0) throw new MissingProgramError(missing)
    const dir = this.#dir(spec.vmId)
    const home = join(dir, 'home')
    const data = join(dir, 'data')
    const run = join(dir, 'run')
    await mkdir(home, { recursive: true })
    await rm(data, { recursive: true, force: true })
    await mkdir(data, { recursive: true })
    await mkdir(run, { recursive: true })
    await mkdir(spec.organizationStorage, { recursive: true })
    const pvd = await spec.writeOutputs(data)
    // x11vnc's password file (its own obfuscated format), readable by the sandbox only.
    await this.#storePassword(spec.password, join(run, 'passwd'))
    const root = process.getuid?.() === 0
    if (root) {
      await chown(home, NOBODY, NOBODY)
      await chown(spec.organizationStorage, NOBODY, NOBODY)
      await chown(join(run, 'passwd'), NOBODY, NOBODY)
    }
    await chmod(dir, 0o755)
    // The sandbox (nobody) must reach its folders: the data and vms folders get traverse rights.
    for (const folder of [this.#dataDir, join(this.#dataDir, 'vms')])
      await chmod(folder, (await stat(folder)).mode | 0o111)
    await chmod(join(run, 'passwd'), 0o400)

    // Its own /tmp holds its X socket (no abstract or TCP X socket): one VM cannot reach another's.
    const display = 1
    const port = await freeLoopbackPort()
    const logFd = openSync(join(run, 'desktop.log'), 'a')
    const args = [
      ...['--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc'],
      ...['--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin'],
      ...['--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64'],
      ...['--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp'],
      ...['--bind', home, '/home/vm', '--ro-bind', data, '/data', '--ro-bind', run, '/run/vm'],
      ...['--bind', spec.organizationStorage, '/organization'],
      ...['--chdir', '/home/vm', '--unshare-pid', '--unshare-ipc', '--unshare-uts'],
      ...['--hostname', `vm-${spec.vmId}`, '--new-session'],
      // The VM's folder in the command line lets a later server recognize the process.
      ...['--setenv', 'DIVE_VM_DIR', dir],
      ...['/bin/bash', '-c', desktopScript(display, port, this.#screen, pvd)],
    ]
    const child = spawn('prlimit', [`--as=${this.#memoryLimitBytes}`, '--', 'bwrap', ...args], {
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: { PATH: this.#path },
      ...(root && { uid: NOBODY, gid: NOBODY }),
    })
    closeSync(logFd)
    const pid = await new Promise<number>((resolve, reject) => {
      child.once('error', reject)
      child.once('spawn', () => resolve(child.pid ?? 0))
    })
    child.unref()
    return { pid, vnc: { host: '127.0.0.1', port }, display }
  }

  async #storePassword(password: string, file: string): Promise<void> {
    await rm(file, { force: true })
    await new Promise<void>((resolve, reject) => {
      const child = spawn('x11vnc', ['-storepasswd', password, file], {
        stdio: 'ignore',
        env: { PATH: this.#path },
      })
      child.once('error', reject)
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`x11vnc -storepasswd exited with ${code}`)),
      )
    })
  }

  async state(vmId: number, handle: MachineHandle): Promise<MachineState> {
    if (!(await isSandboxOf(handle.pid, this.#dir(vmId)))) return 'gone'
    return (await vncAnswers(handle)) ? 'ready' : 'starting'
  }

  async stop(vmId: number, handle: MachineHandle): Promise<void> {
    if (!(await isSandboxOf(handle.pid, this.#dir(vmId)))) return
    // The inner bwrap is the init of the VM's pid namespace (in its own session): when it ends, the
    // kernel ends every desktop process with it; then the outer bwrap returns.
    const kill = (pid: number, name: NodeJS.Signals) => {
      try {
        process.kill(pid, name)
      } catch {
        // ended meanwhile
      }
    }
    for (const inner of await childrenOf(handle.pid)) kill(inner, 'SIGKILL')
    kill(handle.pid, 'SIGTERM')
    for (let i = 0; i < 20; i++) {
      if (!(await isSandboxOf(handle.pid, this.#dir(vmId)))) return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    kill(handle.pid, 'SIGKILL')
  }

  async delete(vmId: number): Promise<void> {
    await rm(this.#dir(vmId), { recursive: true, force: true })
  }

  async upload(vmId: number, fileName: string, source: Readable): Promise<number> {
    const name = basename(fileName).replace(/^\.+/, '') || 'upload'
    const home = join(this.#dir(vmId), 'home')
    await mkdir(home, { recursive: true })
    const path = join(home, name)
    await pipeline(source, createWriteStream(path, { mode: 0o644 }))
    if (process.getuid?.() === 0) await chown(path, NOBODY, NOBODY)
    return (await stat(path)).size
  }

  async listStorage(vmId: number): Promise<VmStorageFile[]> {
    const home = join(this.#dir(vmId), 'home')
    let entries
    try {
      entries = await readdir(home, { withFileTypes: true })
    } catch {
      return []
    }
    const files: VmStorageFile[] = []
    for (const entry of entries)
      if (entry.isFile() && !entry.name.startsWith('.'))
        files.push({ name: entry.name, sizeBytes: (await stat(join(home, entry.name))).size })
    return files.sort((a, b) => a.name.localeCompare(b.name))
  }

  connectVnc(handle: MachineHandle): Socket {
    return connectTo(handle)
  }
}

/** For the log: writes a note into a VM's desktop log. */
export async function appendVmLog(dataDir: string, vmId: number, line: string): Promise<void> {
  const run = join(vmDirectory(dataDir, vmId), 'run')
  await mkdir(run, { recursive: true })
  await writeFile(join(run, 'desktop.log'), `${line}\n`, { flag: 'a' })
}
