import { describe, expect, it } from 'vitest'
import {
  FIXTURE_FILES,
  FIXTURES_DIRECTORY,
  getFixtureFileSystem,
} from '../../domain/output/fixtures.ts'
import { readObjectStream } from '../../domain/output/reader.ts'
import { BufferPool } from './bufferPool.ts'
import { CacheQuotaError, MemoryOutputCache, OBJECT_LIST_ID, type OutputCache } from './cache.ts'
import {
  buildBundleUrl,
  CACHE_FORMAT_VERSION,
  LoadError,
  loadObjectViews,
  loadRenderableOutput,
  readResponseBytes,
  type LoaderContext,
  type LoadErrorCode,
} from './loader.ts'
import { isAbortError } from './scheduler.ts'
import {
  createFakeServer,
  createLoadRequest,
  replaceFlatbufferString,
  writeSyntheticOutputs,
} from './testing.ts'

const outputs = writeSyntheticOutputs(3, { openBoundary: true })

function createContext(
  overrides: Partial<LoaderContext> = {},
): LoaderContext & { server: ReturnType<typeof createFakeServer> } {
  const server = createFakeServer(outputs)
  return {
    fetch: server.fetch,
    cache: new MemoryOutputCache(),
    pool: new BufferPool(),
    server,
    ...overrides,
  }
}

function columnAt(
  buffer: ArrayBuffer,
  slice: { byteOffset: number; length: number },
): Float32Array {
  return new Float32Array(buffer, slice.byteOffset, slice.length)
}

async function expectLoadError(promise: Promise<unknown>, code: LoadErrorCode): Promise<LoadError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LoadError)
  expect((error as LoadError).code).toBe(code)
  return error as LoadError
}

describe('loadRenderableOutput', () => {
  it('decodes every object of a fetched output with the written values', async () => {
    const context = createContext()
    const loaded = await loadRenderableOutput(createLoadRequest(1), context)
    const written = outputs.get(1)!.full
    expect(loaded.output.objects.map((o) => o.objectId).sort()).toEqual([...written.keys()].sort())
    expect(loaded.output.timeS).toBeCloseTo(0.1)
    expect(loaded.fromCache).toBe(false)
    for (const object of loaded.output.objects) {
      const reference = readObjectStream(written.get(object.objectId)!.bytes)
      expect(object.particleCount).toBe(reference.rowCount)
      expect(object.kind).toBe(reference.meta.objectKind)
      if (object.kind === 'volume_clip') {
        const inside = object.columns[0]!
        expect(inside.name).toBe('inside')
        expect(new Uint8Array(object.buffer, inside.byteOffset, inside.length)).toEqual(
          reference.mask,
        )
        continue
      }
      expect(object.columns.map((c) => c.name)).toEqual(Object.keys(reference.columns))
      for (const column of object.columns) {
        expect(columnAt(object.buffer, column)).toEqual(reference.columns[column.name])
        expect(column.range).toEqual(reference.ranges[column.name])
      }
    }
  })

  it('transfers the fetched bundle buffer itself: every column is a view into it (zero copy)', async () => {
    const context = createContext()
    const loaded = await loadRenderableOutput(createLoadRequest(0), context)
    expect(loaded.transfer).toHaveLength(1)
    const [buffer] = loaded.transfer
    for (const object of loaded.output.objects) {
      expect(object.buffer).toBe(buffer)
      if (object.mesh) expect(object.mesh.buffer).toBe(buffer)
    }
    const views = await loadObjectViews(createLoadRequest(0), createContext())
    const buffers = new Set(
      views.views.flatMap((view) => [
        ...Object.values(view.columns).map((c) => c.buffer),
        ...(view.mask ? [view.mask.buffer] : []),
        ...(view.mesh ? [view.mesh.indices.buffer, view.mesh.columns.x!.buffer] : []),
      ]),
    )
    expect(buffers.size).toBe(1)
  })

  it('gives the wall mesh as columns and indices in the same buffer', async () => {
    const loaded = await loadRenderableOutput(createLoadRequest(0), createContext())
    const wall = loaded.output.objects.find((o) => o.kind === 'wall_boundary')!
    const mesh = wall.mesh!
    const reference = readObjectStream(outputs.get(0)!.full.get(wall.objectId)!.bytes).mesh!
    expect(mesh.triangleCount).toBe(reference.triangleCount)
    expect(new Uint32Array(mesh.buffer, mesh.indices.byteOffset, mesh.indices.length)).toEqual(
      reference.indices,
    )
    expect(
      columnAt(
        mesh.buffer,
        mesh.columns.find((c) => c.name === 'z')!,
      ),
    ).toEqual(reference.columns.z)
  })

  it('reads the committed fixture bundle', async () => {
    const fileSystem = getFixtureFileSystem()
    const bundle = fileSystem.readFileSync(
      new URL(FIXTURE_FILES.damBreakBundle, FIXTURES_DIRECTORY),
    )
    const fluid = readObjectStream(
      fileSystem.readFileSync(new URL(FIXTURE_FILES.damBreakFluid, FIXTURES_DIRECTORY)),
    )
    const fetchFixture: typeof fetch = () =>
      Promise.resolve(new Response(new Uint8Array(bundle), { status: 200 }))
    const loaded = await loadRenderableOutput(
      createLoadRequest(4, { key: { simulationId: 1, runId: 1, outputNo: 4 } }),
      createContext({ fetch: fetchFixture }),
    )
    expect(loaded.output.objects.map((o) => o.objectId)).toEqual([
      'fluid-0',
      'wall-1',
      'outlet-2',
      'clip-1@fluid-0',
    ])
    const x = loaded.output.objects[0]!.columns.find((c) => c.name === 'x')!
    expect(columnAt(loaded.output.objects[0]!.buffer, x)).toEqual(fluid.columns.x)
  })

  it('asks for the dataset and objects with the bearer token', async () => {
    const context = createContext()
    await loadRenderableOutput(
      createLoadRequest(2, { dataset: 'fast', objectIds: ['fluid-0', 'wall-1'] }),
      context,
    )
    expect(context.server.calls).toEqual([
      {
        url: 'http://dive.test/outputs/2/bundle?dataset=fast&objects=fluid-0%2Cwall-1',
        authorization: 'Bearer token-1',
      },
    ])
    await loadRenderableOutput(createLoadRequest(1), { ...context, accessToken: 'fresh' })
    expect(context.server.calls[1]!.authorization).toBe('Bearer fresh')
    expect(buildBundleUrl({ bundleUrl: '/b?v=1', accessToken: null }, 'full', [])).toBe(
      '/b?v=1&dataset=full',
    )
  })

  it('loads the fast dataset as the prefix the writer made', async () => {
    const loaded = await loadRenderableOutput(
      createLoadRequest(0, { dataset: 'fast' }),
      createContext(),
    )
    const fluid = loaded.output.objects.find((o) => o.objectId === 'fluid-0')!
    expect(fluid.dataset).toBe('fast')
    expect(fluid.particleCount).toBe(outputs.get(0)!.fast.get('fluid-0')!.particleCount)
  })
})

