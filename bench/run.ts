/**
 * `npm run bench [-- --json] [-- --filter <text>] [-- --quick] [-- --list]`: runs every case of
 * every bench module (`bench/{node,solver,browser}/*.bench.ts`, see bench/README.md) and prints one
 * line per result. Exit 0 when targets are missed (they print `ok: false`); exit 1 only when a case
 * crashed or a module failed to load.
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { BenchSkip, type BenchCase, type BenchContext, type BenchResult } from './lib/types.ts'
import { formatResultLine } from './lib/format.ts'

/** Areas in the order they run: the browser last, since it builds the UI and starts a server. */
const BENCH_AREAS = ['node', 'solver', 'results', 'browser'] as const

interface BenchModule {
  cases?: BenchCase[]
  disposeBench?: () => Promise<void>
}

interface RunOptions {
  json: boolean
  filter: string | null
  quick: boolean
  list: boolean
}

function parseArguments(argv: readonly string[]): RunOptions {
  const options: RunOptions = { json: false, filter: null, quick: false, list: false }
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]
    if (argument === '--json') options.json = true
    else if (argument === '--quick') options.quick = true
    else if (argument === '--list') options.list = true
    else if (argument === '--filter') options.filter = (argv[++index] ?? '').toLowerCase()
    else if (argument?.startsWith('--filter=')) options.filter = argument.slice(9).toLowerCase()
    else
      throw new Error(`Unknown argument ${argument}. Use --json, --filter <text>, --quick, --list.`)
  }
  return options
}

function listModuleFiles(): URL[] {
  const files: URL[] = []
  for (const area of BENCH_AREAS) {
    const directory = new URL(`./${area}/`, import.meta.url)
    let names: string[]
    try {
      names = readdirSync(fileURLToPath(directory))
    } catch {
      continue
    }
    for (const name of names.filter((file) => file.endsWith('.bench.ts')).sort()) {
      files.push(new URL(name, directory))
    }
  }
  return files
}

function printFailure(name: string, error: unknown, options: RunOptions): void {
  const message = error instanceof Error ? error.message : String(error)
  if (options.json) {
    const line = { case: name, value: null, unit: '', ratio: null, target: null, ok: false }
    console.log(JSON.stringify({ ...line, error: message }))
  } else {
    console.log(`${name}  FAILED: ${message}`)
  }
  if (error instanceof Error && error.stack) console.error(error.stack)
}

async function runBench(argv: readonly string[]): Promise<number> {
  const options = parseArguments(argv)
  const context: BenchContext = {
    quick: options.quick,
    log: (message) => console.error(`  · ${message}`),
    report: (result: BenchResult) => {
      console.log(options.json ? JSON.stringify(result) : formatResultLine(result))
    },
  }
  let failures = 0
  const modules: BenchModule[] = []
  for (const file of listModuleFiles()) {
    const label = fileURLToPath(file).split('/bench/')[1] ?? file.href
    // a filter naming an area ("solver/gpu") loads that area's modules alone: a machine that
    // carries only the solver's runtime can run its cases
    const area = options.filter?.match(/^(node|solver|results|browser)\//)?.[1]
    if (area && !label.startsWith(`${area}/`)) continue
    let module: BenchModule
    try {
      module = (await import(pathToFileURL(fileURLToPath(file)).href)) as BenchModule
    } catch (error) {
      failures++
      printFailure(`module ${label}`, error, options)
      continue
    }
    modules.push(module)
    const cases = (module.cases ?? []).filter(
      (benchCase) =>
        options.filter === null || benchCase.name.toLowerCase().includes(options.filter),
    )
    for (const benchCase of cases) {
      if (options.list) {
        console.log(`${benchCase.name.padEnd(28)} ${benchCase.description}`)
        continue
      }
      console.error(`▸ ${benchCase.name}`)
      try {
        await benchCase.run(context)
      } catch (error) {
        if (error instanceof BenchSkip) {
          console.error(`  skipped ${benchCase.name}: ${error.message}`)
          continue
        }
        failures++
        printFailure(benchCase.name, error, options)
      }
    }
  }
  for (const module of modules) {
    try {
      await module.disposeBench?.()
    } catch (error) {
      console.error(error)
    }
  }
  return failures === 0 ? 0 : 1
}

process.exitCode = await runBench(process.argv.slice(2))
// Worker threads, a browser or a server a case forgot would keep the process alive.
setTimeout(() => process.exit(), 100).unref()
