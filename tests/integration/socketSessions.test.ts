import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S } from '../../domain/auth.ts'
import { PROTOCOL_VERSION } from '../../domain/liveProtocol.ts'
import { RESULTS_PROTOCOL_VERSION } from '../../domain/resultsProtocol.ts'
import { SESSION_EXPIRY_CHECK_MS } from '../../server/auth/sessionRegistry.ts'
import { startSessionSweep } from '../../server/auth/sessions.ts'
import { createClock } from '../../server/clock.ts'
import { DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { LIVE_CLOSE_CODES } from '../../server/live/liveChannel.ts'
import { RESULTS_CLOSE_CODES } from '../../server/results/session/ResultsSession.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

interface OpenSocket {
  socket: WebSocket
  /** Resolves with the close code once the server closes the socket. */
  closed: Promise<number>
  isOpen(): boolean
}

/** Opens /ws/live or /ws/results and says hello; resolves once the server accepted it. */
async function openChannel(
  server: TestServer,
  channel: 'live' | 'results',
  accessToken: string,
): Promise<OpenSocket> {
  const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/ws/${channel}`)
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  const accepted = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const frame = JSON.parse((data as Buffer).toString('utf8')) as { type: string }
      if (frame.type === 'Welcome' || frame.type === 'sys.hello.resp') resolve()
    })
    void closed.then((code) => reject(new Error(`closed ${code} before hello`)))
  })
  socket.send(
    JSON.stringify(
      channel === 'live'
        ? { type: 'Hello', protocolVersion: PROTOCOL_VERSION, accessToken }
        : {
            type: 'sys.hello',
            requestId: 1,
            protocolVersion: RESULTS_PROTOCOL_VERSION,
            accessToken,
          },
    ),
  )
  await accepted
  return { socket, closed, isOpen: () => socket.readyState === WebSocket.OPEN }
}

/** Both channels on one token. */
async function openBoth(server: TestServer, accessToken: string) {
  return {
    live: await openChannel(server, 'live', accessToken),
    results: await openChannel(server, 'results', accessToken),
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// Issue 13 item 2: the token was checked only at hello, so sockets outlived their session.
describeEachDialect('websockets end with their session', (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('closes /ws/live (4001) and /ws/results (4401) when the session logs out', async () => {
    const tokens = await server.login(DEMO_USERS.manager.email)
    const other = await server.login(DEMO_USERS.manager.email)
    const sockets = await openBoth(server, tokens.accessToken)
    const bystanders = await openBoth(server, other.accessToken)
    const logout = await server.request('POST', '/api/auth/logout', {
      token: tokens.accessToken,
      body: {},
    })
    expect(logout.status).toBe(200)
    expect(await sockets.live.closed).toBe(LIVE_CLOSE_CODES.sessionEnded)
    expect(await sockets.results.closed).toBe(RESULTS_CLOSE_CODES.sessionEnded)
    expect(LIVE_CLOSE_CODES.sessionEnded).toBe(4001)
    expect(RESULTS_CLOSE_CODES.sessionEnded).toBe(4401)
    // Another session of the same user keeps its sockets.
    await pause(100)
    expect(bystanders.live.isOpen()).toBe(true)
    expect(bystanders.results.isOpen()).toBe(true)
    bystanders.live.socket.close()
    bystanders.results.socket.close()
  })

  it('closes the sockets when the access token expires', async () => {
    const tokens = await server.login(DEMO_USERS.contributor.email)
    const sockets = await openBoth(server, tokens.accessToken)
    await pause(SESSION_EXPIRY_CHECK_MS + 200)
    expect(sockets.live.isOpen()).toBe(true)
    server.advanceClockMs(ACCESS_TOKEN_TTL_S * 1000 + 1000)
    expect(await sockets.live.closed).toBe(LIVE_CLOSE_CODES.sessionEnded)
    expect(await sockets.results.closed).toBe(RESULTS_CLOSE_CODES.sessionEnded)
  })

  it('keeps the sockets through a refresh, then closes them at logout of the new pair', async () => {
    const tokens = await server.login(DEMO_USERS.manager.email)
    const sockets = await openBoth(server, tokens.accessToken)
    const refreshed = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: tokens.refreshToken },
    })
    expect(refreshed.status).toBe(200)
    await pause(SESSION_EXPIRY_CHECK_MS + 200)
    expect(sockets.live.isOpen()).toBe(true)
    expect(sockets.results.isOpen()).toBe(true)
    await server.request('POST', '/api/auth/logout', {
      token: refreshed.body.accessToken,
      body: {},
    })
    expect(await sockets.live.closed).toBe(LIVE_CLOSE_CODES.sessionEnded)
    expect(await sockets.results.closed).toBe(RESULTS_CLOSE_CODES.sessionEnded)
  })

  it('revokes the session a rotated refresh token produced when that token is used again', async () => {
    const first = await server.login(DEMO_USERS.manager.email)
    const second = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: first.refreshToken },
    })
    expect(second.status).toBe(200)
    const third = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: second.body.refreshToken },
    })
    expect(third.status).toBe(200)
    const thirdAccess = String(third.body.accessToken)
    const sockets = await openBoth(server, thirdAccess)
    expect(
      (await server.request('GET', '/api/users', { token: third.body.accessToken })).status,
    ).toBe(200)

    // The first, long rotated token comes back (a stolen copy, say).
    const reuse = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: first.refreshToken },
    })
    expect(reuse.status).toBe(401)
    expect(reuse.body.code).toBe('invalid_grant')
    expect(
      (await server.request('GET', '/api/users', { token: third.body.accessToken })).status,
    ).toBe(401)
    const latest = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: third.body.refreshToken },
    })
    expect(latest.status).toBe(401)
    expect(await sockets.live.closed).toBe(LIVE_CLOSE_CODES.sessionEnded)
    expect(await sockets.results.closed).toBe(RESULTS_CLOSE_CODES.sessionEnded)
  })

  it('leaves other logins of the same user alone when a token is reused', async () => {
    const mine = await server.login(DEMO_USERS.contributor.email)
    const other = await server.login(DEMO_USERS.contributor.email)
    const rotated = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: mine.refreshToken },
    })
    expect(rotated.status).toBe(200)
    await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: mine.refreshToken },
    })
    expect((await server.request('GET', '/api/users', { token: other.accessToken })).status).toBe(
      200,
    )
  })

  it('sweeps expired sessions while the server runs, not only at login', async () => {
    const db = server.database.handle.db
    await server.login(DEMO_USERS.admin.email)
    const before = await db.selectFrom('sessions').select('id').execute()
    expect(before.length).toBeGreaterThan(0)
    const later = createClock(() => Date.now() + (REFRESH_TOKEN_TTL_S + 86_400) * 1000)
    const stop = startSessionSweep(db, later, 50)
    await pause(200)
    stop()
    expect(await db.selectFrom('sessions').select('id').execute()).toEqual([])
  })
})
