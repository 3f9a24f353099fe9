/**
 * `npm run million [-- --fluid=1000000] [-- --outputs=1] [-- --interval=0.0003] [-- --threads=2] [-- --keep] [-- --no-browser]`:
 * issue 12 item 4 end to end through the product. Starts a real server (server/main.ts, SQLite on a
 * temp data dir), creates through the API a simulation with a closed box tank and a water column
 * whose particle diameter gives at least `fluid` fluid particles, discretizes it, runs it with
 * `threads` cores until output `outputs` is written (default 1: outputs 0 and 1; then stops it through
 * the API), and opens the
 * outputs in Results in headless chromium (/usr/bin/chromium; the UI must be built: `npm run
 * build`). Prints the figures: discretization time, time per step, output sizes, and the server
 * process's resident memory (peak and per phase; the job thread and the solver's worker threads
 * live in that process). Writes the screenshot to /tmp/dive-million/results.png.
 * Heavy: run it alone, e.g. `nice -n 10 npm run million`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import {
  checkpointFile,
  outputDirectory,
  runDirectory,
  runLogFile,
} from '../domain/output/layout.ts'
import {
  DEMO_PASSWORD,
  DEMO_PROJECT_NAME,
  DEMO_SIMULATION_NAME,
  DEMO_USERS,
} from '../server/db/demoAccounts.ts'

import { apiClient, startServer, type Json } from './demoApi.ts'
import { cpuSeconds, directoryBytes, memorySampler, residentBytes } from './processStats.ts'

const REPO_ROOT = join(import.meta.dirname, '..')

function option(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg ? Number(arg.slice(name.length + 3)) : fallback
}
const flag = (name: string) => process.argv.includes(`--${name}`)

const FLUID = option('fluid', 1_000_000)
const OUTPUTS = option('outputs', 1)
/** --demo: the seeded demo instead, run to its end (settings overridable: --endTime=0.1 …). */
const DEMO = flag('demo')
const SHOT_DIR = join(tmpdir(), DEMO ? 'dive-demo' : 'dive-million')
const THREADS = option('threads', 2)

