/**
 * The Setup view with one 1M-triangle STL part: the product's Viewport (real engine, render and
 * data workers) loads the part's mesh the way the Setup page does (a data worker fetches the DMSH
 * the server stores for an STL upload, builds normals, mesh-health edges and the picking BVH, and
 * transfers it to the render worker), then the camera is orbited with pointer drags on the canvas.
 * Figures: main-thread long tasks while loading and while orbiting (target 0), the time to
 * 'Successfully initialized.', the render worker's frame time while orbiting (one snapshot per
 * frame), and hover latency: from a pointermove over the part to the snapshot reporting it
 * hovered, in main-thread frames (target ≤ 1) and ms, with the GPU idle and right after the
 * pointer left the part (its un-highlight frame still drawing).
 */
import { performance } from 'node:perf_hooks'
import type { Page } from 'playwright-core'
import { decodeMeshFile, encodeMeshFile } from '../../domain/meshFile.ts'
import { buildSetupMesh } from '../../engine/data/setupGeometry.ts'
import { encodeBinaryStl, parseStl } from '../../solver/geometry/stl.ts'
import { computeMedian, judgeRatio } from '../lib/measure.ts'
import { buildSphereMesh } from '../lib/sphereMesh.ts'
import { formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { disposeHarness, useHarness } from './harness.ts'
import type { LongTaskRecord } from './page/api.ts'
import type { SetupViewportPageApi } from './page/setupViewportApi.ts'

const VIEW_SIZE = { width: 1000, height: 600 }
/** One frame at 60 Hz, ms. */
const FRAME_MS = 1000 / 60

function pageApi(page: Page) {
  const call = <K extends keyof SetupViewportPageApi>(
    name: K,
    ...args: Parameters<SetupViewportPageApi[K]>
  ) =>
    page.evaluate(
      ([name, args]) =>
        (
          (globalThis as unknown as { diveBench: Record<string, (...a: unknown[]) => unknown> })
            .diveBench[name] as (...a: unknown[]) => unknown
        )(...args),
      [name, args] as const,
    ) as Promise<Awaited<ReturnType<SetupViewportPageApi[K]>>>
  return call
}

function reportLongTasks(context: BenchContext, name: string, tasks: LongTaskRecord[]): void {
  if (tasks.length > 0)
    context.log(
      `${name}: ${tasks.length} long tasks, longest ${Math.max(...tasks.map((t) => t.durationMs)).toFixed(0)} ms`,
    )
  context.report({
    case: name,
    value: tasks.length,
    unit: 'count',
    ratio: null,
    target: '== 0 long tasks',
    ok: tasks.length === 0,
  })
}

/** The DMSH the server stores for an STL upload of a sphere of `triangles` triangles. */
function storedStlPart(triangles: number): Uint8Array {
  const stl = encodeBinaryStl(buildSphereMesh(triangles))
  return encodeMeshFile(parseStl(stl, 'm'))
}

async function runSetupViewport(context: BenchContext): Promise<void> {
  const triangles = context.quick ? 100_000 : 1_000_000
  const orbitMs = context.quick ? 2_000 : 6_000
  const label = formatCount(triangles)
  const dmsh = storedStlPart(triangles)
  const stored = decodeMeshFile(dmsh)
  const count = stored.indices.length / 3
  if (count < triangles) throw new Error(`The part has ${count} triangles, not ${triangles}.`)
  // The denominator: what the data worker computes for it, here in Node (same machine, same run).
  const buildStartMs = performance.now()
  buildSetupMesh(decodeMeshFile(dmsh))
  const nodeBuildMs = performance.now() - buildStartMs
  context.log(
    `part: ${count} triangles, ${(dmsh.byteLength / 1e6).toFixed(1)} MB DMSH; decode + buildSetupMesh in Node ${nodeBuildMs.toFixed(0)} ms`,
  )
  const harness = await useHarness(context.log)
  const meshUrl = harness.writeStaticFile(`setup/sphere-${label}.dmsh`, dmsh)
  const { context: browserContext, page } = await harness.openBenchPage('setupViewport')
  try {
    await page.setViewportSize({ width: VIEW_SIZE.width + 40, height: VIEW_SIZE.height + 40 })
    const call = pageApi(page)
    await call('mount', VIEW_SIZE)
    await call('takeLongTasks')

    const loaded = await call('loadPart', { meshUrl, hash: label, timeoutMs: 180_000 })
    if (loaded.loadMs < 0)
      throw new Error(`The part was not initialised in time (${loaded.message ?? 'no message'}).`)
    context.log(
      `'${loaded.message}' after ${loaded.loadMs.toFixed(0)} ms, ${loaded.trianglesDrawn} triangles drawn`,
    )
    // Long-task entries reach the observer a little after the task.
    await page.waitForTimeout(500)
    reportLongTasks(context, `browser/longTasks.setupLoad.${label}`, await call('takeLongTasks'))
    context.report({
      case: `browser/setupViewport.load.${label}`,
      value: loaded.loadMs,
      unit: 'ms',
      ...judgeRatio(loaded.loadMs, nodeBuildMs, null, 'decode + buildSetupMesh in Node'),
    })

    // Orbit: drag round a circle on the canvas, one move per frame.
    const box = await call('canvasBox')
    const centre = { x: box.left + box.width / 2, y: box.top + box.height / 2 }
    await call('startWatch')
    await page.mouse.move(centre.x, centre.y)
    await page.mouse.down()
    const startMs = performance.now()
    let step = 0
    while (performance.now() - startMs < orbitMs) {
      const angle = (step++ * Math.PI) / 60
      await page.mouse.move(centre.x + 150 * Math.cos(angle) - 150, centre.y + 80 * Math.sin(angle))
      await page.waitForTimeout(FRAME_MS)
    }
    await page.mouse.up()
    await page.waitForTimeout(500)
    const watch = await call('stopWatch')
    context.log(
      `orbit: ${step} pointer moves in ${(orbitMs / 1000).toFixed(0)} s, ${watch.snapshots} snapshots, render worker up to ${watch.maxFps} fps, at least ${watch.minTrianglesDrawn} triangles drawn`,
    )
    reportLongTasks(context, `browser/longTasks.setupOrbit.${label}`, await call('takeLongTasks'))
    context.report({
      case: `browser/setupViewport.orbit.frameMs.${label}`,
      value: orbitMs / Math.max(1, watch.snapshots),
      unit: 'ms',
      ...judgeRatio(orbitMs / Math.max(1, watch.snapshots), FRAME_MS, null, 'one 60 fps frame'),
    })

    // Hover: the part fills the middle of the view once it is framed; the corner is empty. Once
    // with the GPU idle (the pointer left the part 2 s before), once 60 ms after it left (the
    // frame taking its highlight off is still being drawn).
    const frameMs = watch.snapshots > 0 ? orbitMs / watch.snapshots : Number.NaN
    for (const [phase, settleMs] of [
      ['idle', 2000],
      ['afterLeave', 60],
    ] as const) {
      const samples = await call('hover', {
        over: { x: box.width / 2, y: box.height / 2 },
        away: { x: 4, y: 4 },
        repeats: context.quick ? 3 : 8,
        timeoutMs: 10_000,
        settleMs,
      })
      const missed = samples.filter((sample) => sample.ms < 0).length
      if (missed > 0) throw new Error(`${missed} of ${samples.length} hovers were never reported.`)
      const frames = computeMedian(samples.map((sample) => sample.frames))
      const ms = computeMedian(samples.map((sample) => sample.ms))
      context.log(
        `hover ${phase}: ${samples.map((sample) => `${sample.ms.toFixed(0)} ms/${sample.frames}`).join(', ')} (ms/main-thread frames)`,
      )
      context.report({
        case: `browser/setupViewport.hover.${phase}.frames.${label}`,
        value: frames,
        unit: 'frames',
        ...judgeRatio(frames, 1, 1, 'one frame'),
      })
      context.report({
        case: `browser/setupViewport.hover.${phase}.ms.${label}`,
        value: ms,
        unit: 'ms',
        ...judgeRatio(ms, frameMs, null, 'one render-worker frame while orbiting'),
      })
    }
  } finally {
    await browserContext.close()
  }
}

export const cases: BenchCase[] = [
  {
    name: 'browser/setupViewport',
    description:
      "Setup view with a 1M-triangle STL part loaded through the data workers, orbited by pointer drags: main-thread long tasks while loading and orbiting (== 0), time to 'Successfully initialized.' (reports, vs decode + buildSetupMesh in Node), render-worker frame time while orbiting (reports), hover latency pointermove to snapshot in frames (<= 1) and ms, GPU idle and 60 ms after leaving the part (reports, vs the frame time).",
    run: runSetupViewport,
  },
]

export const disposeBench = disposeHarness
