import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SECURITY_RISK_MESSAGE } from '../../domain/errors.ts'
import { RUN_TEXTS } from '../../domain/rest/runRoutes.ts'
import { SETUP_LOCKED_MESSAGE, UPLOADED_SETUP_MESSAGE } from '../../domain/rest/setupSchemas.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'
import { createClock } from '../clock.ts'
import { AssemblyRunner, insertImportJob } from './AssemblyRunner.ts'
import { assembliesDirectory } from './stepFile.ts'
import {
  CUBE_MM_FIXTURE,
  TEST_STEP_LIMIT_BYTES,
  readStepFixture,
  startCadTestServer,
  type CadReply,
  type CadTestServer,
} from './testServer.ts'

/*
 * Who may reach the CAD calls and what the upload refuses (both dialects): every route answers
 * 401 without a token and 404 to another organization and to a contributor on a manager's
 * simulation (as the setup routes); edits of a locked or uploaded setup are refused with the spec
 * message; a file that is not STEP is a security risk, one over the limit is 413. A restart fails
 * the read that was running and runs the scheduled one.
 */

describeEachDialect('CAD import: access and refusals', (dialect) => {
  let t: CadTestServer
  let simulationId: number
  let assemblyId: number
  let partId: number
  let runId: number
  beforeAll(async () => {
    t = await startCadTestServer(dialect)
    simulationId = await t.createSimulation('Access')
    const upload = await t.upload(simulationId, 'cube.step', readStepFixture(CUBE_MM_FIXTURE))
    expect(upload.status, JSON.stringify(upload.body)).toBe(201)
    assemblyId = upload.body.id as number
    expect(await t.waitForEnd(`/assemblies/${assemblyId}`)).toMatchObject({ state: 'done' })
    const part = await t.api('POST', `/assemblies/${assemblyId}/parts`, {
      name: 'Cube',
      assemblyNodeIds: ['0'],
    })
    partId = part.body.id as number
    const run = await t.api('POST', `/assemblies/${assemblyId}`, {})
    expect(run.status, JSON.stringify(run.body)).toBe(201)
    runId = run.body.id as number
  })
  afterAll(async () => {
    await t.close()
  })

  /** Every CAD call, sent with a token. */
  const calls = (): { name: string; send: (token: string | null) => Promise<CadReply> }[] => [
    {
      name: 'upload',
      send: (token) => t.upload(simulationId, 'cube.step', readStepFixture(CUBE_MM_FIXTURE), token),
    },
    {
      name: 'listAssemblies',
      send: (token) => t.api('GET', `/simulations/${simulationId}/assemblies`, undefined, token),
    },
    {
      name: 'getAssembly',
      send: (token) => t.api('GET', `/assemblies/${assemblyId}`, undefined, token),
    },
    {
      name: 'startTessellation',
      send: (token) => t.api('POST', `/assemblies/${assemblyId}`, {}, token),
    },
    {
      name: 'listAssemblyParts',
      send: (token) => t.api('GET', `/assemblies/${assemblyId}/parts`, undefined, token),
    },
    {
      name: 'createAssemblyPart',
      send: (token) =>
        t.api(
          'POST',
          `/assemblies/${assemblyId}/parts`,
          { name: 'X', assemblyNodeIds: ['0'] },
          token,
        ),
    },
    {
      name: 'updateAssemblyPart',
      send: (token) =>
        t.api('PUT', `/assemblies/${assemblyId}/parts`, { id: partId, name: 'Y' }, token),
    },
    {
      name: 'deleteAssemblyParts',
      send: (token) =>
        t.api('DELETE', `/assemblies/${assemblyId}/parts`, { partIds: [partId] }, token),
    },
    {
      name: 'listTessellationRuns',
      send: (token) =>
        t.api('GET', `/simulations/${simulationId}/tessellation_runs`, undefined, token),
    },
    {
      name: 'cancelTessellationRun',
      send: (token) => t.api('DELETE', `/tessellation_runs/${runId}`, undefined, token),
    },
  ]

  it('answers 401 without a token, 404 to another organization and to a contributor', async () => {
    for (const call of calls()) {
      expect((await call.send(null)).status, `${call.name} without a token`).toBe(401)
      expect((await call.send(t.other)).status, `${call.name} of another organization`).toBe(404)
      expect((await call.send(t.contributor)).status, `${call.name} by a contributor`).toBe(404)
    }
    // Nothing was changed by the refused calls.
    const parts = await t.api('GET', `/assemblies/${assemblyId}/parts`)
    expect(parts.body).toMatchObject([{ id: partId, name: 'Cube' }])
    const assemblies = await t.api('GET', `/simulations/${simulationId}/assemblies`)
    expect(assemblies.body).toHaveLength(1)
  })

  it('describes the upload and every JSON route in the OpenAPI document', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, null)).body
    const upload = doc.paths['/api/client-upload/simulations/{id}/assemblies'].post
    expect(upload.operationId).toBe('uploadAssembly')
    expect(Object.keys(upload.responses as object)).toEqual(
      expect.arrayContaining(['201', '401', '409', '413', '503']),
    )
    expect(doc.paths['/api/assemblies/{id}'].post.operationId).toBe('startTessellation')
    expect(doc.paths['/api/tessellation_runs/{id}'].delete.operationId).toBe(
      'cancelTessellationRun',
    )
  })

  it('lets a contributor import into their own simulation', async () => {
    const own = await t.createSimulation('Contributor CAD', t.contributor)
    const upload = await t.upload(own, 'cube.step', readStepFixture(CUBE_MM_FIXTURE), t.contributor)
    expect(upload.status, JSON.stringify(upload.body)).toBe(201)
    const listed = await t.api('GET', `/simulations/${own}/assemblies`, undefined, t.contributor)
    expect(listed.body).toMatchObject([{ id: upload.body.id, filename: 'cube.step' }])
  })

  it('refuses every change of a locked or uploaded setup with the spec message; reads stay', async () => {
    await t.waitForEnd(`/assemblies/${assemblyId}`)
    const db = t.database.handle.db
    for (const [flags, message] of [
      [{ setup_locked: 1, uploaded_setup: 0 }, SETUP_LOCKED_MESSAGE],
      [{ setup_locked: 0, uploaded_setup: 1 }, UPLOADED_SETUP_MESSAGE],
    ] as const) {
      await db.updateTable('simulations').set(flags).where('id', '=', simulationId).execute()
      for (const call of calls()) {
        const reply = await call.send(t.manager)
        if (call.name.startsWith('list') || call.name.startsWith('get')) {
          expect(reply.status, call.name).toBe(200)
          continue
        }
        expect(reply.status, call.name).toBe(409)
        expect(reply.body.description, call.name).toBe(message)
      }
    }
    await db
      .updateTable('simulations')
      .set({ setup_locked: 0, uploaded_setup: 0 })
      .where('id', '=', simulationId)
      .execute()
  })

  it('refuses a file that is not STEP (503), one too large (413) and another ending (400), keeping nothing', async () => {
    const simulation = await t.createSimulation('Refused files')
    const stl = new TextEncoder().encode('solid cube\n  facet normal 0 0 1\nendsolid cube\n')
    const notStep = await t.upload(simulation, 'cube.step', stl)
    expect(notStep.status).toBe(503)
    expect(notStep.body.description).toBe(SECURITY_RISK_MESSAGE)
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])
    expect((await t.upload(simulation, 'picture.stp', png)).status).toBe(503)
    const big = new Uint8Array(TEST_STEP_LIMIT_BYTES + 1024).fill(0x20)
    big.set(new TextEncoder().encode('ISO-10303-21;\nHEADER;\n'))
    const tooLarge = await t.upload(simulation, 'big.step', big)
    expect(tooLarge.status).toBe(413)
    const wrongEnding = await t.upload(simulation, 'cube.stl', readStepFixture(CUBE_MM_FIXTURE))
    expect(wrongEnding.status).toBe(400)
    expect((await t.api('GET', `/simulations/${simulation}/assemblies`)).body).toEqual([])
    const directory = join(t.dataDir, assembliesDirectory(simulation))
    expect(existsSync(directory) ? readdirSync(directory) : []).toEqual([])
  })

  it('after a restart, fails the read that was running and runs the scheduled one', async () => {
    const db = t.database.handle.db
    const { stored_path: storedPath } = await db
      .selectFrom('assemblies')
      .select('stored_path')
      .where('id', '=', assemblyId)
      .executeTakeFirstOrThrow()
    const nowIso = new Date().toISOString()
    const insert = async (state: 'running' | 'scheduled') => {
      const jobId = await insertImportJob(db, simulationId, nowIso)
      await db.updateTable('jobs').set({ state }).where('id', '=', jobId).execute()
      const { id } = await db
        .insertInto('assemblies')
        .values({
          simulation_id: simulationId,
          uploader_id: null,
          filename: `${state}.step`,
          stored_path: storedPath,
          import_job_id: jobId,
          created_at: nowIso,
          updated_at: nowIso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return id
    }
    const interrupted = await insert('running')
    const waiting = await insert('scheduled')
    const runner = new AssemblyRunner({ db, clock: createClock(), dataDir: t.dataDir })
    try {
      await runner.start()
      expect(await t.waitForEnd(`/assemblies/${interrupted}`)).toMatchObject({
        state: 'failed',
        tessellationErrors: [{ message: RUN_TEXTS.serverRestartFailed }],
      })
      expect(await t.waitForEnd(`/assemblies/${waiting}`)).toMatchObject({
        state: 'done',
        assemblyMetadata: [{ entryId: '0' }],
      })
    } finally {
      await runner.close()
    }
  })
})
