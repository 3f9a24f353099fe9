/**
 * The fault and fuzz suite of issue 13 on both databases: every route of ROUTES with fuzzed params,
 * queries and bodies (tests/fuzz/routeFuzzer.ts). No answer may be a 5xx and none may hang; every
 * refusal carries the product's error body. `npm test` runs the short profile (a few requests per
 * route); `npm run fuzz` (FUZZ_PROFILE=long) runs many more with another seed each time unless
 * FUZZ_SEED is set. The counts are printed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../../server/db/demoAccounts.ts'
import { formatCounts, fuzzRoutes, type FuzzTarget } from '../fuzz/routeFuzzer.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

const LONG = process.env.FUZZ_PROFILE === 'long'
const PER_ROUTE = Number(process.env.FUZZ_PER_ROUTE ?? (LONG ? 60 : 4))
const SEED = Number(process.env.FUZZ_SEED ?? (LONG ? Date.now() % 1_000_000 : 13))

describeEachDialect('API fuzz', (dialect) => {
  let server: TestServer
  let target: FuzzTarget

  beforeAll(async () => {
    server = await startTestServer(dialect)
    const token = (await server.login(DEMO_USERS.manager.email)).accessToken
    const other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const make = async (as: string, name: string) => {
      const project = await server.request('POST', '/api/projects', { token: as, body: { name } })
      const simulation = await server.request(
        'POST',
        `/api/projects/${project.body.id}/simulations`,
        { token: as, body: { name } },
      )
      const part = await server.request('POST', `/api/simulations/${simulation.body.id}/parts`, {
        token: as,
        body: {
          name: 'Box',
          component: { type: 'rigid' },
          shape: { type: 'stl_cube', dimensions: [0.1, 0.1, 0.1] },
        },
      })
      expect(part.status, part.text).toBe(201)
      return {
        project: project.body.id as number,
        simulation: simulation.body.id as number,
        part: part.body.id as number,
      }
    }
    target = {
      baseUrl: server.baseUrl,
      token,
      own: await make(token, 'Fuzz target'),
      foreign: await make(other, 'Foreign target'),
    }
  })
  afterAll(async () => {
    await server?.close()
  })

  it(
    'answers every fuzzed request of every route with no 5xx and no hang',
    async () => {
      const { counts, failures } = await fuzzRoutes(target, {
        perRoute: PER_ROUTE,
        seed: SEED,
        timeoutMs: 15_000,
        concurrency: 4,
      })
      console.log(formatCounts(`fuzz [${dialect}] seed ${SEED}`, counts))
      for (const failure of failures.slice(0, 10))
        console.log(
          `  ${failure.status} ${failure.method} ${failure.url.slice(0, 120)} ${failure.body?.slice(0, 200) ?? ''} -> ${failure.reply}`,
        )
      expect(counts.tried).toBeGreaterThan(0)
      expect(failures).toEqual([])
      expect(counts.refusedWithoutBody).toBe(0)
    },
    LONG ? 600_000 : 60_000,
  )
})
