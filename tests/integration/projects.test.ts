import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Organization } from '../../domain/account.ts'
import type { RouteResponse } from '../../domain/rest.ts'
import { NAME_USED_MESSAGE, type Page, type Project } from '../../domain/projects.ts'
import {
  CONTRIBUTOR_PROJECT_NAME,
  DEMO_PROJECT_NAME,
  DEMO_SIMULATION_NAME,
  DEMO_USERS,
  OTHER_ORGANIZATION_USER,
} from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

type TeamUser = RouteResponse<'teamUsers'>[number]

describeEachDialect('projects', (dialect) => {
  let server: TestServer
  let manager: string
  let contributor: string
  let admin: string
  let other: string
  let demoProject: Project
  let sandbox: Project

  const list = async (token: string, query = '') => {
    const reply = await server.request<Page<Project>>('GET', `/api/projects${query}`, { token })
    expect(reply.status).toBe(200)
    return reply.body
  }
  const names = (page: Page<{ name: string }>) => page.results.map((p) => p.name)
  const createProject = async (token: string, name: string, description?: string) => {
    const reply = await server.request('POST', '/api/projects', {
      token,
      body: description === undefined ? { name } : { name, description },
    })
    expect(reply.status).toBe(201)
    return reply.body as Project
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    admin = (await server.login(DEMO_USERS.admin.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const all = await list(manager, '?pageLimit=100')
    demoProject = all.results.find((p) => p.name === DEMO_PROJECT_NAME)!
    sandbox = all.results.find((p) => p.name === CONTRIBUTOR_PROJECT_NAME)!
  })
  afterAll(async () => {
    await server?.close()
  })

  it('seeds the demo project with its dam break simulation for the manager', () => {
    expect(demoProject).toMatchObject({ creator: { fullName: 'Mia Manager' }, size: 0 })
    expect(demoProject.description).toMatch(/dam break/i)
    expect(demoProject.simulations).toHaveLength(1)
    expect(demoProject.simulations[0]).toMatchObject({
      name: DEMO_SIMULATION_NAME,
      state: 'not started',
      creator: { fullName: 'Mia Manager' },
    })
    expect(sandbox.creator.fullName).toBe('Carl Contributor')
  })

  it('shows a contributor only the projects they created', async () => {
    const page = await list(contributor, '?pageLimit=100')
    expect(names(page)).toContain(CONTRIBUTOR_PROJECT_NAME)
    expect(names(page)).not.toContain(DEMO_PROJECT_NAME)
    expect(page.results.every((p) => p.creator.fullName === 'Carl Contributor')).toBe(true)
  })

  it("answers 404 when a contributor reads, edits, deletes or adds to a manager's project", async () => {
    const path = `/api/projects/${demoProject.id}`
    expect((await server.request('GET', path, { token: contributor })).status).toBe(404)
    const put = await server.request('PUT', path, {
      token: contributor,
      body: { name: 'Mine now' },
    })
    expect(put.status).toBe(404)
    expect(put.body.code).toBe('resource_not_found')
    expect((await server.request('DELETE', path, { token: contributor })).status).toBe(404)
    const create = await server.request('POST', `${path}/simulations`, {
      token: contributor,
      body: { name: 'Sneaky' },
    })
    expect(create.status).toBe(404)
    const simulation = demoProject.simulations[0]!.id
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PUT', '', { name: 'x' }],
      ['POST', '', undefined],
      ['DELETE', '', undefined],
      ['PUT', '/move', { projectId: sandbox.id }],
    ] as const) {
      const reply = await server.request(method, `/api/simulations/${simulation}${suffix}`, {
        token: contributor,
        body,
      })
      expect(reply.status, `${method} ${suffix}`).toBe(404)
    }
    const after = await server.request('GET', path, { token: manager })
    expect(after.body.name).toBe(DEMO_PROJECT_NAME)
    expect(after.body.simulations).toHaveLength(1)
  })

  it('refuses a contributor moving their simulation into a project they cannot see', async () => {
    const simulation = sandbox.simulations[0]!.id
    const reply = await server.request('PUT', `/api/simulations/${simulation}/move`, {
      token: contributor,
      body: { projectId: demoProject.id },
    })
    expect(reply.status).toBe(404)
    const read = await server.request('GET', `/api/simulations/${simulation}`, {
      token: contributor,
    })
    expect(read.body.projectId).toBe(sandbox.id)
  })

  it('shows managers and admins every project of their organization', async () => {
    for (const token of [manager, admin]) {
      const page = await list(token, '?pageLimit=100')
      expect(names(page)).toEqual(
        expect.arrayContaining([DEMO_PROJECT_NAME, CONTRIBUTOR_PROJECT_NAME]),
      )
    }
    const read = await server.request('GET', `/api/projects/${sandbox.id}`, { token: manager })
    expect(read.status).toBe(200)
  })

  it('shows another organization none of this one', async () => {
    const page = await list(other, '?pageLimit=100')
    expect(page).toEqual({ results: [], resultCount: 0, pageCount: 0 })
    const read = await server.request('GET', `/api/projects/${demoProject.id}`, { token: other })
    expect(read.status).toBe(404)
    const simulation = await server.request(
      'GET',
      `/api/simulations/${demoProject.simulations[0]!.id}`,
      {
        token: other,
      },
    )
    expect(simulation.status).toBe(404)
    const organizations = await server.request<Organization[]>('GET', '/api/organizations', {
      token: other,
    })
    expect(organizations.body.map((o) => o.name)).toEqual(['Other Organization'])
    const users = await server.request<TeamUser[]>('GET', '/api/mgmt/users', { token: other })
    expect(users.body.map((u) => u.email)).toEqual([OTHER_ORGANIZATION_USER.email])
    // The same name may exist in two organizations.
    await createProject(other, DEMO_PROJECT_NAME)
    expect(names(await list(manager, `?q=${encodeURIComponent(DEMO_PROJECT_NAME)}`))).toEqual([
      DEMO_PROJECT_NAME,
    ])
  })

  it('lists the users of the organization for managers and refuses contributors with 403', async () => {
    const users = await server.request<TeamUser[]>('GET', '/api/mgmt/users', { token: manager })
    expect(users.status).toBe(200)
    expect(users.body.map((u) => u.email).sort()).toEqual(
      [DEMO_USERS.admin.email, DEMO_USERS.contributor.email, DEMO_USERS.manager.email].sort(),
    )
    expect(users.body[0]).toEqual({
      id: expect.any(Number),
      fullName: expect.any(String),
      email: expect.any(String),
      role: expect.any(String),
      avatarId: expect.any(Number),
      department: null,
    })
    const refused = await server.request('GET', '/api/mgmt/users', { token: contributor })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('forbidden')
  })

  it('gives a contributor nothing when filtering by another creator', async () => {
    const me = await server.request('GET', '/api/users', { token: manager })
    const page = await list(contributor, `?createdBy=${me.body.id}`)
    expect(page.resultCount).toBe(0)
    const mine = await server.request('GET', '/api/users', { token: contributor })
    const own = await list(contributor, `?createdBy=${mine.body.id}`)
    expect(names(own)).toContain(CONTRIBUTOR_PROJECT_NAME)
  })

  it('filters by creator for a manager', async () => {
    const contributorUser = await server.request('GET', '/api/users', { token: contributor })
    const page = await list(manager, `?createdBy=${contributorUser.body.id}&pageLimit=100`)
    expect(page.results.every((p) => p.creator.id === contributorUser.body.id)).toBe(true)
    expect(names(page)).toContain(CONTRIBUTOR_PROJECT_NAME)
  })

  it('creates, reads, edits and deletes a project with its simulations', async () => {
    const created = await createProject(manager, 'Lifecycle project')
    expect(created).toMatchObject({
      name: 'Lifecycle project',
      description: '',
      simulations: [],
      size: 0,
      creator: { fullName: 'Mia Manager' },
    })
    expect(created.createdAt).toBe(created.updatedAt)
    const read = await server.request('GET', `/api/projects/${created.id}`, { token: manager })
    expect(read.body).toEqual(created)

    const edited = await server.request('PUT', `/api/projects/${created.id}`, {
      token: manager,
      body: { name: '  Lifecycle project, renamed ', description: 'Now with a description' },
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({
      name: 'Lifecycle project, renamed',
      description: 'Now with a description',
    })
    expect(edited.body.updatedAt > created.updatedAt).toBe(true)

    const simulation = await server.request('POST', `/api/projects/${created.id}/simulations`, {
      token: manager,
      body: { name: 'Inside' },
    })
    expect(simulation.status).toBe(201)
    const deleted = await server.request('DELETE', `/api/projects/${created.id}`, {
      token: manager,
    })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ id: created.id })
    expect(
      (await server.request('GET', `/api/projects/${created.id}`, { token: manager })).status,
    ).toBe(404)
    expect(
      (await server.request('GET', `/api/simulations/${simulation.body.id}`, { token: manager }))
        .status,
    ).toBe(404)
    const rows = await server.database.handle.db
      .selectFrom('simulations')
      .select('id')
      .where('project_id', '=', created.id)
      .execute()
    expect(rows).toEqual([])
  })

  it('lets a contributor create and edit their own project', async () => {
    const created = await createProject(contributor, 'Carl lab', 'Trying')
    const edited = await server.request('PUT', `/api/projects/${created.id}`, {
      token: contributor,
      body: { description: 'Still trying' },
    })
    expect(edited.body).toMatchObject({ name: 'Carl lab', description: 'Still trying' })
    // And the manager sees it too.
    expect(names(await list(manager, '?q=carl%20lab'))).toEqual(['Carl lab'])
  })

  it('refuses a duplicate project name on create and rename with 409 and changes nothing', async () => {
    const first = await createProject(manager, 'Unique name A')
    const second = await createProject(manager, 'Unique name B')
    const duplicate = await server.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'Unique name A' },
    })
    expect(duplicate.status).toBe(409)
    expect(duplicate.body).toEqual({
      code: 'duplicate_key',
      title: expect.any(String),
      description: NAME_USED_MESSAGE,
    })
    // A contributor cannot see the manager's project but still shares the organization's names.
    const fromContributor = await server.request('POST', '/api/projects', {
      token: contributor,
      body: { name: 'Unique name A' },
    })
    expect(fromContributor.status).toBe(409)
    const rename = await server.request('PUT', `/api/projects/${second.id}`, {
      token: manager,
      body: { name: 'Unique name A', description: 'should not be stored' },
    })
    expect(rename.status).toBe(409)
    expect(rename.body.description).toBe(NAME_USED_MESSAGE)
    const after = await server.request('GET', `/api/projects/${second.id}`, { token: manager })
    expect(after.body).toEqual(second)
    expect(names(await list(manager, '?q=unique%20name%20a'))).toEqual(['Unique name A'])
    // Renaming a project to its own name is fine.
    const same = await server.request('PUT', `/api/projects/${first.id}`, {
      token: manager,
      body: { name: 'Unique name A' },
    })
    expect(same.status).toBe(200)
  })

  it('searches project names and simulation names, case-insensitively', async () => {
    const tank = await createProject(manager, 'Search Tank Alpha')
    await createProject(manager, 'Search Other Beta')
    await server.request('POST', `/api/projects/${tank.id}/simulations`, {
      token: manager,
      body: { name: 'Sloshing ZETA run' },
    })
    expect(names(await list(manager, '?q=tank%20ALPHA'))).toEqual(['Search Tank Alpha'])
    expect(names(await list(manager, '?q=zeta'))).toEqual(['Search Tank Alpha'])
    expect(names(await list(manager, '?q=search&orderBy=name'))).toEqual([
      'Search Other Beta',
      'Search Tank Alpha',
    ])
    // LIKE wildcards are taken literally.
    expect((await list(manager, '?q=%25')).resultCount).toBe(0)
    expect((await list(manager, '?q=_')).resultCount).toBe(0)
    expect((await list(manager, '?q=nothing%20like%20this')).resultCount).toBe(0)
  })

  it('pages the list with pageLimit and pageNumber', async () => {
    for (const n of [1, 2, 3]) await createProject(manager, `Paging ${n}`)
    const first = await list(manager, '?q=paging&pageLimit=2&orderBy=name')
    expect(first.resultCount).toBe(3)
    expect(first.pageCount).toBe(2)
    expect(names(first)).toEqual(['Paging 1', 'Paging 2'])
    const second = await list(manager, '?q=paging&pageLimit=2&pageNumber=2&orderBy=name')
    expect(names(second)).toEqual(['Paging 3'])
    expect(second.resultCount).toBe(3)
    const beyond = await list(manager, '?q=paging&pageLimit=2&pageNumber=3')
    expect(beyond.results).toEqual([])
  })

  it('defaults to 10 projects per page', async () => {
    for (let n = 0; n < 11; n++) await createProject(manager, `Default page ${n}`)
    const page = await list(manager, '?q=default%20page')
    expect(page.results).toHaveLength(10)
    expect(page.resultCount).toBe(11)
    expect(page.pageCount).toBe(2)
  })

  it('filters by projectIds, comma separated or repeated', async () => {
    const a = await createProject(manager, 'Ids A')
    const b = await createProject(manager, 'Ids B')
    await createProject(manager, 'Ids C')
    const comma = await list(manager, `?projectIds=${a.id},${b.id}&orderBy=name`)
    expect(names(comma)).toEqual(['Ids A', 'Ids B'])
    const repeated = await list(manager, `?projectIds=${a.id}&projectIds=${b.id}&orderBy=name`)
    expect(names(repeated)).toEqual(['Ids A', 'Ids B'])
    // A contributor asking for the manager's project by id gets nothing.
    expect((await list(contributor, `?projectIds=${a.id}`)).resultCount).toBe(0)
  })

  it('orders by name, updatedAt and size, with asc flipping the direction', async () => {
    const small = await createProject(manager, 'Order b small')
    const large = await createProject(manager, 'Order a large')
    const empty = await createProject(manager, 'Order c empty')
    for (const [project, bytes] of [
      [small, 10],
      [large, 5_000_000_000],
    ] as const) {
      const sim = await server.request('POST', `/api/projects/${project.id}/simulations`, {
        token: manager,
        body: { name: 'Sized' },
      })
      await server.database.handle.db
        .updateTable('simulations')
        .set({ size_bytes: bytes })
        .where('id', '=', sim.body.id)
        .execute()
    }
    const q = '?q=order%20'
    expect(names(await list(manager, `${q}&orderBy=name`))).toEqual([
      'Order a large',
      'Order b small',
      'Order c empty',
    ])
    expect(names(await list(manager, `${q}&orderBy=name&asc=false`))).toEqual([
      'Order c empty',
      'Order b small',
      'Order a large',
    ])
    const bySize = await list(manager, `${q}&orderBy=size`)
    expect(names(bySize)).toEqual(['Order a large', 'Order b small', 'Order c empty'])
    expect(bySize.results.map((p) => p.size)).toEqual([5_000_000_000, 10, 0])
    expect(names(await list(manager, `${q}&orderBy=size&asc=true`))).toEqual([
      'Order c empty',
      'Order b small',
      'Order a large',
    ])
    // Newest edit first: adding the sized simulations edited the small, then the large project.
    expect(names(await list(manager, q))).toEqual([
      'Order a large',
      'Order b small',
      'Order c empty',
    ])
    await server.request('PUT', `/api/projects/${small.id}`, {
      token: manager,
      body: { description: 'edited' },
    })
    expect(names(await list(manager, `${q}&orderBy=updatedAt`))).toEqual([
      'Order b small',
      'Order a large',
      'Order c empty',
    ])
    expect(names(await list(manager, `${q}&asc=true`))).toEqual([
      'Order c empty',
      'Order a large',
      'Order b small',
    ])
    expect(empty.size).toBe(0)
  })

  it('moves a project to the top when one of its simulations changes', async () => {
    const older = await createProject(manager, 'Bump older')
    const sim = await server.request('POST', `/api/projects/${older.id}/simulations`, {
      token: manager,
      body: { name: 'To edit' },
    })
    await createProject(manager, 'Bump newer')
    expect(names(await list(manager, '?q=bump'))).toEqual(['Bump newer', 'Bump older'])
    await server.request('PUT', `/api/simulations/${sim.body.id}`, {
      token: manager,
      body: { description: 'changed' },
    })
    expect(names(await list(manager, '?q=bump'))).toEqual(['Bump older', 'Bump newer'])
  })

  it('returns slim projects with up to 1000 rows for pickers', async () => {
    const page = await list(manager, '?slim=true')
    expect(page.results.length).toBe(page.resultCount)
    expect(page.resultCount).toBeGreaterThan(10)
    const demo = page.results.find((p) => p.name === DEMO_PROJECT_NAME)
    expect(demo).toEqual({
      id: demoProject.id,
      name: DEMO_PROJECT_NAME,
      simulations: [
        { id: demoProject.simulations[0]!.id, name: DEMO_SIMULATION_NAME, state: 'not started' },
      ],
      creator: demoProject.creator,
    })
    expect((await list(manager, '?slim=true&pageLimit=1000')).resultCount).toBe(page.resultCount)
    expect(
      (await server.request('GET', '/api/projects?slim=true&pageLimit=1001', { token: manager }))
        .status,
    ).toBe(400)
  })

  it('lists simulations inside a project newest edit first', async () => {
    const project = await createProject(manager, 'Sim order')
    const ids: number[] = []
    for (const name of ['One', 'Two', 'Three']) {
      const sim = await server.request('POST', `/api/projects/${project.id}/simulations`, {
        token: manager,
        body: { name },
      })
      ids.push(sim.body.id as number)
    }
    await server.request('PUT', `/api/simulations/${ids[0]}`, {
      token: manager,
      body: { description: 'x' },
    })
    const read = await server.request<Project>('GET', `/api/projects/${project.id}`, {
      token: manager,
    })
    expect(read.body.simulations.map((s) => s.name)).toEqual(['One', 'Three', 'Two'])
  })

  it('reports the own organization and its storage consumption', async () => {
    const organizations = await server.request('GET', '/api/organizations', { token: contributor })
    expect(organizations.status).toBe(200)
    expect(organizations.body).toHaveLength(1)
    expect(organizations.body[0]).toMatchObject({
      name: 'Demo Organization',
      credits: 2500,
      features: ['cpu'],
      activeSubscription: { kind: 'engineering', maxCores: 2 },
    })
    const storage = await server.request('GET', '/api/storage_consumption/organization', {
      token: manager,
    })
    expect(storage.status).toBe(200)
    const rows = await server.database.handle.db
      .selectFrom('simulations')
      .innerJoin('organizations', 'organizations.id', 'simulations.organization_id')
      .select('simulations.size_bytes')
      .where('organizations.name', '=', 'Demo Organization')
      .execute()
    expect(storage.body.consumed).toBe(rows.reduce((sum, r) => sum + Number(r.size_bytes), 0))
    expect(storage.body.consumed).toBeGreaterThan(0)
    expect(storage.body.available).toBe(1e12)
    expect(Date.parse(storage.body.lastUpdated as string)).not.toBeNaN()
    const otherStorage = await server.request('GET', '/api/storage_consumption/organization', {
      token: other,
    })
    expect(otherStorage.body.consumed).toBe(0)
  })
})