describe('loading through the cache', () => {
  it('serves a second load of every object from the cache, without a request', async () => {
    const context = createContext()
    const first = await loadRenderableOutput(createLoadRequest(1), context)
    expect(await first.cacheWrite).toBeNull()
    const cache = context.cache as MemoryOutputCache
    expect(cache.keys().map((k) => k.objectId)).toContain(OBJECT_LIST_ID)
    expect(cache.keys().every((k) => k.formatVersion === CACHE_FORMAT_VERSION)).toBe(true)
    const second = await loadRenderableOutput(createLoadRequest(1), context)
    expect(context.server.calls).toHaveLength(1)
    expect(second.fromCache).toBe(true)
    expect(second.output.objects.map((o) => o.objectId)).toEqual(
      first.output.objects.map((o) => o.objectId),
    )
    const x = second.output.objects[0]!.columns[0]!
    expect(columnAt(second.output.objects[0]!.buffer, x)).toEqual(
      readObjectStream(outputs.get(1)!.full.get('fluid-0')!.bytes).columns.x,
    )
  })

  it('transfers a single cached chunk as it is and joins several chunks into a pooled buffer', async () => {
    const single = createContext()
    await (
      await loadRenderableOutput(createLoadRequest(0), single)
    ).cacheWrite
    const fromOne = await loadRenderableOutput(createLoadRequest(0), single)
    expect(fromOne.transfer).toHaveLength(fromOne.output.objects.length)
    expect(single.pool.counts().allocated).toBe(1) // the fetch only

    const chunked = createContext({ cache: new MemoryOutputCache({ chunkBytes: 4096 }) })
    await (
      await loadRenderableOutput(createLoadRequest(0), chunked)
    ).cacheWrite
    const fromChunks = await loadRenderableOutput(createLoadRequest(0), chunked)
    expect(fromChunks.fromCache).toBe(true)
    expect(chunked.pool.counts().allocated).toBeGreaterThan(1)
    const fluid = fromChunks.output.objects.find((o) => o.objectId === 'fluid-0')!
    const pressure = fluid.columns.find((c) => c.name === 'pressure')!
    expect(columnAt(fluid.buffer, pressure)).toEqual(
      readObjectStream(outputs.get(0)!.full.get('fluid-0')!.bytes).columns.pressure,
    )
  })

  it('fetches only the objects the cache lacks', async () => {
    const context = createContext()
    await loadRenderableOutput(createLoadRequest(2, { objectIds: ['fluid-0'] }), context)
    const loaded = await loadRenderableOutput(
      createLoadRequest(2, { objectIds: ['fluid-0', 'wall-1'] }),
      context,
    )
    expect(context.server.calls[1]!.url).toContain('objects=wall-1')
    expect(context.server.calls[1]!.url).not.toContain('fluid-0')
    expect(loaded.fromCache).toBe(false)
    expect(loaded.output.objects.map((o) => o.objectId)).toEqual(['fluid-0', 'wall-1'])
  })

  it('refetches an object whose cached bytes no longer read', async () => {
    const cache = new MemoryOutputCache()
    const context = createContext({ cache })
    await cache.put(
      {
        simulationId: 5,
        runId: 9,
        outputNo: 0,
        objectId: 'fluid-0',
        dataset: 'full',
        formatVersion: CACHE_FORMAT_VERSION,
      },
      new Uint8Array(64),
    )
    const loaded = await loadRenderableOutput(
      createLoadRequest(0, { objectIds: ['fluid-0'] }),
      context,
    )
    expect(context.server.calls).toHaveLength(1)
    expect(loaded.output.objects[0]!.particleCount).toBe(2000)
  })

  it('still loads when the cache is full, and says the output was not cached', async () => {
    const context = createContext({ cache: new MemoryOutputCache({ quotaBytes: 1000 }) })
    const loaded = await loadRenderableOutput(createLoadRequest(1), context)
    expect(loaded.output.objects.length).toBeGreaterThan(0)
    expect(await loaded.cacheWrite).toBe(
      'The output cache is full: output 1 was loaded but not cached.',
    )
  })

  it('still loads when the cache throws a DOMException QuotaExceededError or cannot be read', async () => {
    const broken: OutputCache = {
      get: () => Promise.reject(new Error('IndexedDB is gone')),
      getMany: () => Promise.reject(new Error('IndexedDB is gone')),
      put: () => Promise.reject(new DOMException('full', 'QuotaExceededError')),
      dropStaleRuns: () => Promise.resolve(),
    }
    const loaded = await loadRenderableOutput(
      createLoadRequest(1, { objectIds: ['fluid-0'] }),
      createContext({ cache: broken }),
    )
    expect(loaded.output.objects).toHaveLength(1)
    expect(await loaded.cacheWrite).toContain('cache is full')
  })
})

