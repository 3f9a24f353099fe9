import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

/*
 * Issue 13 item 7: a large STL is parsed and checked off the event loop, so other requests are
 * answered while it is. Asserted by the order of completion, not by a time.
 */

/** A binary STL of a flat `side` × `side` grid: 2 side² triangles, 50 bytes each. */
function gridStl(side: number): Buffer {
  const triangles = 2 * side * side
  const bytes = Buffer.alloc(84 + 50 * triangles)
  bytes.writeUInt32LE(triangles, 80)
  let offset = 84
  const vertex = (x: number, y: number) => {
    bytes.writeFloatLE(x, offset)
    bytes.writeFloatLE(y, offset + 4)
    bytes.writeFloatLE(0, offset + 8)
    offset += 12
  }
  for (let i = 0; i < side; i++)
    for (let j = 0; j < side; j++) {
      for (const corners of [
        [
          [i, j],
          [i + 1, j],
          [i + 1, j + 1],
        ],
        [
          [i, j],
          [i + 1, j + 1],
          [i, j + 1],
        ],
      ]) {
        bytes.writeFloatLE(1, offset + 8) // normal (0, 0, 1)
        offset += 12
        for (const [x, y] of corners) vertex(x!, y!)
        offset += 2
      }
    }
  return bytes
}

/** A multipart body of one `file` part. */
function multipart(fileName: string, content: Buffer): { body: Buffer; type: string } {
  const boundary = `----dive${Date.now()}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return {
    body: Buffer.concat([head, content, tail]),
    type: `multipart/form-data; boundary=${boundary}`,
  }
}

describeEachDialect('STL uploads off the main thread', (dialect) => {
  let server: TestServer
  let manager: string

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
  })
  afterAll(async () => {
    await server?.close()
  })

  it('answers other requests while a 50 MB STL is parsed', async () => {
    const side = 708 // 1,002,528 triangles: 50.1 MB
    const { body, type } = multipart('large.stl', gridStl(side))
    expect(body.length).toBeGreaterThan(50_000_000)
    const completed: string[] = []
    const url = new URL('/api/client-upload/uploads', server.baseUrl)
    let sent!: () => void
    const bodySent = new Promise<void>((resolve) => (sent = resolve))
    const upload = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${manager}`,
            'content-type': type,
            'content-length': String(body.length),
          },
        },
        (response) => {
          let text = ''
          response.setEncoding('utf8')
          response.on('data', (chunk: string) => (text += chunk))
          response.on('end', () => {
            completed.push('upload')
            resolve({ status: response.statusCode ?? 0, text })
          })
        },
      )
      request.on('error', reject)
      request.end(body, () => sent())
    })
    await bodySent
    // Five requests one after another, each waiting for the previous: all answered before the
    // upload only if parsing does not hold the event loop.
    for (let i = 0; i < 5; i++) {
      const reply = await server.request('GET', '/api/projects', { token: manager })
      expect(reply.status).toBe(200)
      completed.push(`get ${i}`)
    }
    const uploaded = await upload
    expect(uploaded.status, uploaded.text).toBe(201)
    expect(JSON.parse(uploaded.text)).toMatchObject({
      kind: 'stl',
      nbrOfTriangles: 2 * side * side,
    })
    expect(completed).toEqual(['get 0', 'get 1', 'get 2', 'get 3', 'get 4', 'upload'])
  }, 120_000)
})
