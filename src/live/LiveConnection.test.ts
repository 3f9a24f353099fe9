import { describe, expect, it } from 'vitest'
import { PROTOCOL_VERSION, type LiveServerFrame } from '../../domain/liveProtocol.ts'
import { LiveConnection, type SocketLike } from './LiveConnection.ts'

class FakeSocket implements SocketLike {
  readyState = 0
  sent: unknown[] = []
  closedWith: number | null = null
  onopen: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: ((event: { code: number }) => void) | null = null
  onerror: ((event: unknown) => void) | null = null
  send(text: string) {
    this.sent.push(JSON.parse(text))
  }
  close(code = 1000) {
    this.closedWith = code
    this.readyState = 3
  }
  open() {
    this.readyState = 1
    this.onopen?.({})
  }
  receive(frame: object) {
    this.onmessage?.({ data: JSON.stringify(frame) })
  }
  drop(code = 1006) {
    this.readyState = 3
    this.onclose?.({ code })
  }
}

function setup(token: string | null = 'token-1') {
  const sockets: FakeSocket[] = []
  const timers: { callback: () => void; ms: number; cleared: boolean }[] = []
  const frames: LiveServerFrame[] = []
  const changes: string[] = []
  const unexpected: string[] = []
  const connection = new LiveConnection({
    url: 'ws://test/ws/live',
    createSocket: () => {
      const socket = new FakeSocket()
      sockets.push(socket)
      return socket
    },
    readToken: () => token,
    onFrame: (frame) => frames.push(frame),
    onConnectionChange: (state) => changes.push(state),
    onUnexpected: (reason) => unexpected.push(reason),
    setTimer: (callback, ms) => {
      const timer = { callback, ms, cleared: false }
      timers.push(timer)
      return timer
    },
    clearTimer: (timer) => {
      ;(timer as { cleared: boolean }).cleared = true
    },
  })
  const fire = (ms: number) => {
    const timer = timers.find((t) => !t.cleared && t.ms === ms)
    if (!timer) throw new Error(`no timer of ${ms} ms`)
    timer.cleared = true
    timer.callback()
  }
  return { connection, sockets, timers, frames, changes, unexpected, fire }
}

const welcome = { type: 'Welcome', protocolVersion: PROTOCOL_VERSION, lastUpdateId: 0 }

