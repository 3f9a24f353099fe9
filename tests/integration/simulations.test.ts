import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  NAME_USED_MESSAGE,
  type Page,
  type Project,
  type Simulation,
} from '../../domain/projects.ts'
import { defaultSettings } from '../../domain/settings.ts'
import { DEMO_PROJECT_NAME, DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { DEMO_DAM_BREAK } from '../../server/setup/demoSetup.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

describeEachDialect('simulations', (dialect) => {
  let server: TestServer
  let manager: string
  let contributor: string

  const createProject = async (name: string, token = manager) => {
    const reply = await server.request('POST', '/api/projects', { token, body: { name } })
    expect(reply.status).toBe(201)
    return reply.body as Project
  }
  const createSimulation = async (projectId: number, body: object, token = manager) =>
    server.request<Simulation>('POST', `/api/projects/${projectId}/simulations`, { token, body })
  const readProject = async (id: number) =>
    (await server.request<Project>('GET', `/api/projects/${id}`, { token: manager })).body
  const readSimulation = async (id: number) =>
    (await server.request<Simulation>('GET', `/api/simulations/${id}`, { token: manager })).body

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
  })
  afterAll(async () => {
    await server?.close()
  })

  it('creates a simulation with 201, default settings and state not started', async () => {
    const project = await createProject('Create sims')
    const reply = await createSimulation(project.id, { name: 'Fresh', description: 'A new one' })
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({
      name: 'Fresh',
      description: 'A new one',
      state: 'not started',
      uploadedSetup: false,
      activeRunId: null,
      setupLocked: false,
      resumable: false,
      creditsConsumed: 0,
      size: 0,
      projectId: project.id,
      project: { id: project.id, name: 'Create sims' },
      creator: { fullName: 'Mia Manager' },
      lastStopCondition: null,
      solver: null,
      log: null,
      outputTimeInterval: defaultSettings().outputTimeInterval,
      settings: defaultSettings(),
    })
    expect(await readSimulation(reply.body.id)).toEqual(reply.body)
    const after = await readProject(project.id)
    expect(after.simulations.map((s) => s.name)).toEqual(['Fresh'])
    expect(after.updatedAt >= reply.body.createdAt).toBe(true)
    expect(after.updatedAt > project.updatedAt).toBe(true)
  })

  it('creates a simulation with partial settings over the defaults', async () => {
    const project = await createProject('Settings on create')
    const reply = await createSimulation(project.id, {
      name: 'Tuned',
      settings: { endTime: 3, gravity: [0, 0, -1] },
    })
    expect(reply.status).toBe(201)
    expect(reply.body.settings).toEqual({ ...defaultSettings(), endTime: 3, gravity: [0, 0, -1] })
  })

  it('seeds the dam break simulation with its adjusted settings', async () => {
    const list = await server.request<Page<Project>>('GET', '/api/projects?q=dam%20break', {
      token: manager,
    })
    const demo = list.body.results.find((p) => p.name === DEMO_PROJECT_NAME)!
    const damBreak = await readSimulation(demo.simulations[0]!.id)
    expect(damBreak.settings).toMatchObject({
      particleDiameter: DEMO_DAM_BREAK.particleDiameter,
      endTime: DEMO_DAM_BREAK.endTime,
      outputTimeInterval: DEMO_DAM_BREAK.outputTimeInterval,
    })
    expect(damBreak.outputTimeInterval).toBe(DEMO_DAM_BREAK.outputTimeInterval)
  })

  it('updates name, description, settings and post image, keeping other settings', async () => {
    const project = await createProject('Update sims')
    const created = (
      await createSimulation(project.id, { name: 'Before', settings: { endTime: 5 } })
    ).body
    const form = new FormData()
    form.append(
      'file',
      new Blob([Buffer.from('\x89PNG\r\n\x1a\n and the rest', 'latin1')]),
      'a.png',
    )
    const image = (await (
      await fetch(`${server.baseUrl}/api/client-upload/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${manager}` },
        body: form,
      })
    ).json()) as { id: number }
    const reply = await server.request('PUT', `/api/simulations/${created.id}`, {
      token: manager,
      body: {
        name: ' After ',
        description: 'Changed',
        settings: { particleDiameter: 0.005, multiphase: true },
        postImageId: image.id,
      },
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      name: 'After',
      description: 'Changed',
      postImageId: image.id,
    })
    expect(reply.body.settings).toEqual({
      ...defaultSettings(),
      endTime: 5,
      particleDiameter: 0.005,
      multiphase: true,
    })
    expect(reply.body.updatedAt > created.updatedAt).toBe(true)
    expect(await readSimulation(created.id)).toEqual(reply.body)
    expect((await readProject(project.id)).updatedAt >= reply.body.updatedAt).toBe(true)
  })

  it('clones with 201 into the same project as (copy), (copy 2), (copy 3) without runs', async () => {
    const project = await createProject('Clone sims')
    const original = (
      await createSimulation(project.id, {
        name: 'Original',
        description: 'To be cloned',
        settings: { endTime: 7 },
      })
    ).body
    await server.database.handle.db
      .updateTable('simulations')
      .set({ state: 'completed', active_run_id: 3, size_bytes: 1234, credits_consumed: 5 })
      .where('id', '=', original.id)
      .execute()
    const names: string[] = []
    for (let n = 0; n < 3; n++) {
      const reply = await server.request<Simulation>('POST', `/api/simulations/${original.id}`, {
        token: manager,
      })
      expect(reply.status).toBe(201)
      expect(reply.body).toMatchObject({
        projectId: project.id,
        description: 'To be cloned',
        state: 'not started',
        activeRunId: null,
        size: 0,
        creditsConsumed: 0,
      })
      expect(reply.body.settings.endTime).toBe(7)
      names.push(reply.body.name)
    }
    expect(names).toEqual(['Original (copy)', 'Original (copy 2)', 'Original (copy 3)'])
    expect((await readProject(project.id)).simulations).toHaveLength(4)
  })

  it('keeps a clone name within 100 characters', async () => {
    const project = await createProject('Clone long names')
    const long = 'L'.repeat(100)
    const original = (await createSimulation(project.id, { name: long })).body
    const first = await server.request('POST', `/api/simulations/${original.id}`, {
      token: manager,
    })
    expect(first.body.name).toBe(`${'L'.repeat(93)} (copy)`)
    const second = await server.request('POST', `/api/simulations/${original.id}`, {
      token: manager,
    })
    expect(second.body.name).toBe(`${'L'.repeat(91)} (copy 2)`)
    expect(second.body.name).toHaveLength(100)
  })

  it('moves a simulation to another project and bumps both projects', async () => {
    const from = await createProject('Move from')
    const to = await createProject('Move to')
    const simulation = (await createSimulation(from.id, { name: 'Traveller' })).body
    const fromBefore = await readProject(from.id)
    const toBefore = await readProject(to.id)
    const reply = await server.request('PUT', `/api/simulations/${simulation.id}/move`, {
      token: manager,
      body: { projectId: to.id },
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ projectId: to.id, project: { id: to.id, name: 'Move to' } })
    const fromAfter = await readProject(from.id)
    const toAfter = await readProject(to.id)
    expect(fromAfter.simulations).toEqual([])
    expect(toAfter.simulations.map((s) => s.name)).toEqual(['Traveller'])
    expect(fromAfter.updatedAt > fromBefore.updatedAt).toBe(true)
    expect(toAfter.updatedAt > toBefore.updatedAt).toBe(true)
  })

  it('lets a manager move a simulation into a contributor project of the organization', async () => {
    const contributorProject = await createProject('Contributor target', contributor)
    const from = await createProject('Manager source')
    const simulation = (await createSimulation(from.id, { name: 'Handed over' })).body
    const reply = await server.request('PUT', `/api/simulations/${simulation.id}/move`, {
      token: manager,
      body: { projectId: contributorProject.id },
    })
    expect(reply.status).toBe(200)
    const seen = await server.request<Project>('GET', `/api/projects/${contributorProject.id}`, {
      token: contributor,
    })
    expect(seen.body.simulations.map((s) => s.name)).toEqual(['Handed over'])
  })

  it('answers 404 for a move to a project that does not exist', async () => {
    const project = await createProject('Move nowhere')
    const simulation = (await createSimulation(project.id, { name: 'Stay' })).body
    const reply = await server.request('PUT', `/api/simulations/${simulation.id}/move`, {
      token: manager,
      body: { projectId: 999_999 },
    })
    expect(reply.status).toBe(404)
    expect((await readSimulation(simulation.id)).projectId).toBe(project.id)
  })

  it('deletes a simulation and bumps its project', async () => {
    const project = await createProject('Delete sims')
    const simulation = (await createSimulation(project.id, { name: 'Doomed' })).body
    const before = await readProject(project.id)
    const reply = await server.request('DELETE', `/api/simulations/${simulation.id}`, {
      token: manager,
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ id: simulation.id })
    expect(
      (await server.request('GET', `/api/simulations/${simulation.id}`, { token: manager })).status,
    ).toBe(404)
    const after = await readProject(project.id)
    expect(after.simulations).toEqual([])
    expect(after.updatedAt > before.updatedAt).toBe(true)
    const again = await server.request('DELETE', `/api/simulations/${simulation.id}`, {
      token: manager,
    })
    expect(again.status).toBe(404)
  })

  it('refuses duplicate simulation names on create, rename, move and keeps the data', async () => {
    const project = await createProject('Dup sims')
    const target = await createProject('Dup sims target')
    const a = (await createSimulation(project.id, { name: 'Same' })).body
    const b = (await createSimulation(project.id, { name: 'Other' })).body
    const clash = (await createSimulation(target.id, { name: 'Other' })).body
    const projectBefore = await readProject(project.id)
    const targetBefore = await readProject(target.id)

    const create = await createSimulation(project.id, { name: 'Same' })
    expect(create.status).toBe(409)
    expect(create.body).toMatchObject({ code: 'duplicate_key', description: NAME_USED_MESSAGE })

    const rename = await server.request('PUT', `/api/simulations/${b.id}`, {
      token: manager,
      body: { name: 'Same', description: 'not stored' },
    })
    expect(rename.status).toBe(409)
    expect(rename.body.description).toBe(NAME_USED_MESSAGE)

    const move = await server.request('PUT', `/api/simulations/${b.id}/move`, {
      token: manager,
      body: { projectId: target.id },
    })
    expect(move.status).toBe(409)
    expect(move.body.description).toBe(NAME_USED_MESSAGE)

    expect(await readProject(project.id)).toEqual(projectBefore)
    expect(await readProject(target.id)).toEqual(targetBefore)
    // Same name in another project is fine; renaming to the own name is fine.
    expect(clash.name).toBe('Other')
    const same = await server.request('PUT', `/api/simulations/${a.id}`, {
      token: manager,
      body: { name: 'Same' },
    })
    expect(same.status).toBe(200)
    // Moving within the same project is a no-op, not a clash with itself.
    const stay = await server.request('PUT', `/api/simulations/${a.id}/move`, {
      token: manager,
      body: { projectId: project.id },
    })
    expect(stay.status).toBe(200)
  })

  it('skips taken names when cloning, so a clone never clashes', async () => {
    const project = await createProject('Clone clash')
    const original = (await createSimulation(project.id, { name: 'Base' })).body
    await createSimulation(project.id, { name: 'Base (copy)' })
    const clone = await server.request('POST', `/api/simulations/${original.id}`, {
      token: manager,
    })
    expect(clone.status).toBe(201)
    expect(clone.body.name).toBe('Base (copy 2)')
  })

  it('lets a contributor work with simulations in their own project', async () => {
    const project = await createProject('Contributor sims', contributor)
    const created = await createSimulation(project.id, { name: 'Mine' }, contributor)
    expect(created.status).toBe(201)
    const clone = await server.request('POST', `/api/simulations/${created.body.id}`, {
      token: contributor,
    })
    expect(clone.status).toBe(201)
    expect(clone.body.creator.fullName).toBe('Carl Contributor')
    const removed = await server.request('DELETE', `/api/simulations/${clone.body.id}`, {
      token: contributor,
    })
    expect(removed.status).toBe(200)
  })
})
