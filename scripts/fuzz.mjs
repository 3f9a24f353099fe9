#!/usr/bin/env node
// `npm run fuzz`: the long profiles of issue 13's fault and fuzz suite on SQLite and PostgreSQL:
// - the API fuzz (tests/integration/fuzz.test.ts): FUZZ_PER_ROUTE requests per route (default 60),
//   a new seed each run unless FUZZ_SEED is set; fails on any 5xx, hang or bare 4xx;
// - the kill -9 faults (tests/integration/faults.test.ts): FAULT_KILLS kills (default 4) of each
//   kind (run, upload, export) at random moments, a new seed each run unless FAULT_SEED is set;
//   prints tried, recovered cleanly and lost per database; fails when anything was lost.
import { spawnSync } from 'node:child_process'

const result = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    'tests/integration/fuzz.test.ts',
    'tests/integration/faults.test.ts',
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', env: { ...process.env, FUZZ_PROFILE: 'long', FAULT_PROFILE: 'long' } },
)
process.exit(result.status ?? 1)
