import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { vncAnswers } from './localProvider.ts'

/** A loopback server that does `onConnection` with each connection; answers its handle. */
async function listen(onConnection: (socket: Socket) => void) {
  const server = createServer(onConnection)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  const { port } = server.address() as AddressInfo
  return { pid: process.pid, vnc: { host: '127.0.0.1', port }, display: 1 }
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0))
    await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('the VNC probe of the local machine provider', () => {
  it('answers yes to an RFB greeting and no to another one', async () => {
    expect(await vncAnswers(await listen((socket) => socket.end('RFB 003.008\n')))).toBe(true)
    expect(await vncAnswers(await listen((socket) => socket.end('HTTP/1.1 400\r\n')))).toBe(false)
  })

  // A desktop killed between accepting the probe and greeting it: the probe once waited forever,
  // and the supervisor, which awaits it, never marked the machine gone (vms.test.ts, flaky).
  it('answers no when the connection closes before any greeting', async () => {
    const handle = await listen((socket) => socket.destroy())
    const started = Date.now()
    expect(await vncAnswers(handle)).toBe(false)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('answers no when nothing listens', async () => {
    const handle = await listen(() => {})
    servers.pop()!.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await vncAnswers(handle)).toBe(false)
  })
})