describe('LiveConnection', () => {
  it('says Hello with the access token and subscribes after the Welcome', () => {
    const { connection, sockets, changes } = setup()
    connection.subscribe(12)
    connection.start()
    const socket = sockets[0]!
    socket.open()
    expect(socket.sent).toEqual([
      { type: 'Hello', protocolVersion: PROTOCOL_VERSION, accessToken: 'token-1' },
    ])
    socket.receive(welcome)
    expect(socket.sent.at(-1)).toEqual({ type: 'Subscribe', simulationId: 12 })
    expect(changes).toEqual(['connected'])
  })

  it('does not connect without a token', () => {
    const { connection, sockets } = setup(null)
    connection.start()
    expect(sockets).toHaveLength(0)
  })

  it('reconnects with backoff 1 s, 2 s, 4 s after drops and subscribes again', () => {
    const { connection, sockets, timers, changes, fire } = setup()
    connection.start()
    sockets[0]!.open()
    sockets[0]!.receive(welcome)
    connection.subscribe(3)
    sockets[0]!.drop()
    expect(changes).toEqual(['connected', 'reconnecting'])
    expect(timers.filter((t) => !t.cleared).map((t) => t.ms)).toEqual([1000])
    fire(1000)
    sockets[1]!.drop()
    fire(2000)
    sockets[2]!.drop()
    expect(timers.filter((t) => !t.cleared).map((t) => t.ms)).toEqual([4000])
    fire(4000)
    sockets[3]!.open()
    sockets[3]!.receive(welcome)
    expect(changes).toEqual(['connected', 'reconnecting', 'reconnected'])
    expect(sockets[3]!.sent.at(-1)).toEqual({ type: 'Subscribe', simulationId: 3 })
  })

  it('does not reconnect after a clean close (1000 or 3000) or stop()', () => {
    const { connection, sockets, timers } = setup()
    connection.start()
    sockets[0]!.open()
    sockets[0]!.drop(3000)
    expect(timers.filter((t) => !t.cleared && t.ms >= 1000)).toEqual([])
    connection.stop()
    expect(sockets).toHaveLength(1)
  })

  it('unsubscribes only when the last follower leaves', () => {
    const { connection, sockets } = setup()
    connection.start()
    sockets[0]!.open()
    sockets[0]!.receive(welcome)
    const first = connection.subscribe(5)
    const second = connection.subscribe(5)
    expect(
      sockets[0]!.sent.filter((f) => (f as { type: string }).type === 'Subscribe'),
    ).toHaveLength(1)
    first()
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'Subscribe', simulationId: 5 })
    second()
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'Unsubscribe', simulationId: 5 })
  })

  it('sends heartbeats every 0.5 s, every 10 s once a workload is connected', () => {
    const { connection, sockets, fire } = setup()
    connection.start()
    sockets[0]!.open()
    sockets[0]!.receive(welcome)
    fire(500)
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'Heartbeat' })
    sockets[0]!.receive({ type: 'WorkloadHeartbeat', workloadConnected: true, sentAt: 'now' })
    fire(500)
    fire(10_000)
    expect(
      sockets[0]!.sent.filter((f) => (f as { type: string }).type === 'Heartbeat'),
    ).toHaveLength(3)
  })

  it('passes store updates on, tracks the update id, and reports frames it does not understand', () => {
    const { connection, sockets, frames, unexpected } = setup()
    connection.start()
    sockets[0]!.open()
    sockets[0]!.receive(welcome)
    sockets[0]!.receive({
      type: 'StoreUpdate',
      updateId: 4,
      operation: 'SET',
      path: ['a'],
      value: 1,
    })
    sockets[0]!.receive({ type: 'StoreUpdate', updateId: 5, operation: 'PATCH', path: ['a'] })
    expect(connection.lastUpdateId()).toBe(4)
    expect(frames.map((f) => f.type)).toEqual(['Welcome', 'StoreUpdate'])
    expect(unexpected).toHaveLength(1)
  })

  // Issue 13 item 2: the server closes with 4001 when the session ends (logout, expiry).
  it('asks for fresh tokens when the server ends the session (4001), then reconnects', () => {
    let unauthorized = 0
    const sockets: FakeSocket[] = []
    const timers: (() => void)[] = []
    const connection = new LiveConnection({
      url: 'ws://test/ws/live',
      createSocket: () => {
        const socket = new FakeSocket()
        sockets.push(socket)
        return socket
      },
      readToken: () => 'token',
      onFrame: () => undefined,
      onUnauthorized: () => {
        unauthorized += 1
      },
      setTimer: (callback) => timers.push(callback),
      clearTimer: () => undefined,
    })
    connection.start()
    sockets[0]!.open()
    sockets[0]!.receive(welcome)
    sockets[0]!.drop(1006)
    expect(unauthorized).toBe(0)
    timers.at(-1)!()
    sockets[1]!.open()
    sockets[1]!.drop(4001)
    expect(unauthorized).toBe(1)
    timers.at(-1)!()
    expect(sockets).toHaveLength(3)
  })

  // Issue 13 item 9: a stale 'failed' overwrote 'completed'.
  it('drops store updates whose id is not newer than the last applied, until a new Welcome', () => {
    const { connection, sockets, frames, unexpected, fire } = setup()
    connection.start()
    sockets[0]!.open()
    sockets[0]!.receive(welcome)
    const update = (updateId: number, state: string) => ({
      type: 'StoreUpdate',
      updateId,
      operation: 'REPLACE',
      path: ['simulations', '7'],
      value: { state },
    })
    sockets[0]!.receive(update(2, 'completed'))
    sockets[0]!.receive(update(1, 'failed'))
    sockets[0]!.receive(update(2, 'failed'))
    expect(connection.lastUpdateId()).toBe(2)
    const applied = frames.filter((f) => f.type === 'StoreUpdate')
    expect(applied.map((f) => (f.value as { state: string }).state)).toEqual(['completed'])
    expect(unexpected).toHaveLength(2)
    sockets[0]!.receive(update(3, 'running'))
    expect(connection.lastUpdateId()).toBe(3)
    // A new connection numbers from its Welcome again.
    sockets[0]!.drop()
    fire(1000)
    sockets[1]!.open()
    sockets[1]!.receive(welcome)
    sockets[1]!.receive(update(1, 'completed'))
    expect(connection.lastUpdateId()).toBe(1)
    expect(frames.filter((f) => f.type === 'StoreUpdate')).toHaveLength(3)
  })

  it('disconnects after the page is hidden for 300 s and reconnects when it shows again', () => {
    const { connection, sockets, fire } = setup()
    connection.start()
    sockets[0]!.open()
    connection.setPageHidden(true)
    fire(300_000)
    expect(sockets[0]!.closedWith).toBe(1000)
    connection.setPageHidden(false)
    expect(sockets).toHaveLength(2)
  })
})
