import { expect, test, type Page } from '@playwright/test'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'
import { waitForDrawn } from './support/viewPixels.ts'

/*
 * The output cache in the real app: the data workers keep the payloads they load in OPFS files
 * (engine/cache/payloadFiles.ts) named by records in IndexedDB, and a reload shows the output from
 * those files (the records' last use moves on, their files stay the same: nothing was written again).
 */

let demo: ResultsDemo

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
})

interface CacheState {
  /** Each record's file (null: its bytes are in IndexedDB) and last use. */
  records: { id: string; fileName: string | null; sizeBytes: number; lastUsedMs: number }[]
  /** The payload files in OPFS, with their sizes. */
  files: Record<string, number>
}

/** The cache's records (IndexedDB `dive-output-cache`) and files (OPFS `dive-output-cache`). */
function readCache(page: Page): Promise<CacheState> {
  return page.evaluate(async () => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dive-output-cache')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error ?? new Error('open failed'))
    })
    const records = await new Promise<CacheState['records']>((resolve, reject) => {
      if (!database.objectStoreNames.contains('entries')) return resolve([])
      const request = database.transaction('entries').objectStore('entries').getAll()
      request.onsuccess = () => resolve(request.result as CacheState['records'])
      request.onerror = () => reject(request.error ?? new Error('read failed'))
    })
    database.close()
    const files: Record<string, number> = {}
    const root = await navigator.storage.getDirectory()
    const directory = await root.getDirectoryHandle('dive-output-cache').catch(() => null)
    if (directory !== null) {
      const handles = directory as unknown as AsyncIterable<[string, FileSystemHandle]>
      for await (const [name, handle] of handles)
        if (handle.kind === 'file')
          files[name] = (await (handle as FileSystemFileHandle).getFile()).size
    }
    return { records, files }
  })
}

/** The cache once it stopped changing for a second (the loads around the shown output are done). */
async function settledCache(page: Page): Promise<CacheState> {
  let previous = JSON.stringify(await readCache(page))
  for (let attempt = 0; attempt < 30; attempt++) {
    await page.waitForTimeout(1000)
    const next = await readCache(page)
    if (JSON.stringify(next) === previous) return next
    previous = JSON.stringify(next)
  }
  throw new Error('The output cache kept changing for 30 s.')
}

test('payloads shown are cached in OPFS files and a reload reads them from there', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await openResults(page, demo)
  await waitForDrawn(page)
  // The writes run after the frame.
  await expect
    .poll(async () => (await readCache(page)).records.length, { timeout: 30_000 })
    .toBeGreaterThan(0)
  const written = await settledCache(page)
  for (const record of written.records) {
    expect(record.fileName, record.id).not.toBeNull()
    expect(written.files[record.fileName!], record.id).toBe(record.sizeBytes)
  }
  expect(Object.keys(written.files)).toHaveLength(written.records.length)

  await page.reload()
  await waitForDrawn(page)
  // Read from the cache: a record keeps its file (a load from the server would write a new one) and
  // its last use moves on (a read's use is written within a second).
  const readAgain = (state: CacheState) =>
    written.records.filter((before) =>
      state.records.some(
        (after) =>
          after.id === before.id &&
          after.fileName === before.fileName &&
          after.lastUsedMs > before.lastUsedMs,
      ),
    ).length
  await expect
    .poll(async () => readAgain(await readCache(page)), { timeout: 15_000 })
    .toBeGreaterThan(0)
})
