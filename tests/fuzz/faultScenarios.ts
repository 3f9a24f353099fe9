/**
 * The kill -9 scenarios of issue 13's fault suite: a real server process (serverProcess.ts) is
 * killed during a run of the demo simulation, in the middle of a large STL upload streamed slowly,
 * and during a VTU export; each is followed by a start on the same data, after which the checks of
 * faultChecks.ts must hold.
 */
import { request as httpRequest } from 'node:http'
import type { ApiClient, ServerProcess } from './serverProcess.ts'

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `read` until `done` holds or `timeoutMs` passes; returns the last value. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > until) return value
    await sleep(intervalMs)
  }
}

/**
 * A binary STL of `count` small closed tetrahedra on a grid (4 triangles each, outward normals),
 * so a whole upload is a valid mesh.
 */
export function buildTetrahedraStl(count: number): Buffer {
  const triangles = count * 4
  const bytes = Buffer.alloc(84 + 50 * triangles)
  bytes.write('dive fault suite', 0, 'ascii')
  bytes.writeUInt32LE(triangles, 80)
  const side = Math.ceil(Math.cbrt(count))
  const size = 0.004
  let offset = 84
  const put = (a: number[], b: number[], c: number[]) => {
    const u = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!]
    const v = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!]
    const n = [
      u[1]! * v[2]! - u[2]! * v[1]!,
      u[2]! * v[0]! - u[0]! * v[2]!,
      u[0]! * v[1]! - u[1]! * v[0]!,
    ]
    const length = Math.hypot(n[0]!, n[1]!, n[2]!) || 1
    for (const value of [...n.map((x) => x / length), ...a, ...b, ...c]) {
      bytes.writeFloatLE(value, offset)
      offset += 4
    }
    offset += 2
  }
  for (let i = 0; i < count; i++) {
    const x = (i % side) * 0.01
    const y = (Math.floor(i / side) % side) * 0.01
    const z = Math.floor(i / (side * side)) * 0.01
    const p0 = [x, y, z]
    const p1 = [x + size, y, z]
    const p2 = [x, y + size, z]
    const p3 = [x, y, z + size]
    put(p0, p2, p1)
    put(p0, p1, p3)
    put(p0, p3, p2)
    put(p1, p2, p3)
  }
  return bytes
}

/**
 * Streams `file` as a multipart STL upload in chunks, a pause between them, and kills the server
 * once `killAtFraction` of the body has gone (1: after the whole body, then `afterMs` later).
 * Resolves with the status the server answered before it died, if any.
 */
export async function uploadAndKill(
  server: ServerProcess,
  token: string,
  file: Buffer,
  killAtFraction: number,
  afterMs: number,
): Promise<{ status: number | null; sentBytes: number }> {
  const boundary = `----dive-fault-${Date.now()}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="unit"\r\n\r\nm\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fault.stl"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const body = Buffer.concat([head, file, tail])
  const killAt = Math.floor(body.length * Math.min(1, killAtFraction))
  let status: number | null = null
  let sent = 0
  const url = new URL(`${server.baseUrl}/api/client-upload/uploads`)
  await new Promise<void>((resolve) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
        },
      },
      (response) => {
        status = response.statusCode ?? null
        response.resume()
      },
    )
    request.on('error', () => resolve())
    request.on('close', () => resolve())
    const chunk = 256 * 1024
    const pump = async () => {
      while (sent < killAt) {
        const end = Math.min(killAt, sent + chunk)
        const ok = request.write(body.subarray(sent, end))
        sent = end
        if (!ok) await new Promise((r) => request.once('drain', r))
        await sleep(10)
      }
      if (killAt >= body.length) {
        request.end()
        await sleep(afterMs)
      }
      await server.kill()
      request.destroy()
      resolve()
    }
    void pump()
  })
  return { status, sentBytes: sent }
}

/** Counts of a profile: how many kills were tried, recovered cleanly, and lost something. */
export interface FaultCounts {
  tried: number
  recovered: number
  lost: number
}

export function formatFaultCounts(label: string, counts: Record<string, FaultCounts>): string {
  const lines = Object.entries(counts).map(
    ([kind, c]) => `  ${kind}: tried ${c.tried}, recovered cleanly ${c.recovered}, lost ${c.lost}`,
  )
  const total = Object.values(counts).reduce(
    (sum, c) => ({
      tried: sum.tried + c.tried,
      recovered: sum.recovered + c.recovered,
      lost: sum.lost + c.lost,
    }),
    { tried: 0, recovered: 0, lost: 0 },
  )
  return [
    `${label}: tried ${total.tried}, recovered cleanly ${total.recovered}, lost ${total.lost}`,
    ...lines,
  ].join('\n')
}

/** The client type, re-exported for the test. */
export type { ApiClient }