/** The case: a water column 0.4 × 0.5 × 0.3 m in a closed 1.2 × 0.5 × 0.4 m box tank. */
const TANK = { size: [1.2, 0.5, 0.4] as const }
const COLUMN = { size: [0.4, 0.5, 0.3] as const }
const COLUMN_VOLUME = COLUMN.size[0] * COLUMN.size[1] * COLUMN.size[2]
/** Rounded down to 0.1 mm so the fill (volume / dp³ particles) holds at least FLUID of them. */
const DP = Math.floor(Math.cbrt(COLUMN_VOLUME / FLUID) * 1e4) / 1e4
/** About 2 steps per output (dt ≈ 1.35e-4 s at c0 = 10 √(g · 0.3 m)); the run is stopped at OUTPUTS. */
const OUTPUT_INTERVAL = option('interval', 0.0003)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`

/** A box part spanning [min, min + size] (stl_cube meshes are centred on their translation). */
function box(min: readonly number[], size: readonly number[]) {
  return {
    type: 'stl_cube',
    dimensions: [...size],
    translation: size.map((s, i) => min[i]! + s / 2),
  }
}

async function openInResults(baseUrl: string, simulationId: number, lastOutput: number) {
  mkdirSync(SHOT_DIR, { recursive: true })
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    const start = performance.now()
    await page.goto(`${baseUrl}/login`)
    await page.getByLabel('Email').fill(DEMO_USERS.manager.email)
    await page.getByLabel('Password').fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/projects/)
    await page.goto(`${baseUrl}/simulation/${simulationId}/postprocessor`)
    const opened = performance.now()
    await page.locator('.viewport[data-engine-status="ready"]').waitFor({ timeout: 120_000 })
    const points = page.getByTestId('viewport-points')
    const until = Date.now() + 300_000
    let text = ''
    while (Date.now() < until) {
      text = (await points.textContent().catch(() => '')) ?? ''
      if (text !== '' && text !== '0 points') break
      await sleep(500)
    }
    const drawnS = (performance.now() - opened) / 1000
    const shownOutput = page.getByTestId('viewport-shown-output')
    await shownOutput.waitFor({ timeout: 120_000 })
    await page
      .getByRole('group', { name: 'Timeline' })
      .getByLabel('Output')
      .fill(String(lastOutput))
    for (let until = Date.now() + 300_000; Date.now() < until; await sleep(500))
      if ((await shownOutput.textContent()) === `Output ${lastOutput}`) break
    // let the first frames settle (SwiftShader: about 1 s a frame at a million points)
    await sleep(5000)
    // the timeline's input scrolled the page: back to the top, where the view is
    await page.evaluate('window.scrollTo(0, 0)')
    await sleep(1000)
    const shot = join(SHOT_DIR, 'results.png')
    await page.screenshot({ path: shot })
    const shown = (await shownOutput.textContent()) ?? ''
    // the same with the tank hidden (its wall particles in front of the water)
    const tank = page.getByRole('checkbox', { name: 'Tank', exact: true })
    if ((await tank.count()) === 1) {
      await tank.uncheck()
      await sleep(5000)
      await page.evaluate('window.scrollTo(0, 0)')
      await page.screenshot({ path: join(SHOT_DIR, 'results-without-tank.png') })
    }
    return { points: text, shown, drawnS, totalS: (performance.now() - start) / 1000, shot }
  } finally {
    await browser.close()
  }
}

type Api = ReturnType<typeof apiClient>

/** The seeded demo dam break of the manager's demo project. */
async function demoSimulation(api: Api): Promise<number> {
  const projects = (await api('GET', '/projects?pageLimit=30')).results as Json[]
  const project = projects.find((p) => p.name === DEMO_PROJECT_NAME)
  const simulations = (project?.simulations ?? []) as Json[]
  const simulation = simulations.find((s) => s.name === DEMO_SIMULATION_NAME)
  if (!simulation) throw new Error('the seeded demo simulation is missing')
  return simulation.id as number
}

/** The million case through the API: settings, water, a closed box tank and the water column. */
async function createMillionCase(api: Api): Promise<number> {
  const project = await api('POST', '/projects', { name: 'A million particles' })
  const simulation = await api('POST', `/projects/${project.id}/simulations`, {
    name: `Dam break, ${FLUID.toLocaleString('en-US')} fluid particles`,
  })
  const id = simulation.id as number
  await api('PUT', `/simulations/${id}/settings`, {
    particleDiameter: DP,
    outputTimeInterval: OUTPUT_INTERVAL,
    endTime: OUTPUT_INTERVAL * Math.max(5, OUTPUTS + 1),
  })
  await api('PUT', `/simulations/${id}/materials/0`, { name: 'Water', density: 1000 })
  await api('POST', `/simulations/${id}/parts`, {
    name: 'Tank',
    component: { type: 'rigid', velocityKind: 'slip' },
    shape: box([0, 0, 0], TANK.size),
  })
  await api('POST', `/simulations/${id}/parts`, {
    name: 'Water column',
    materialId: 0,
    component: { type: 'filling', height: COLUMN.size[2] },
    shape: box([0, 0, 0], COLUMN.size),
  })
  return id
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dive-million-'))
  const figures: [string, string][] = []
  const say = (label: string, value: string) => {
    figures.push([label, value])
    console.log(`${label}: ${value}`)
  }
  const server = await startServer(dataDir)
  const pid = server.child.pid!
  const memory = memorySampler(pid)
  try {
    memory.phase('idle')
    const api = apiClient(server.baseUrl)

    const id = DEMO ? await demoSimulation(api) : await createMillionCase(api)
    if (DEMO) {
      const overrides = Object.fromEntries(
        (['particleDiameter', 'endTime', 'outputTimeInterval'] as const)
          .filter((key) => process.argv.some((a) => a.startsWith(`--${key}=`)))
          .map((key) => [key, option(key, 0)]),
      )
      if (Object.keys(overrides).length > 0)
        await api('PUT', `/simulations/${id}/settings`, overrides)
      const settings = (await api('GET', `/simulations/${id}/settings`)).settings as Json
      say(
        'demo settings',
        `dp ${settings.particleDiameter} m, end ${settings.endTime} s, output every ${settings.outputTimeInterval} s`,
      )
    }

    memory.phase('discretization')
    let started = performance.now()
    await api('POST', `/simulations/${id}/discretizations`, {})
    let discretization: Json
    for (;;) {
      discretization = await api('GET', `/simulations/${id}/discretizations`)
      if (!['scheduled', 'running'].includes(String(discretization.state))) break
      await sleep(250)
    }
    const discretizeS = (performance.now() - started) / 1000
    if (discretization.state !== 'done')
      throw new Error(`discretization ${discretization.state}: ${JSON.stringify(discretization)}`)
    const summary = discretization.summary as Json
    if (!DEMO) say('particle diameter', `${DP} m`)
    say(
      'particles',
      `${summary.fluidCount} fluid + ${summary.wallCount} wall = ${summary.particleCount}`,
    )
    say('discretization (POST to done, through the job runner)', `${discretizeS.toFixed(1)} s`)
    say(
      'data directory after discretization (database, point clouds)',
      mib(directoryBytes(dataDir)),
    )

    memory.phase('run')
    started = performance.now()
    const cpuAtStart = cpuSeconds(pid)
    const solvers = (await api('GET', '/solvers')) as unknown as Json[]
    await api('POST', `/simulations/${id}/jobs`, { cores: THREADS, solver_id: solvers[0]!.id })
    let outputs: Json[] = []
    let state = ''
    for (;;) {
      outputs = (await api('GET', `/simulations/${id}/outputs`)) as unknown as Json[]
      state = (await api('GET', `/simulations/${id}`)).state as string
      if ((!DEMO && outputs.length > OUTPUTS) || ['completed', 'failed', 'stopped'].includes(state))
        break
      await sleep(1000)
    }
    if (state === 'failed')
      throw new Error(
        `the run failed: ${JSON.stringify(await api('GET', `/simulations/${id}/history`))}`,
      )
    if (!['completed', 'stopped'].includes(state)) {
      await api('DELETE', `/simulations/${id}/jobs`)
      for (;;) {
        state = (await api('GET', `/simulations/${id}`)).state as string
        if (['completed', 'failed', 'stopped'].includes(state)) break
        await sleep(500)
      }
    }
    const runS = (performance.now() - started) / 1000
    const runCpuS = cpuSeconds(pid) - cpuAtStart
    outputs = (await api('GET', `/simulations/${id}/outputs`)) as unknown as Json[]
    say('run', `${state} after output ${outputs.at(-1)?.outputNo} in ${runS.toFixed(0)} s wall`)
    say(
      'server CPU time during the run',
      `${runCpuS.toFixed(0)} s (${(runCpuS / runS).toFixed(2)} cores busy on average; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
    )

    // the run's own log (JSON lines: step, runtime) for the time per step
    const runs = (await api('GET', `/simulations/${id}/jobs`)) as unknown as Json[]
    const runId = runs[0]!.id as number
    const lines = readFileSync(join(dataDir, runLogFile(id, runId)), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json)
    const stepped = lines.filter((line) => line.step > 0)
    const first = lines.find((line) => line.message === 'Simulation started.') ?? lines[0]!
    const last = stepped.at(-1)
    if (last) {
      const steps = last.step - (stepped[0]!.step - 1)
      const ms = last.runtime - stepped[0]!.runtime
      say(
        'steps',
        `${last.step} (dt ${Number(last.dt).toExponential(2)} s, simulated ${Number(last.time).toFixed(2)} ms)`,
      )
      say(
        'time per step',
        `${(ms / Math.max(1, steps - 1) / 1000).toFixed(2)} s (${THREADS} threads, between the first and the last logged step)`,
      )
      say(
        'run start to first step (discretize, solver set-up, output 0)',
        `${((stepped[0]!.runtime - first.runtime) / 1000).toFixed(1)} s`,
      )
    }
    const numerics = lines.find((line) => line.numerics)?.message as string | undefined
    if (numerics) console.log(numerics)
    for (const output of outputs) {
      const no = output.outputNo as number
      const bytes = directoryBytes(join(dataDir, outputDirectory(id, runId, no)))
      say(`output ${no}: objects (full + fast)`, mib(bytes))
      const checkpoint = join(dataDir, checkpointFile(id, runId, no))
      if (existsSync(checkpoint)) say(`output ${no}: checkpoint`, mib(statSync(checkpoint).size))
    }
    say('run directory', mib(directoryBytes(join(dataDir, runDirectory(id, runId)))))

    if (!flag('no-browser')) {
      if (!existsSync(join(REPO_ROOT, 'dist', 'index.html')))
        throw new Error('dist/ is missing: run `npm run build` first')
      memory.phase('results')
      const results = await openInResults(server.baseUrl, id, outputs.at(-1)!.outputNo as number)
      say('Results viewport', `${results.points}, ${results.shown}`)
      say('Results: first particles drawn', `${results.drawnS.toFixed(0)} s after opening`)
      say('screenshot', results.shot)
    }
    memory.phase('end')
    const { peak } = residentBytes(pid)
    for (const [phase, bytes] of memory.peaks)
      if (phase !== 'start' && phase !== 'end') say(`server RSS peak, ${phase}`, mib(bytes))
    say('server RSS peak (VmHWM, job and solver threads included)', mib(peak))
  } finally {
    memory.stop()
    server.child.kill('SIGTERM')
    await sleep(500)
    if (flag('keep')) console.log(`data dir kept: ${dataDir}`)
    else rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
