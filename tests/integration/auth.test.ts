import { afterAll, beforeAll, expect, it } from 'vitest'
import { ACCESS_TOKEN_TTL_S, WRONG_CREDENTIALS_MESSAGE } from '../../domain/auth.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

describeEachDialect('auth', (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('logs a demo user in and returns an access token that opens the API', async () => {
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: DEMO_USERS.manager.email, password: 'dive-demo' },
    })
    expect(login.status).toBe(200)
    expect(login.body.expiresIn).toBe(ACCESS_TOKEN_TTL_S)
    expect(login.body.accessToken).toMatch(/^[\w-]{43}$/)
    expect(login.body.refreshToken).not.toBe(login.body.accessToken)
    const me = await server.request('GET', '/api/users', { token: login.body.accessToken })
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({
      email: DEMO_USERS.manager.email,
      fullName: 'Mia Manager',
      role: 'manager',
      organization: { name: 'Demo Organization' },
    })
    expect(me.body.permissions).toContain('PROJECTS_VIEW_ALL')
    expect(me.body.permissions).not.toContain('ACCESS_GRANT_SELECTION')
  })

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: '  Contributor@Dive.Example ', password: 'dive-demo' },
    })
    expect(login.status).toBe(200)
  })

  it('refuses a wrong password and an unknown e-mail with the same 401', async () => {
    const wrong = await server.request('POST', '/api/auth/login', {
      body: { email: DEMO_USERS.manager.email, password: 'not-it' },
    })
    const unknown = await server.request('POST', '/api/auth/login', {
      body: { email: 'nobody@dive.example', password: 'dive-demo' },
    })
    for (const reply of [wrong, unknown]) {
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual({
        code: 'authentication_failed',
        title: 'Authentication Failed',
        description: WRONG_CREDENTIALS_MESSAGE,
      })
    }
  })

  it('refuses an inactive user with the same 401', async () => {
    await server.database.handle.db
      .updateTable('users')
      .set({ active: 0 })
      .where('email', '=', OTHER_ORGANIZATION_USER.email)
      .execute()
    const reply = await server.request('POST', '/api/auth/login', {
      body: { email: OTHER_ORGANIZATION_USER.email, password: 'dive-demo' },
    })
    expect(reply.status).toBe(401)
    expect(reply.body.code).toBe('authentication_failed')
    await server.database.handle.db
      .updateTable('users')
      .set({ active: 1 })
      .where('email', '=', OTHER_ORGANIZATION_USER.email)
      .execute()
  })

  it('rejects a malformed e-mail as a validation error', async () => {
    const reply = await server.request('POST', '/api/auth/login', {
      body: { email: 'not-an-address', password: 'x' },
    })
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe('validation_error')
    expect(reply.body.description).toBe('Enter a valid e-mail address')
    expect(reply.body.errors).toEqual([{ path: 'email', message: 'Enter a valid e-mail address' }])
  })

  it('rotates the refresh token: the new pair works; the old one is refused and its reuse ends the new pair', async () => {
    const first = await server.login(DEMO_USERS.contributor.email)
    const rotated = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: first.refreshToken },
    })
    expect(rotated.status).toBe(200)
    expect(rotated.body.refreshToken).not.toBe(first.refreshToken)
    expect(rotated.body.accessToken).not.toBe(first.accessToken)
    const me = await server.request('GET', '/api/users', { token: rotated.body.accessToken })
    expect(me.status).toBe(200)

    const reused = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: first.refreshToken },
    })
    expect(reused.status).toBe(401)
    expect(reused.body.code).toBe('invalid_grant')
    // The old session is over, its access token too.
    const old = await server.request('GET', '/api/users', { token: first.accessToken })
    expect(old.status).toBe(401)
    // Issue 13: the reuse also revoked the session the old token produced.
    const again = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: rotated.body.refreshToken },
    })
    expect(again.status).toBe(401)
    expect(again.body.code).toBe('invalid_grant')
  })

  it('answers a refresh without a token with missing_refresh_token, a bad one with invalid_grant', async () => {
    for (const body of [undefined, {}, { refreshToken: '' }]) {
      const reply = await server.request('POST', '/api/auth/refresh', { body })
      expect(reply.status).toBe(401)
      expect(reply.body.code).toBe('missing_refresh_token')
    }
    const garbage = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: 'garbage' },
    })
    expect(garbage.status).toBe(401)
    expect(garbage.body.code).toBe('invalid_grant')
  })

  it('logout revokes the session: access and refresh token stop working', async () => {
    const tokens = await server.login(DEMO_USERS.admin.email)
    const logout = await server.request('POST', '/api/auth/logout', {
      token: tokens.accessToken,
      body: { refreshToken: tokens.refreshToken },
    })
    expect(logout.status).toBe(200)
    expect(logout.body).toEqual({ ok: true })
    expect((await server.request('GET', '/api/users', { token: tokens.accessToken })).status).toBe(
      401,
    )
    const refresh = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: tokens.refreshToken },
    })
    expect(refresh.body.code).toBe('invalid_grant')
  })

  it('logout without a body ends the session of the access token', async () => {
    const tokens = await server.login(DEMO_USERS.admin.email)
    const other = await server.login(DEMO_USERS.admin.email)
    const logout = await server.request('POST', '/api/auth/logout', { token: tokens.accessToken })
    expect(logout.status).toBe(200)
    expect((await server.request('GET', '/api/users', { token: tokens.accessToken })).status).toBe(
      401,
    )
    // Another session of the same user is untouched.
    expect((await server.request('GET', '/api/users', { token: other.accessToken })).status).toBe(
      200,
    )
  })

  it('answers a missing, garbage or malformed bearer token with 401 unauthorized', async () => {
    const cases = [
      {},
      { token: 'garbage' },
      { headers: { authorization: 'Basic abc' } },
      { headers: { authorization: 'Bearer' } },
    ]
    for (const options of cases) {
      const reply = await server.request('GET', '/api/projects', options)
      expect(reply.status).toBe(401)
      expect(reply.body.code).toBe('unauthorized')
    }
  })

  it('expires the access token after its lifetime while the refresh token still works', async () => {
    const tokens = await server.login(DEMO_USERS.manager.email)
    server.advanceClockMs((ACCESS_TOKEN_TTL_S + 1) * 1000)
    const expired = await server.request('GET', '/api/users', { token: tokens.accessToken })
    expect(expired.status).toBe(401)
    expect(expired.body.code).toBe('unauthorized')
    const refreshed = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: tokens.refreshToken },
    })
    expect(refreshed.status).toBe(200)
    const me = await server.request('GET', '/api/users', { token: refreshed.body.accessToken })
    expect(me.status).toBe(200)
  })

  it('stores only digests of the tokens', async () => {
    const tokens = await server.login(DEMO_USERS.manager.email)
    const rows = await server.database.handle.db.selectFrom('sessions').selectAll().execute()
    const stored = rows.flatMap((r) => [r.access_token_hash, r.refresh_token_hash])
    expect(stored).not.toContain(tokens.accessToken)
    expect(stored).not.toContain(tokens.refreshToken)
    const users = await server.database.handle.db
      .selectFrom('users')
      .select('password_hash')
      .execute()
    for (const user of users) expect(user.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/)
  })

  it('edits the own profile and rejects an invalid phone number without changing anything', async () => {
    const { accessToken } = await server.login(DEMO_USERS.contributor.email)
    const updated = await server.request('PUT', '/api/users', {
      token: accessToken,
      body: {
        firstName: ' Carla ',
        department: 'Hydraulics',
        phoneNumber: '+49 170 1234567',
        avatarId: 3,
      },
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({
      firstName: 'Carla',
      fullName: 'Carla Contributor',
      department: 'Hydraulics',
      phoneNumber: '+49 170 1234567',
      avatarId: 3,
    })
    const bad = await server.request('PUT', '/api/users', {
      token: accessToken,
      body: { firstName: 'Someone', phoneNumber: 'call me' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.description).toBe('Invalid phone number format')
    const emptyName = await server.request('PUT', '/api/users', {
      token: accessToken,
      body: { firstName: '   ' },
    })
    expect(emptyName.body.description).toBe('First name is required')
    const role = await server.request('PUT', '/api/users', {
      token: accessToken,
      body: { role: 'admin' },
    })
    expect(role.status).toBe(400)
    const me = await server.request('GET', '/api/users', { token: accessToken })
    expect(me.body).toMatchObject({
      firstName: 'Carla',
      role: 'contributor',
      phoneNumber: '+49 170 1234567',
    })
    await server.request('PUT', '/api/users', { token: accessToken, body: { firstName: 'Carl' } })
  })
})
