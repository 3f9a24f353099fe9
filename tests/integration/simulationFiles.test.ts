import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { checkpointFile, objectFile, runLogFile } from '../../domain/output/layout.ts'
import type { Simulation } from '../../domain/projects.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../../server/db/demoAccounts.ts'
import { UPLOADED_SETUP_FILE } from '../../server/files/simulationFiles.ts'
import { listZipEntries, writeZip, type ZipSource } from '../../server/files/zip.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

async function zipOf(files: Record<string, string>): Promise<Buffer> {
  const sources: ZipSource[] = Object.entries(files).map(([name, text]) => ({
    name,
    async *chunks() {
      yield await Promise.resolve(Buffer.from(text))
    },
  }))
  const parts: Uint8Array[] = []
  for await (const part of writeZip(sources)) parts.push(part)
  return Buffer.concat(parts)
}

describeEachDialect('simulation download and upload', (dialect) => {
  let server: TestServer
  let manager: string
  let simulation: Simulation

  const writeRunFile = (relativePath: string, text: string) => {
    const path = join(server.dataDir, relativePath)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
  const upload = async (
    simulationId: number,
    file: Buffer | null,
    jobFilename: string | null,
    token = manager,
  ) => {
    const form = new FormData()
    if (file) form.append('file', new Blob([file]), 'setup.zip')
    if (jobFilename !== null) form.append('job_filename', jobFilename)
    const response = await fetch(
      `${server.baseUrl}/api/client-upload/simulations/${simulationId}`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      },
    )
    return {
      status: response.status,
      body: (await response.json()) as {
        code?: string
        description?: string
        uploadedSetup?: boolean
      },
    }
  }
  const createSimulation = async (name: string) => {
    const projects = await server.request('GET', '/api/projects?pageLimit=50', { token: manager })
    const projectId = (projects.body as { results: { id: number }[] }).results[0]?.id
    const reply = await server.request('POST', `/api/projects/${projectId}/simulations`, {
      token: manager,
      body: { name },
    })
    expect(reply.status).toBe(201)
    return reply.body as Simulation
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    simulation = await createSimulation('Archived run')
  })
  afterAll(async () => {
    await server?.close()
  })

  it('refuses to download a simulation that has not started', async () => {
    const reply = await server.request('GET', `/api/simulations/${simulation.id}/download`, {
      token: manager,
    })
    expect(reply.status).toBe(409)
  })

  it('streams a started simulation as a ZIP: job file, record, outputs and log, no checkpoints', async () => {
    await server.database.handle.db
      .updateTable('simulations')
      .set({ state: 'finished', active_run_id: 7 })
      .where('id', '=', simulation.id)
      .execute()
    writeRunFile(objectFile(simulation.id, 7, 0, 'fluid-1', 'full'), 'arrow bytes')
    writeRunFile(runLogFile(simulation.id, 7), '{"time":0}\n')
    writeRunFile(checkpointFile(simulation.id, 7, 0), 'state')
    const response = await fetch(`${server.baseUrl}/api/simulations/${simulation.id}/download`, {
      headers: { authorization: `Bearer ${manager}` },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toContain('filename="Archived run.zip"')
    const names = listZipEntries(Buffer.from(await response.arrayBuffer())).map(
      (entry) => entry.name,
    )
    expect(names).toEqual([
      'jobfile_0.json',
      'simulation.json',
      'run/log.jsonl',
      'run/outputs/000000/fluid-1.full.arrow',
    ])
  })

  it("hides another organization's simulation and refuses a wrong token", async () => {
    const other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    expect(
      (await server.request('GET', `/api/simulations/${simulation.id}/download`, { token: other }))
        .status,
    ).toBe(404)
    expect(
      (await server.request('GET', `/api/simulations/${simulation.id}/download`, { token: 'nope' }))
        .status,
    ).toBe(401)
  })

  it('accepts a preprocessed setup only with the upload_preprocessing feature and its job file inside', async () => {
    const target = await createSimulation('Uploaded setup')
    const archive = await zipOf({ 'jobfile_0.json': '{}', 'meshes/tank.stl': 'solid' })
    const noFeature = await upload(target.id, archive, 'jobfile_0.json')
    expect(noFeature.status).toBe(403)

    await server.database.handle.db
      .updateTable('organizations')
      .set({ features: JSON.stringify(['cpu', 'upload_preprocessing']) })
      .execute()
    const missingJob = await upload(target.id, archive, 'job.json')
    expect(missingJob).toMatchObject({ status: 404, body: { code: 'job_file_not_found' } })
    const notZip = await upload(target.id, Buffer.from('\x89PNG not an archive'), 'jobfile_0.json')
    expect(notZip).toMatchObject({
      status: 400,
      body: { description: 'The file is not a ZIP archive.' },
    })
    const noJobName = await upload(target.id, archive, null)
    expect(noJobName).toMatchObject({ status: 400, body: { code: 'body_keys_missing' } })
    const read = await server.request('GET', `/api/simulations/${target.id}`, { token: manager })
    expect((read.body as Simulation).uploadedSetup).toBe(false)

    const accepted = await upload(target.id, archive, 'jobfile_0.json')
    expect(accepted).toMatchObject({ status: 200, body: { uploadedSetup: true } })
    const stored = join(server.dataDir, 'simulations', String(target.id), UPLOADED_SETUP_FILE)
    expect(readFileSync(stored).equals(archive)).toBe(true)

    // A later broken upload leaves the stored one untouched.
    expect((await upload(target.id, Buffer.from('garbage'), 'jobfile_0.json')).status).toBe(400)
    expect(readFileSync(stored).equals(archive)).toBe(true)
  })
})
