import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ApiErrorBody } from '../../domain/errors.ts'
import type { Project, Simulation } from '../../domain/projects.ts'
import { DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { BODY_LIMIT_BYTES } from '../../server/app.ts'
import {
  describeEachDialect,
  startTestServer,
  type Reply,
  type RequestOptions,
  type TestServer,
} from './harness.ts'

describeEachDialect('rejected requests', (dialect) => {
  let server: TestServer
  let token: string
  let project: Project
  let simulation: Simulation

  /** Every stored row that a request could change (sessions aside). */
  const dump = async () => {
    const db = server.database.handle.db
    return {
      organizations: await db.selectFrom('organizations').selectAll().orderBy('id').execute(),
      users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
      projects: await db.selectFrom('projects').selectAll().orderBy('id').execute(),
      simulations: await db.selectFrom('simulations').selectAll().orderBy('id').execute(),
    }
  }

  /** Sends the request, checks status and code, and that nothing stored changed. */
  const expectRejected = async (
    method: string,
    path: string,
    options: RequestOptions,
    status: number,
    code: string,
  ): Promise<Reply<ApiErrorBody>> => {
    const before = await dump()
    const reply = await server.request(method, path, { token, ...options })
    expect(reply.status, `${method} ${path} ${reply.text}`).toBe(status)
    expect(reply.body.code).toBe(code)
    expect(typeof reply.body.title).toBe('string')
    expect(typeof reply.body.description).toBe('string')
    expect(reply.text).not.toMatch(/at .*\.ts:\d+/)
    expect(await dump()).toEqual(before)
    return reply
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    token = (await server.login(DEMO_USERS.manager.email)).accessToken
    project = (await server.request('POST', '/api/projects', { token, body: { name: 'Guarded' } }))
      .body
    simulation = (
      await server.request('POST', `/api/projects/${project.id}/simulations`, {
        token,
        body: { name: 'Guarded sim', description: 'Keep me' },
      })
    ).body
  })
  afterAll(async () => {
    await server?.close()
  })

  it('refuses a 101-character simulation name and a 501-character description', async () => {
    const long = await expectRejected(
      'PUT',
      `/api/simulations/${simulation.id}`,
      { body: { name: 'n'.repeat(101) } },
      400,
      'validation_error',
    )
    expect(long.body.description).toBe('Simulation name must be at most 100 characters')
    expect(long.body.errors).toEqual([
      { path: 'name', message: 'Simulation name must be at most 100 characters' },
    ])
    await expectRejected(
      'POST',
      `/api/projects/${project.id}/simulations`,
      { body: { name: 'n'.repeat(101) } },
      400,
      'validation_error',
    )
    const description = await expectRejected(
      'PUT',
      `/api/simulations/${simulation.id}`,
      { body: { description: 'd'.repeat(501) } },
      400,
      'validation_error',
    )
    expect(description.body.description).toBe('Description must be at most 500 characters')
    await expectRejected(
      'POST',
      `/api/projects/${project.id}/simulations`,
      { body: { name: 'ok', description: 'd'.repeat(501) } },
      400,
      'validation_error',
    )
    // Exactly at the limits is fine.
    const atLimit = await server.request('POST', `/api/projects/${project.id}/simulations`, {
      token,
      body: { name: 'n'.repeat(100), description: 'd'.repeat(500) },
    })
    expect(atLimit.status).toBe(201)
  })

  it('refuses an empty simulation name with its message', async () => {
    const reply = await expectRejected(
      'PUT',
      `/api/simulations/${simulation.id}`,
      { body: { name: '   ' } },
      400,
      'validation_error',
    )
    expect(reply.body.description).toBe('Simulation name cannot be empty.')
  })

  it('refuses a 101-character project name and a 501-character project description', async () => {
    const name = await expectRejected(
      'POST',
      '/api/projects',
      { body: { name: 'p'.repeat(101) } },
      400,
      'validation_error',
    )
    expect(name.body.description).toBe('Project name must be at most 100 characters')
    await expectRejected(
      'PUT',
      `/api/projects/${project.id}`,
      { body: { name: 'p'.repeat(101) } },
      400,
      'validation_error',
    )
    const description = await expectRejected(
      'PUT',
      `/api/projects/${project.id}`,
      { body: { description: 'd'.repeat(501) } },
      400,
      'validation_error',
    )
    expect(description.body.description).toBe('Description must be at most 500 characters')
    await expectRejected(
      'POST',
      '/api/projects',
      { body: { name: 'fine', description: 'd'.repeat(501) } },
      400,
      'validation_error',
    )
    const empty = await expectRejected(
      'POST',
      '/api/projects',
      { body: { name: ' ' } },
      400,
      'validation_error',
    )
    expect(empty.body.description).toBe('Project name is required')
  })

  it('refuses wrong types and lists every failing field', async () => {
    const reply = await expectRejected(
      'POST',
      '/api/projects',
      { body: { name: 42, description: false } },
      400,
      'validation_error',
    )
    expect(reply.body.errors?.map((e) => e.path)).toEqual(['name', 'description'])
    expect(reply.body.description).toBe(reply.body.errors?.[0]?.message)
    await expectRejected(
      'PUT',
      `/api/simulations/${simulation.id}`,
      { body: { settings: { endTime: 'soon' } } },
      400,
      'validation_error',
    )
    const move = await expectRejected(
      'PUT',
      `/api/simulations/${simulation.id}/move`,
      { body: { projectId: 'other' } },
      400,
      'validation_error',
    )
    expect(move.body.description).toBe('Please select a project.')
    await expectRejected('POST', '/api/projects', { body: ['name'] }, 400, 'validation_error')
    await expectRejected('POST', '/api/projects', { body: 'name' }, 400, 'validation_error')
  })

  it('refuses unknown fields, also inside settings', async () => {
    const reply = await expectRejected(
      'POST',
      '/api/projects',
      { body: { name: 'With extra', owner: 1 } },
      400,
      'validation_error',
    )
    expect(reply.body.errors?.[0]?.path).toBe('owner')
    await expectRejected(
      'PUT',
      `/api/simulations/${simulation.id}`,
      { body: { settings: { warpDrive: true } } },
      400,
      'validation_error',
    )
    await expectRejected(
      'PUT',
      `/api/simulations/${simulation.id}`,
      { body: { state: 'completed' } },
      400,
      'validation_error',
    )
  })

  it('refuses malformed JSON and bodies that are not JSON with wrong_input', async () => {
    await expectRejected(
      'POST',
      '/api/projects',
      { rawBody: '{"name": "broken"', contentType: 'application/json' },
      400,
      'wrong_input',
    )
    await expectRejected(
      'POST',
      '/api/projects',
      { rawBody: 'name=form', contentType: 'application/x-www-form-urlencoded' },
      400,
      'wrong_input',
    )
    await expectRejected(
      'PUT',
      `/api/projects/${project.id}`,
      { rawBody: '{"name":"plain"}', contentType: 'text/plain' },
      400,
      'wrong_input',
    )
    await expectRejected(
      'POST',
      '/api/projects',
      { rawBody: '{"__proto__": {"admin": true}, "name": "x"}', contentType: 'application/json' },
      400,
      'wrong_input',
    )
  })

  it('refuses missing bodies and missing required keys with body_keys_missing', async () => {
    const none = await expectRejected('POST', '/api/projects', {}, 400, 'body_keys_missing')
    expect(none.body.errors).toEqual([{ path: 'name', message: 'name is required' }])
    await expectRejected(
      'POST',
      '/api/projects',
      { rawBody: '', contentType: 'application/json' },
      400,
      'body_keys_missing',
    )
    await expectRejected(
      'POST',
      '/api/projects',
      { body: { description: 'x' } },
      400,
      'body_keys_missing',
    )
    await expectRejected(
      'POST',
      `/api/projects/${project.id}/simulations`,
      { body: {} },
      400,
      'body_keys_missing',
    )
    await expectRejected(
      'PUT',
      `/api/simulations/${simulation.id}/move`,
      { body: {} },
      400,
      'body_keys_missing',
    )
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: DEMO_USERS.manager.email },
    })
    expect(login.status).toBe(400)
    expect(login.body.code).toBe('body_keys_missing')
    expect(login.body.description).toBe('Missing body keys: password')
  })

  it('refuses a body over the limit with 413', async () => {
    const reply = await expectRejected(
      'POST',
      '/api/projects',
      { body: { name: 'big', description: 'x'.repeat(BODY_LIMIT_BYTES + 10) } },
      413,
      'payload_too_large',
    )
    expect(reply.body.title).toBe('Payload too large')
  })

  it('refuses bad path ids and bad list queries with validation_error', async () => {
    await expectRejected('GET', '/api/projects/abc', {}, 400, 'validation_error')
    await expectRejected('DELETE', '/api/simulations/-1', {}, 400, 'validation_error')
    await expectRejected('GET', '/api/projects/0', {}, 400, 'validation_error')
    await expectRejected('GET', '/api/projects/2147483647', {}, 404, 'resource_not_found')
    for (const query of [
      'pageLimit=0',
      'pageLimit=ten',
      'pageNumber=0',
      'orderBy=color',
      'asc=maybe',
      'projectIds=1,x',
      'color=blue',
    ]) {
      const reply = await server.request('GET', `/api/projects?${query}`, { token })
      expect(reply.status, query).toBe(400)
      expect(reply.body.code).toBe('validation_error')
    }
  })

  it('answers a wrong method on a known path with 405 and an unknown API path with 404', async () => {
    const wrong = await expectRejected(
      'PATCH',
      `/api/projects/${project.id}`,
      { body: {} },
      405,
      'method_not_allowed',
    )
    expect(wrong.headers.get('allow')).toBe('GET, PUT, DELETE')
    const get = await server.request('GET', '/api/auth/login')
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    const unknown = await server.request('GET', '/api/no/such/thing', { token })
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe('resource_not_found')
    const unknownPost = await expectRejected(
      'POST',
      '/api/nothing',
      { body: {} },
      404,
      'resource_not_found',
    )
    expect(unknownPost.body.title).toBe('Resource not found')
  })

  it('checks the token before the body, so an anonymous request learns nothing', async () => {
    const reply = await server.request('POST', '/api/projects', { body: { name: 'p'.repeat(101) } })
    expect(reply.status).toBe(401)
    expect(reply.body.code).toBe('unauthorized')
  })

  it('left the guarded project and simulation exactly as they were', async () => {
    const read = await server.request('GET', `/api/simulations/${simulation.id}`, { token })
    expect(read.body).toMatchObject({
      name: 'Guarded sim',
      description: 'Keep me',
      settings: simulation.settings,
    })
    const readProject = await server.request('GET', `/api/projects/${project.id}`, { token })
    expect(readProject.body.name).toBe('Guarded')
  })
})
