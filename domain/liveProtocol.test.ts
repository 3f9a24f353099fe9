import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  CLEAN_CLOSE_CODES,
  LiveClientFrameSchema,
  PROTOCOL_VERSION,
  connectionToastState,
  delayForAttempt,
  heartbeatIntervalMs,
  parseLiveServerFrame,
  shouldReconnect,
} from './liveProtocol.ts'

describe('store updates', () => {
  it.each(['SET', 'REPLACE', 'DEL'])('accepts a %s update', (operation) => {
    const frame = { type: 'StoreUpdate', updateId: 4, operation, path: ['simulations', '1'] }
    const parsed = parseLiveServerFrame(JSON.stringify(frame))
    expect(parsed).toEqual({ ok: true, frame })
  })

  it('reports other operations as unexpected instead of applying them', () => {
    const frame = { type: 'StoreUpdate', updateId: 4, operation: 'PATCH', path: [] }
    const parsed = parseLiveServerFrame(JSON.stringify(frame))
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.reason).toMatch(/^operation: /)
  })

  it('reports unknown types and broken JSON as unexpected', () => {
    expect(parseLiveServerFrame('{"type":"Gossip"}').ok).toBe(false)
    expect(parseLiveServerFrame('not json')).toEqual({ ok: false, reason: 'not JSON' })
  })
})

describe('workload messages', () => {
  it('parses each workload message by its type', () => {
    const frames = [
      { type: 'WorkloadHeartbeat', workloadConnected: true, sentAt: '2024-01-01T00:00:00Z' },
      { type: 'NewWorkload', workloadId: 'w1', simulationId: 3 },
      { type: 'NoWorkload', simulationId: 3 },
      { type: 'WorkloadInitialized', workloadId: 'w1', simulationId: 3 },
      {
        type: 'TransactionMessage',
        sequenceId: 9,
        kind: 'simulation',
        credits: -1.5,
        organizationCredits: 98.5,
      },
      { type: 'InstanceKeyMessage', workloadId: 'w1', instanceKey: 'k' },
    ]
    for (const frame of frames)
      expect(parseLiveServerFrame(JSON.stringify(frame))).toEqual({ ok: true, frame })
  })

  it('parses the client hello with the protocol version', () => {
    const hello = { type: 'Hello', protocolVersion: PROTOCOL_VERSION, accessToken: 't' }
    expect(v.parse(LiveClientFrameSchema, hello)).toEqual(hello)
    expect(v.safeParse(LiveClientFrameSchema, { type: 'Hello' }).success).toBe(false)
  })
})

describe('reconnect policy', () => {
  it('doubles the delay from 1 s and caps it at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(delayForAttempt)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ])
    expect(delayForAttempt(1000)).toBe(30_000)
    expect(delayForAttempt(Infinity)).toBe(30_000)
  })

  it('treats negative and NaN attempts as the first', () => {
    expect(delayForAttempt(-3)).toBe(1000)
    expect(delayForAttempt(Number.NaN)).toBe(1000)
  })

  it('does not reconnect after clean close codes 1000 and 3000', () => {
    expect(CLEAN_CLOSE_CODES).toEqual([1000, 3000])
    expect(shouldReconnect(1000, 0)).toBe(false)
    expect(shouldReconnect(3000, 0)).toBe(false)
    expect(shouldReconnect(1006, 0)).toBe(true)
  })

  it('gives up after 50 attempts', () => {
    expect(shouldReconnect(1006, 49)).toBe(true)
    expect(shouldReconnect(1006, 50)).toBe(false)
  })

  it('beats every 10 s with a workload and every 0.5 s without', () => {
    expect(heartbeatIntervalMs(true)).toBe(10_000)
    expect(heartbeatIntervalMs(false)).toBe(500)
  })

  it('toasts connected, reconnecting and reconnected', () => {
    expect(connectionToastState('open', false)).toBe('connected')
    expect(connectionToastState('drop', false)).toBe('reconnecting')
    expect(connectionToastState('open', true)).toBe('reconnected')
  })
})
