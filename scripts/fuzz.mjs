#!/usr/bin/env node
// `npm run fuzz`: the long profile of the API fuzz suite (tests/integration/fuzz.test.ts) on SQLite
// and PostgreSQL: FUZZ_PER_ROUTE requests per route (default 60), a new seed each run unless
// FUZZ_SEED is set. Prints the counts per database; fails on any 5xx, hang or bare 4xx.
import { spawnSync } from 'node:child_process'

const result = spawnSync(
  'npx',
  ['vitest', 'run', 'tests/integration/fuzz.test.ts', ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, FUZZ_PROFILE: 'long' } },
)
process.exit(result.status ?? 1)