describe('bad input', () => {
  it('reports a 404 output as not found', async () => {
    const error = await expectLoadError(
      loadRenderableOutput(createLoadRequest(7), createContext()),
      'not_found',
    )
    expect(error.message).toBe('Output 7 was not found on the server.')
    expect(error.outputNo).toBe(7)
  })

  it('reports a truncated bundle', async () => {
    const context = createContext()
    context.server.override = (_, bundle) => bundle.subarray(0, bundle.length - 1000)
    const error = await expectLoadError(
      loadRenderableOutput(createLoadRequest(0), context),
      'truncated',
    )
    expect(error.message).toBe('Output 0 could not be loaded: its data is incomplete (truncated).')
  })

  it('reports a corrupt bundle', async () => {
    const context = createContext()
    context.server.override = (_, bundle) => {
      const broken = bundle.slice()
      broken[0] = 0x58 // not "DIVB"
      return broken
    }
    const error = await expectLoadError(
      loadRenderableOutput(createLoadRequest(0), context),
      'corrupt',
    )
    expect(error.message).toMatch(/^Output 0 could not be loaded: its data is corrupt/)
    context.server.override = (_, bundle) => {
      const broken = bundle.slice()
      broken.fill(0xff, 400, 480) // inside the first payload's framing
      return broken
    }
    await expectLoadError(loadRenderableOutput(createLoadRequest(0), context), 'corrupt')
  })

  it('reports an output written in a newer format version (stream metadata and bundle header)', async () => {
    const context = createContext()
    context.server.override = (_, bundle) => replaceFlatbufferString(bundle, '1.0', '9.0')
    const error = await expectLoadError(
      loadRenderableOutput(createLoadRequest(0), context),
      'unsupported_version',
    )
    expect(error.message).toContain('Output format 9.0 is not supported')
    context.server.override = (_, bundle) => {
      const newer = bundle.slice()
      newer[4] = 2 // major version of the bundle header
      return newer
    }
    await expectLoadError(
      loadRenderableOutput(createLoadRequest(0), context),
      'unsupported_version',
    )
  })

  it('reports a missing position column', async () => {
    const context = createContext()
    context.server.override = (_, bundle) => replaceFlatbufferString(bundle, 'x', 'q')
    const error = await expectLoadError(
      loadRenderableOutput(createLoadRequest(0), context),
      'missing_column',
    )
    expect(error.message).toBe(
      'Output 0 could not be loaded: The particles stream has no "x" column.',
    )
  })

  it('reports an object the output does not have', async () => {
    const error = await expectLoadError(
      loadRenderableOutput(createLoadRequest(0, { objectIds: ['fluid-9'] }), createContext()),
      'missing_object',
    )
    expect(error.message).toBe('Output 0 has no object "fluid-9" in its full data.')
  })

  it('reports server errors, refused access and an unreachable server', async () => {
    const context = createContext()
    context.server.override = () => new Response('oops', { status: 500 })
    await expectLoadError(loadRenderableOutput(createLoadRequest(0), context), 'http')
    context.server.override = () => new Response('no', { status: 403 })
    const forbidden = await expectLoadError(
      loadRenderableOutput(createLoadRequest(0), context),
      'forbidden',
    )
    expect(forbidden.message).toBe('You do not have access to output 0.')
    const offline = createContext({ fetch: () => Promise.reject(new TypeError('fetch failed')) })
    const error = await expectLoadError(
      loadRenderableOutput(createLoadRequest(0), offline),
      'network',
    )
    expect(error.message).toBe('Output 0 could not be loaded: the server could not be reached.')
  })

  it('rejects with an AbortError when cancelled', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await loadRenderableOutput(
      createLoadRequest(0),
      createContext(),
      controller.signal,
    ).catch((e: unknown) => e)
    expect(isAbortError(error)).toBe(true)
  })
})

