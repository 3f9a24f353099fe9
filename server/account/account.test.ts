import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { outboxDir } from './mail.ts'
import { totpCode } from './totp.ts'

/** The newest outbox message to `to`, and the token of its link. */
function lastMailTo(dataDir: string, to: string): { text: string; token: string } {
  const dir = outboxDir(dataDir)
  const files = readdirSync(dir).sort()
  for (const file of files.reverse()) {
    const text = readFileSync(join(dir, file), 'utf8')
    if (!new RegExp(`^To: ${to}`, 'mi').test(text)) continue
    const unfolded = text.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
    const token = /set-password\?token=([\w%-]+)/.exec(unfolded)?.[1]
    if (!token) throw new Error(`no link in ${file}`)
    return { text, token: decodeURIComponent(token) }
  }
  throw new Error(`no mail to ${to}`)
}

describeEachDialect('account: team management, passwords by e-mail, two-factor', (dialect) => {
  let server: TestServer
  let manager: string
  let contributor: string
  let admin: string
  let other: string
  let clockOffsetMs = 0
  const advance = (ms: number) => {
    clockOffsetMs += ms
    server.advanceClockMs(ms)
  }
  const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
    server.request(method, `/api${path}`, { token, ...(body !== undefined && { body }) })
  const login = (email: string, password: string, code?: string) =>
    call('POST', '/auth/login', undefined, { email, password, ...(code !== undefined && { code }) })

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    admin = (await server.login(DEMO_USERS.admin.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
  })
  afterAll(async () => {
    await server?.close()
  })

  it('invites a user by e-mail, who sets a password from the link once and logs in', async () => {
    const invite = { email: 'New.Person@dive.example', firstName: 'Nina', lastName: 'New' }
    const created = await call('POST', '/mgmt/users', manager, invite)
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ email: 'new.person@dive.example', role: 'contributor' })
    expect((await login('new.person@dive.example', 'whatever-1')).status).toBe(401)

    const mail = lastMailTo(server.dataDir, 'new.person@dive.example')
    expect(mail.text).toMatch(/^Subject: You are invited to Demo Organization on Dive/m)
    const set = await call('POST', '/auth/password/reset', undefined, {
      token: mail.token,
      password: 'nina-secret-1',
    })
    expect(set.status).toBe(200)
    expect((await login('new.person@dive.example', 'nina-secret-1')).status).toBe(200)
    const again = await call('POST', '/auth/password/reset', undefined, {
      token: mail.token,
      password: 'other-pass-2',
    })
    expect(again.status).toBe(401)

    const team = await call('GET', '/mgmt/users', manager)
    expect((team.body as { email: string }[]).map((u) => u.email)).toContain(
      'new.person@dive.example',
    )
    const duplicate = await call('POST', '/mgmt/users', manager, invite)
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.description).toBe('A user with this e-mail already exists')
  })

  it('refuses team management to a role without the right (403) and to another organization (404)', async () => {
    const invite = { email: 'x@dive.example', firstName: 'X', lastName: 'Y' }
    expect((await call('POST', '/mgmt/users', contributor, invite)).status).toBe(403)
    const team = (await call('GET', '/mgmt/users', manager)).body as { id: number; email: string }[]
    const carl = team.find((u) => u.email === DEMO_USERS.contributor.email)!
    const mia = team.find((u) => u.email === DEMO_USERS.manager.email)!
    const ada = team.find((u) => u.email === DEMO_USERS.admin.email)!
    expect(
      (await call('PUT', `/mgmt/users/${mia.id}`, contributor, { lastName: 'Z' })).status,
    ).toBe(403)
    expect((await call('DELETE', `/mgmt/users/${mia.id}`, contributor)).status).toBe(403)
    expect((await call('POST', `/mgmt/users/${mia.id}/auth/password`, contributor)).status).toBe(
      403,
    )
    expect((await call('PUT', `/mgmt/users/${carl.id}`, other, { lastName: 'Z' })).status).toBe(404)
    expect((await call('DELETE', `/mgmt/users/${carl.id}`, other)).status).toBe(404)
    expect((await call('POST', `/mgmt/users/${carl.id}/auth/password`, other)).status).toBe(404)
    // Admin users cannot be edited or deleted; nobody deletes themselves.
    expect((await call('PUT', `/mgmt/users/${ada.id}`, manager, { lastName: 'Z' })).status).toBe(
      403,
    )
    expect((await call('DELETE', `/mgmt/users/${ada.id}`, manager)).status).toBe(403)
    expect((await call('DELETE', `/mgmt/users/${mia.id}`, manager)).status).toBe(403)
  })

  it('edits changed fields, and deletes a member whose projects pass to the manager', async () => {
    const created = await call('POST', '/mgmt/users', manager, {
      email: 'temp@dive.example',
      firstName: 'Tim',
      lastName: 'Temp',
    })
    const id = (created.body as { id: number }).id
    const edited = await call('PUT', `/mgmt/users/${id}`, manager, {
      department: 'Hydraulics',
      role: 'manager',
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({
      firstName: 'Tim',
      department: 'Hydraulics',
      role: 'manager',
    })
    const mail = lastMailTo(server.dataDir, 'temp@dive.example')
    await call('POST', '/auth/password/reset', undefined, {
      token: mail.token,
      password: 'tim-pass-12',
    })
    const tim = (await login('temp@dive.example', 'tim-pass-12')).body.accessToken as string
    const project = await call('POST', '/projects', tim, { name: 'Tim project', description: '' })
    expect(project.status).toBe(201)
    expect((await call('DELETE', `/mgmt/users/${id}`, manager)).status).toBe(200)
    expect((await call('GET', '/users', tim)).status).toBe(401)
    const kept = await call('GET', `/projects/${(project.body as { id: number }).id}`, manager)
    expect(kept.status).toBe(200)
    const team = (await call('GET', '/mgmt/users', manager)).body as { id: number }[]
    expect(team.map((u) => u.id)).not.toContain(id)
  })

  it('e-mails a reset link to oneself, and changes a password with the current one', async () => {
    expect((await call('POST', '/auth/password', admin)).status).toBe(200)
    const mail = lastMailTo(server.dataDir, DEMO_USERS.admin.email)
    expect(mail.text).toMatch(/^Subject: Reset your Dive password/m)
    expect(
      (
        await call('POST', '/auth/password/reset', undefined, {
          token: mail.token,
          password: 'short',
        })
      ).status,
    ).toBe(400)
    expect(
      (
        await call('POST', '/auth/password/reset', undefined, {
          token: mail.token,
          password: 'ada-new-pass',
        })
      ).status,
    ).toBe(200)
    // The reset ended the admin's sessions.
    expect((await call('GET', '/users', admin)).status).toBe(401)
    admin = (await login(DEMO_USERS.admin.email, 'ada-new-pass')).body.accessToken as string
    const wrong = await call('PUT', '/auth/password', admin, {
      currentPassword: 'nope',
      newPassword: 'whatever-9',
    })
    expect(wrong.status).toBe(400)
    const right = await call('PUT', '/auth/password', admin, {
      currentPassword: 'ada-new-pass',
      newPassword: 'ada-newer-pass',
    })
    expect(right.status).toBe(200)
    expect((await login(DEMO_USERS.admin.email, 'ada-newer-pass')).status).toBe(200)
    // A reset link expires after an hour.
    await call('POST', '/auth/password', admin)
    const late = lastMailTo(server.dataDir, DEMO_USERS.admin.email)
    advance(3600_000 + 1000)
    expect(
      (
        await call('POST', '/auth/password/reset', undefined, {
          token: late.token,
          password: 'too-late-1',
        })
      ).status,
    ).toBe(401)
  })

  it('enrols a TOTP authenticator; login then needs a valid code, until it is deleted', async () => {
    const email = DEMO_USERS.contributor.email
    // The earlier test moved the clock past the access tokens' life.
    contributor = (await server.login(email)).accessToken
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    const enrolment = await call('POST', '/auth/mfa', contributor, { name: 'Phone' })
    expect(enrolment.status).toBe(201)
    const { secret, authenticator, otpauthUri, qrSvg } = enrolment.body as {
      secret: string
      authenticator: { id: number; confirmed: boolean }
      otpauthUri: string
      qrSvg: string
    }
    expect(authenticator.confirmed).toBe(false)
    expect(otpauthUri).toContain(`secret=${secret}`)
    expect(qrSvg).toContain('<svg')
    // Unconfirmed: login needs no code yet.
    expect((await login(email, 'dive-demo')).status).toBe(200)
    const bad = await call(
      'POST',
      `/auth/mfa/authenticators/${authenticator.id}/verify`,
      contributor,
      {
        code: '000000',
      },
    )
    expect(bad.status).toBe(400)
    const now = () => Date.now() + clockOffsetMs
    const verified = await call(
      'POST',
      `/auth/mfa/authenticators/${authenticator.id}/verify`,
      contributor,
      { code: totpCode(secret, now()) },
    )
    expect(verified.status).toBe(200)
    expect(verified.body).toMatchObject({ confirmed: true, name: 'Phone' })
    // Someone else cannot see or delete it.
    expect(
      (await call('DELETE', `/auth/mfa/authenticators/${authenticator.id}`, manager)).status,
    ).toBe(404)
    expect((await call('GET', '/auth/mfa/authenticators', manager)).body).toEqual([])

    const noCode = await login(email, 'dive-demo')
    expect(noCode.status).toBe(403)
    expect(noCode.body.mfaRequired).toBe(true)
    expect((await login(email, 'dive-demo', '123456')).status).toBe(401)
    advance(30_000)
    const code = totpCode(secret, now())
    const withCode = await login(email, 'dive-demo', code)
    expect(withCode.status).toBe(200)
    // The same code does not work twice (the same string: a code made anew could fall in the
    // next 30 s step, a different, valid code, as it did once at load in a full run).
    expect((await login(email, 'dive-demo', code)).status).toBe(401)

    const listed = await call('GET', '/auth/mfa/authenticators', contributor)
    expect((listed.body as { id: number }[]).map((a) => a.id)).toEqual([authenticator.id])
    expect(
      (await call('DELETE', `/auth/mfa/authenticators/${authenticator.id}`, contributor)).status,
    ).toBe(200)
    expect((await login(email, 'dive-demo')).status).toBe(200)
  })
})
