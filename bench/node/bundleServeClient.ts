/**
 * The Node client of bench/node/bundleServe.bench.ts in a process of its own, as a real client is:
 * for each line `url token mode` on stdin it fetches the URL once and prints `wall_ms cpu_ms`
 * (this process's CPU). Mode `http`: node:http, the body copied into one buffer of Content-Length
 * (as the in-process client); mode `socket`: a bare TCP connection read to its end into one buffer
 * of a given size (the loopback socket probe's client, bench/lib/resultsServer.ts).
 */
import { request } from 'node:http'
import { connect } from 'node:net'
import { createInterface } from 'node:readline'

function viaHttp(url: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {}
    const req = request(url, { headers }, (response) => {
      const length = Number(response.headers['content-length'])
      const body = Buffer.allocUnsafe(length)
      let offset = 0
      response.on('data', (chunk: Buffer) => {
        offset += chunk.copy(body, offset)
      })
      response.on('end', () =>
        offset === length ? resolve() : reject(new Error(`${offset} of ${length} bytes`)),
      )
      response.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

function viaSocket(url: string, sizeBytes: number): Promise<void> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const target = Buffer.allocUnsafe(sizeBytes)
    let offset = 0
    const socket = connect(Number(port), hostname)
    socket.on('data', (chunk: Buffer) => {
      offset += chunk.copy(target, offset)
    })
    socket.on('end', () =>
      offset === sizeBytes ? resolve() : reject(new Error(`${offset} of ${sizeBytes} bytes`)),
    )
    socket.on('error', reject)
  })
}

for await (const line of createInterface({ input: process.stdin })) {
  const [url = '', token = '', mode = 'http', size = '0'] = line.split(' ')
  const startedMs = performance.now()
  const cpu = process.cpuUsage()
  await (mode === 'socket'
    ? viaSocket(url, Number(size))
    : viaHttp(url, token === '-' ? '' : token))
  const used = process.cpuUsage(cpu)
  process.stdout.write(`${performance.now() - startedMs} ${(used.user + used.system) / 1000}\n`)
}
