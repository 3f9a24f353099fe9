#!/usr/bin/env node
// `npm test`: every vitest suite (domain, server on both dialects, engine, UI units), then the
// Playwright end-to-end tests in Debian's chromium. Prints each suite's counts and, last, the
// totals as `N passed, N failed`. Fails when anything failed or when the e2e tests did not run.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'

mkdirSync('.tmp', { recursive: true })
const VITEST_JSON = '.tmp/vitest.json'
const PLAYWRIGHT_JSON = '.tmp/playwright.json'
for (const file of [VITEST_JSON, PLAYWRIGHT_JSON]) rmSync(file, { force: true })

function run(command, args, env = {}) {
  console.log(`\n$ ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  return result.status ?? 1
}

function readJson(file) {
  if (!existsSync(file)) return undefined
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}

const extraArgs = process.argv.slice(2)
const vitestCode = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${VITEST_JSON}`,
  ...extraArgs,
])
const vitest = readJson(VITEST_JSON)
const unit = {
  passed: vitest?.numPassedTests ?? 0,
  failed: (vitest?.numFailedTests ?? 0) + (vitest ? 0 : 1),
  skipped: (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0),
}
if (vitestCode !== 0 && unit.failed === 0) unit.failed = 1 // a suite that crashed before reporting

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
let e2e = { passed: 0, failed: 1, skipped: 0 }
let e2eCode = 1
if (!existsSync(chromium)) {
  console.error(
    `\nEnd-to-end tests cannot run: no chromium at ${chromium} (apt-get install -y chromium).`,
  )
} else {
  e2eCode = run('npx', ['playwright', 'test'])
  const report = readJson(PLAYWRIGHT_JSON)
  if (report?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats
    e2e = { passed: expected + flaky, failed: unexpected, skipped }
    if (e2eCode !== 0 && unexpected === 0) e2e.failed = 1 // e.g. the web server did not start
  }
  if (e2e.passed + e2e.failed === 0) {
    console.error('\nEnd-to-end tests did not run.')
    e2e.failed = 1
  }
}

// CI shows only the tail of this output: name what failed right above the totals.
const failures = []
for (const file of vitest?.testResults ?? []) {
  const tests = file.assertionResults ?? []
  for (const test of tests) {
    if (test.status !== 'failed') continue
    failures.push(`vitest ${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}`)
    const message = (test.failureMessages ?? [])[0]?.split('\n').slice(0, 3).join(' / ')
    if (message) failures.push(`    ${message.slice(0, 400)}`)
  }
  if (file.status === 'failed' && !tests.some((test) => test.status === 'failed')) {
    failures.push(`vitest ${file.name.replace(`${process.cwd()}/`, '')} (the file failed: ${String(file.message ?? '').slice(0, 300)})`)
  }
}
const collectPlaywright = (suite, titles) => {
  for (const child of suite.suites ?? []) collectPlaywright(child, [...titles, child.title])
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status !== 'unexpected') continue
      failures.push(`e2e ${[...titles, spec.title].filter(Boolean).join(' › ')}`)
      const error = test.results?.at(-1)?.error?.message
      if (error) failures.push(`    ${error.split('\n').slice(0, 3).join(' / ').slice(0, 400)}`)
    }
  }
}
for (const suite of readJson(PLAYWRIGHT_JSON)?.suites ?? []) collectPlaywright(suite, [suite.title])
if (failures.length > 0) console.log(`\nFailed:\n${failures.join('\n')}`)

const line = (name, s) => `${name}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`
console.log(`\n${line('vitest', unit)}\n${line('e2e', e2e)}`)
const passed = unit.passed + e2e.passed
const failed = unit.failed + e2e.failed
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 && vitestCode === 0 && e2eCode === 0 ? 0 : 1)