describe('readResponseBytes', () => {
  it('reads a body of known length into a pooled buffer, reused once released', async () => {
    const pool = new BufferPool()
    const body = new Uint8Array(200_000).map((_, i) => i & 0xff)
    const respond = () => new Response(body, { headers: { 'content-length': String(body.length) } })
    const first = await readResponseBytes(respond(), pool)
    expect(first.length).toBe(body.length)
    expect(first.every((b, i) => b === body[i])).toBe(true)
    expect(first.byteOffset).toBe(0)
    pool.release(first.buffer as ArrayBuffer)
    const second = await readResponseBytes(respond(), pool)
    expect(second.buffer).toBe(first.buffer)
    expect(pool.counts()).toMatchObject({ allocated: 1, reused: 1 })
  })

  it('copes with a body longer than its announced length', async () => {
    const body = new Uint8Array(300_000).fill(7)
    const bytes = await readResponseBytes(
      new Response(body, { headers: { 'content-length': '100000' } }),
      new BufferPool(),
    )
    expect(bytes.length).toBe(300_000)
    expect(bytes.every((b) => b === 7)).toBe(true)
  })
})

describe('cache write failures never lose the load', () => {
  it('does not cache a failed quota put but a later put succeeds', async () => {
    let full = true
    const cache = new MemoryOutputCache()
    const flaky: OutputCache = {
      get: (key) => cache.get(key),
      getMany: (keys) => cache.getMany(keys),
      put: (key, bytes) => (full ? Promise.reject(new CacheQuotaError()) : cache.put(key, bytes)),
      dropStaleRuns: (s, r) => cache.dropStaleRuns(s, r),
    }
    const context = createContext({ cache: flaky })
    expect(await (await loadRenderableOutput(createLoadRequest(0), context)).cacheWrite).toContain(
      'not cached',
    )
    full = false
    expect(await (await loadRenderableOutput(createLoadRequest(0), context)).cacheWrite).toBeNull()
    expect((await loadRenderableOutput(createLoadRequest(0), context)).fromCache).toBe(true)
  })
})
