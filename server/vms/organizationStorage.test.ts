import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  ORGANIZATION_STORAGE_MESSAGES,
  ORGANIZATION_STORAGE_PAGE_SIZE,
} from '../../domain/rest/organizationStorageRoutes.ts'
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../../tests/integration/harness.ts'
import { buildApp } from '../app.ts'
import { createClock } from '../clock.ts'
import { DEMO_PASSWORD, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { migrateToLatest } from '../db/migrations.ts'
import { seedDatabase } from '../db/seed.ts'
import { organizationStorageDirectory } from './storageUsage.ts'

/*
 * The organization storage of the machines list's 'Access storage' modal: the listing by pages
 * (GET and POST /organization_storage with continuationToken), the upload
 * (/client-upload/organization_storage_upload), the download, the storage limit, and another
 * organization's reach, on both dialects.
 */

describeEachDialect('organization storage', (dialect) => {
  let database: TestDatabase
  let app: FastifyInstance
  let baseUrl = ''
  let dataDir = ''
  let organizationId = 0
  const tokens = { manager: '', contributor: '', other: '' }

  const call = async (
    path: string,
    as: keyof typeof tokens | null,
    method = 'GET',
    body?: unknown,
  ) => {
    const response = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers: {
        ...(as && { authorization: `Bearer ${tokens[as]}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : undefined, text }
  }
  const upload = async (as: keyof typeof tokens, name: string, content: string) => {
    const form = new FormData()
    form.append('file', new Blob([content]), name)
    const response = await fetch(`${baseUrl}/api/client-upload/organization_storage_upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[as]}` },
      body: form,
    })
    return { status: response.status, body: JSON.parse(await response.text()) }
  }
  const namesOf = (page: unknown) =>
    (page as { files: { name: string }[] }).files.map((file) => file.name)
  const download = (as: keyof typeof tokens, name: string) =>
    fetch(`${baseUrl}/api/organization_storage/download?name=${encodeURIComponent(name)}`, {
      headers: { authorization: `Bearer ${tokens[as]}` },
    })
  const login = async (email: string) => {
    const response = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    })
    return ((await response.json()) as { accessToken: string }).accessToken
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    await migrateToLatest(database.handle)
    await seedDatabase(database.handle.db, createClock())
    dataDir = mkdtempSync(join(tmpdir(), 'dive-org-storage-'))
    app = await buildApp({
      db: database.handle.db,
      dataDir,
      clock: createClock(),
      checkResponses: true,
      distDir: join(dataDir, 'no-dist'),
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    tokens.manager = await login(DEMO_USERS.manager.email)
    tokens.contributor = await login(DEMO_USERS.contributor.email)
    tokens.other = await login(OTHER_ORGANIZATION_USER.email)
    organizationId = (
      await database.handle.db
        .selectFrom('users')
        .select('organization_id')
        .where('email', '=', DEMO_USERS.manager.email)
        .executeTakeFirstOrThrow()
    ).organization_id
  }, 120_000)

  afterAll(async () => {
    await app?.close()
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('takes an upload, lists it, downloads it, and counts it toward the storage', async () => {
    expect(await call('/organization_storage', 'manager')).toMatchObject({
      status: 200,
      body: { files: [], continuationToken: null },
    })
    const before = (await call('/storage_consumption/organization', 'manager')).body.consumed
    const uploaded = await upload('contributor', 'mesh.csv', 'x,y\n1,2\n')
    expect(uploaded).toEqual({ status: 201, body: { name: 'mesh.csv', sizeBytes: 8 } })
    expect(
      readFileSync(join(organizationStorageDirectory(dataDir, organizationId), 'mesh.csv'), 'utf8'),
    ).toBe('x,y\n1,2\n')
    const listed = await call('/organization_storage', 'manager')
    expect(listed.body.files).toEqual([
      { name: 'mesh.csv', sizeBytes: 8, updatedAt: expect.any(String) },
    ])
    expect((await call('/organization_storage', 'manager', 'POST', {})).body).toEqual(listed.body)
    const file = await download('manager', 'mesh.csv')
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toContain("filename*=UTF-8''mesh.csv")
    expect(await file.text()).toBe('x,y\n1,2\n')
    expect((await call('/storage_consumption/organization', 'manager')).body.consumed).toBe(
      before + 8,
    )
    // The same name again replaces the file.
    await upload('manager', 'mesh.csv', 'x,y\n')
    expect((await call('/storage_consumption/organization', 'manager')).body.consumed).toBe(
      before + 4,
    )
  })

  it('pages the listing with continuationToken (GET and POST alike)', async () => {
    const folder = organizationStorageDirectory(dataDir, organizationId)
    mkdirSync(join(folder, 'runs'), { recursive: true })
    for (let i = 0; i < ORGANIZATION_STORAGE_PAGE_SIZE + 4; i++)
      writeFileSync(join(folder, 'runs', `r${String(i).padStart(3, '0')}.txt`), 'r')
    const first = await call('/organization_storage', 'manager')
    expect(first.body.files).toHaveLength(ORGANIZATION_STORAGE_PAGE_SIZE)
    expect(first.body.files[0].name).toBe('mesh.csv')
    expect(first.body.continuationToken).toEqual(expect.any(String))
    const second = await call(
      `/organization_storage?continuationToken=${encodeURIComponent(String(first.body.continuationToken))}`,
      'manager',
    )
    expect(namesOf(second.body)).toEqual(
      ['runs/r100.txt', 'runs/r101.txt', 'runs/r102.txt', 'runs/r103.txt', 'runs/r099.txt'].sort(),
    )
    expect(second.body.continuationToken).toBeNull()
    const viaPost = await call('/organization_storage', 'manager', 'POST', {
      continuationToken: first.body.continuationToken,
    })
    expect(viaPost.body).toEqual(second.body)
    const bad = await call('/organization_storage?continuationToken=%25%25', 'manager')
    expect(bad.status).toBe(400)
    expect(bad.body.description).toBe(ORGANIZATION_STORAGE_MESSAGES.badToken)
    expect((await download('manager', 'runs/r001.txt')).status).toBe(200)
    rmSync(join(folder, 'runs'), { recursive: true })
  })

  it('refuses escapes, links, bad names and a missing file', async () => {
    const folder = organizationStorageDirectory(dataDir, organizationId)
    symlinkSync('/etc/passwd', join(folder, 'passwd'))
    expect(namesOf((await call('/organization_storage', 'manager')).body)).toEqual(['mesh.csv'])
    for (const name of ['passwd', '../../../etc/passwd', '/../mesh.csv', 'missing.csv', ''])
      expect((await download('manager', name)).status).toBe(name === '' ? 400 : 404)
    rmSync(join(folder, 'passwd'))
    expect((await upload('manager', '.bashrc', 'x')).status).toBe(400)
    const noFile = await fetch(`${baseUrl}/api/client-upload/organization_storage_upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.manager}` },
      body: new FormData(),
    })
    expect(noFile.status).toBeGreaterThanOrEqual(400)
    expect(noFile.status).toBeLessThan(500)
  })

  it('keeps organizations apart: another sees none of it (404 on its file); no session is 401', async () => {
    expect((await call('/organization_storage', 'other')).body).toEqual({
      files: [],
      continuationToken: null,
    })
    expect((await download('other', 'mesh.csv')).status).toBe(404)
    expect((await upload('other', 'theirs.txt', 'theirs')).status).toBe(201)
    expect(namesOf((await call('/organization_storage', 'manager')).body)).toEqual(['mesh.csv'])
    expect((await call('/organization_storage', null)).status).toBe(401)
    const anonymous = await fetch(`${baseUrl}/api/client-upload/organization_storage_upload`, {
      method: 'POST',
      body: new FormData(),
    })
    expect(anonymous.status).toBe(401)
    expect((await fetch(`${baseUrl}/api/organization_storage/download?name=mesh.csv`)).status).toBe(
      401,
    )
  })

  it('refuses an upload past the storage limit unless no_storage_limit_enforcement', async () => {
    const { db } = database.handle
    const consumed = (await call('/storage_consumption/organization', 'manager')).body
      .consumed as number
    const saved = await db
      .selectFrom('organizations')
      .select(['storage_available_bytes', 'features'])
      .where('id', '=', organizationId)
      .executeTakeFirstOrThrow()
    await db
      .updateTable('organizations')
      .set({ storage_available_bytes: consumed + 10, features: '[]' })
      .where('id', '=', organizationId)
      .execute()
    const refused = await upload('manager', 'big.bin', 'b'.repeat(1000))
    expect(refused.status).toBe(413)
    expect(refused.body.description).toMatch(/storage is full/)
    await db
      .updateTable('organizations')
      .set({ features: JSON.stringify(['no_storage_limit_enforcement']) })
      .where('id', '=', organizationId)
      .execute()
    expect((await upload('manager', 'big.bin', 'b'.repeat(1000))).status).toBe(201)
    await db.updateTable('organizations').set(saved).where('id', '=', organizationId).execute()
  })
})
