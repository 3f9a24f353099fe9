/**
 * Test helpers for engine/data (not used by the product): a fake results server over synthetic
 * outputs that answers bundle requests like GET …/outputs/{n}/bundle?dataset=…&objects=…, and
 * byte patches that break payloads in precise ways.
 */
import { writeSyntheticOutput, type SyntheticOutputOptions } from '../../domain/output/synthetic.ts'
import { writeBundle, type WrittenOutput } from '../../domain/output/writer.ts'
import type { LoadRequest } from '../protocol.ts'
import type { TriangleMesh } from '../../domain/meshFile.ts'

/** A fetch over written outputs (by output number), counting its calls. */
export interface FakeServer {
  fetch: typeof fetch
  calls: { url: string; authorization: string | null }[]
  outputs: Map<number, WrittenOutput>
  /** Replaces the next responses' bytes (e.g. with a broken bundle). */
  override: ((url: URL, bundle: Uint8Array) => Response | Uint8Array) | null
}

/** Writes synthetic outputs 0 … count − 1 (small by default). */
export function writeSyntheticOutputs(
  count: number,
  options: Partial<SyntheticOutputOptions> = {},
): Map<number, WrittenOutput> {
  const outputs = new Map<number, WrittenOutput>()
  for (let outputNo = 0; outputNo < count; outputNo++) {
    outputs.set(
      outputNo,
      writeSyntheticOutput({
        particles: 2000,
        timeS: 0.1 * outputNo,
        simulationId: 5,
        runId: 9,
        outputNo,
        meshCellsPerEdge: 8,
        ...options,
      }),
    )
  }
  return outputs
}

/** A server answering `http://dive.test/outputs/{n}/bundle?dataset=&objects=` from `outputs`. */
export function createFakeServer(outputs: Map<number, WrittenOutput>): FakeServer {
  const server: FakeServer = {
    calls: [],
    outputs,
    override: null,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input.toString())
      const headers = new Headers(init?.headers)
      server.calls.push({ url: url.toString(), authorization: headers.get('authorization') })
      if (init?.signal?.aborted) return Promise.reject(init.signal.reason as Error)
      const match = /\/outputs\/(\d+)\/bundle$/.exec(url.pathname)
      const output = match ? outputs.get(Number(match[1])) : undefined
      if (output === undefined) {
        return Promise.resolve(new Response('{"message":"Output not found."}', { status: 404 }))
      }
      const dataset = url.searchParams.get('dataset') === 'fast' ? 'fast' : 'full'
      const wanted = url.searchParams.get('objects')?.split(',') ?? null
      const objects = [...output[dataset].values()].filter(
        (object) => wanted === null || wanted.includes(object.objectId),
      )
      const bundle = writeBundle(objects)
      const answer = server.override ? server.override(url, bundle) : bundle
      if (answer instanceof Response) return Promise.resolve(answer)
      return Promise.resolve(
        new Response(answer as Uint8Array<ArrayBuffer>, {
          status: 200,
          headers: {
            'content-type': 'application/octet-stream',
            'content-length': String(answer.length),
          },
        }),
      )
    },
  }
  return server
}

/** A load request for output `outputNo` of the fake server's simulation. */
export function createLoadRequest(
  outputNo: number,
  overrides: Partial<LoadRequest> = {},
): LoadRequest {
  return {
    requestId: `load-${outputNo}`,
    key: { simulationId: 5, runId: 9, outputNo },
    source: { bundleUrl: `http://dive.test/outputs/${outputNo}/bundle`, accessToken: 'token-1' },
    dataset: 'full',
    objectIds: [],
    estimatedBytes: 1,
    priority: 'shown',
    ...overrides,
  }
}

/** Replaces every occurrence of a flatbuffer string (uint32 length, bytes, NUL) by another of the same length. */
export function replaceFlatbufferString(bytes: Uint8Array, from: string, to: string): Uint8Array {
  if (from.length !== to.length) throw new Error('Replacements must keep the length.')
  const encoder = new TextEncoder()
  const needle = new Uint8Array([from.length, 0, 0, 0, ...encoder.encode(from), 0])
  const replacement = encoder.encode(to)
  const out = bytes.slice()
  let replaced = 0
  for (let i = 0; i + needle.length <= out.length; i++) {
    let same = true
    for (let j = 0; j < needle.length && same; j++) same = out[i + j] === needle[j]
    if (!same) continue
    out.set(replacement, i + 4)
    replaced++
  }
  if (replaced === 0) throw new Error(`"${from}" was not found.`)
  return out
}

/** A closed unit cube: 8 shared vertices, 12 outward-facing triangles. */
export function unitCube(): TriangleMesh {
  const positions = new Float32Array([
    0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1,
  ])
  const indices = new Uint32Array([
    0, 2, 1, 0, 3, 2, // z = 0
    4, 5, 6, 4, 6, 7, // z = 1
    0, 1, 5, 0, 5, 4, // y = 0
    3, 7, 6, 3, 6, 2, // y = 1
    0, 4, 7, 0, 7, 3, // x = 0
    1, 2, 6, 1, 6, 5, // x = 1
  ]) // prettier-ignore
  return { positions, indices }
}
