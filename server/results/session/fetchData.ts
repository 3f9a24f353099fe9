import { join } from 'node:path'
import { ClipMaskError, computeClipMask } from '../../../domain/clipMask.ts'
import type { VolumeClip } from '../../../domain/meshes.ts'
import { objectFile } from '../../../domain/output/layout.ts'
import { readObjectStream } from '../../../domain/output/reader.ts'
import { writeObjectStream } from '../../../domain/output/objectStream.ts'
import {
  ATTRIBUTE_COLUMNS,
  MASK_COLUMN,
  POSITION_COLUMNS,
  WRITTEN_DATASETS,
  type WrittenDataset,
} from '../../../domain/outputFormat.ts'
import { isAttributeName, type Dataset } from '../../../domain/results.ts'
import type { DataRequestItem, ResultsServerFrame } from '../../../domain/resultsProtocol.ts'
import type { OutputManifestInfo } from '../../../domain/rest/resultsRoutes.ts'
import { pumpBundlePieces } from '../bundleBody.ts'
import { prepareOutputBundle } from '../bundleStream.ts'
import { readOutputManifest } from '../outputFiles.ts'
import { BufferPool, readFilePooled } from '../statistics/outputReader.ts'
import type { FrameSender } from './FrameSender.ts'
import {
  findClipMask,
  findManifestObject,
  numericObjectId,
  type ClipMaskTarget,
  type ManifestObjectInfo,
} from './outputObjects.ts'

/*
 * fetch.data with bundle true: per output, one fetch.data.bundle per dataset asked for (a DIVB
 * bundle of the requested objects' files, streamed from disk as fragments of one websocket message,
 * the same bytes GET …/bundle sends, read the same way: bundleBody.ts's pieces, each written
 * without a copy and reused once the socket wrote it), then one fetch.data.mask per requested volume clip mask (an
 * Arrow mask stream, one byte per row of the fluid in that dataset, computed from the clip's mesh),
 * and the missing_* / masking_error frames the client logs. The object files hold every column,
 * so `attributes` and `geometry` select nothing out of them: an attribute the object lacks is
 * reported as missing_attribute. `raw` is served from the `full` bytes; `surface` and `static`
 * are not written yet (missing_object).
 */

/** What one fetch.data request needs. */
export interface FetchDataContext {
  dataDir: string
  simulationId: number
  runId: number | null
  clips: readonly VolumeClip[]
  signal: AbortSignal
  sender: FrameSender
  pool: BufferPool
}

/** The request fields fetch.data uses. */
export interface FetchDataRequest {
  requestId: number
  outputs: readonly number[]
  requests: readonly DataRequestItem[]
}

function writtenDataset(dataset: Dataset): WrittenDataset | null {
  if (dataset === 'raw') return 'full'
  return (WRITTEN_DATASETS as readonly string[]).includes(dataset)
    ? (dataset as WrittenDataset)
    : null
}

function hasAttribute(object: ManifestObjectInfo, attribute: string): boolean {
  if (!isAttributeName(attribute)) return false
  const columns = new Set<string>([...POSITION_COLUMNS, ...object.columns])
  return ATTRIBUTE_COLUMNS[attribute].every((column) => columns.has(column))
}

async function sendMask(
  request: FetchDataRequest,
  manifest: OutputManifestInfo,
  target: ClipMaskTarget,
  dataset: WrittenDataset,
  context: FetchDataContext,
): Promise<void> {
  const { requestId } = request
  const outputNo = manifest.outputNo
  const path = join(
    context.dataDir,
    objectFile(context.simulationId, manifest.runId, outputNo, target.fluid.objectId, dataset),
  )
  let inside: Uint8Array
  let insideCount: number
  let fullParticleCount: number
  const file = await readFilePooled(path, context.pool)
  try {
    const view = readObjectStream(file.bytes)
    inside = new Uint8Array(view.rowCount)
    fullParticleCount = view.meta.fullParticleCount
    const { x, y, z } = view.columns
    insideCount = computeClipMask(target.clip.mesh, target.clip.inverted, x!, y!, z!, inside)
  } catch (error) {
    if (!(error instanceof ClipMaskError)) throw error
    await context.sender.sendJson({
      type: 'fetch.data.masking_error',
      requestId,
      outputNo,
      maskId: target.maskId,
      message: error.message,
    })
    return
  } finally {
    file.release()
  }
  const payload = writeObjectStream(
    { [MASK_COLUMN]: inside },
    {
      simulationId: context.simulationId,
      runId: manifest.runId,
      outputNo,
      timeS: manifest.timeS,
      objectId: `clip-${target.clip.id}-${target.fluid.objectId}`,
      objectKind: 'volume_clip',
      materialId: target.fluid.sourceId,
      dataset,
      fullParticleCount,
      targetObjectId: target.fluid.objectId,
    },
    { order: 'presorted' },
  )
  await context.sender.sendBinary(
    {
      type: 'fetch.data.mask',
      requestId,
      outputNo,
      maskId: target.maskId,
      objId: numericObjectId(target.fluid),
      insideCount,
      byteLength: payload.byteLength,
    },
    [payload],
  )
}

async function sendOutput(
  request: FetchDataRequest,
  outputNo: number,
  context: FetchDataContext,
): Promise<void> {
  const { requestId } = request
  const send = (frame: ResultsServerFrame) => context.sender.sendJson(frame)
  const manifest =
    context.runId === null
      ? null
      : await readOutputManifest(context.dataDir, context.simulationId, context.runId, outputNo)
  if (!manifest) {
    await send({ type: 'fetch.data.missing_output', requestId, outputNo })
    return
  }
  const byDataset = new Map<WrittenDataset, Map<string, number>>()
  const masks: { maskId: number; dataset: WrittenDataset | null }[] = []
  for (const item of request.requests) {
    const dataset = writtenDataset(item.dataset)
    // No ids: every object of the output, as the HTTP bundle route sends them.
    const objIds =
      item.objIds.length > 0 ? item.objIds : manifest.objects.map((o) => numericObjectId(o))
    for (const objId of objIds) {
      const object = findManifestObject(manifest, objId)
      if (!object || dataset === null) {
        await send({ type: 'fetch.data.missing_object', requestId, outputNo, objId })
        continue
      }
      for (const attribute of item.attributes)
        if (!hasAttribute(object, attribute))
          await send({
            type: 'fetch.data.missing_attribute',
            requestId,
            outputNo,
            objId,
            attribute,
          })
      const group = byDataset.get(dataset) ?? new Map<string, number>()
      group.set(object.objectId, objId)
      byDataset.set(dataset, group)
    }
    for (const maskId of item.masks) masks.push({ maskId, dataset })
  }
  for (const [dataset, group] of byDataset) {
    if (context.signal.aborted) return
    const location = { simulationId: context.simulationId, runId: manifest.runId, outputNo }
    const { bundle, problems } = await prepareOutputBundle(
      context.dataDir,
      location,
      manifest,
      [...group.keys()],
      dataset,
    )
    for (const objectId of [...problems.unknownObjectIds, ...problems.missingFileObjectIds])
      await send({
        type: 'fetch.data.missing_object',
        requestId,
        outputNo,
        objId: group.get(objectId) ?? -1,
      })
    if (!bundle) continue
    await context.sender.sendBinaryPieces(
      {
        type: 'fetch.data.bundle',
        requestId,
        outputNo,
        dataset,
        objIds: bundle.files.map((file) => group.get(file.objectId) ?? -1),
        byteLength: bundle.totalByteLength,
      },
      (sink, signal) => pumpBundlePieces(bundle, sink, signal),
    )
  }
  for (const { maskId, dataset } of masks) {
    if (context.signal.aborted) return
    const target = findClipMask(manifest, context.clips, maskId)
    if (!target || dataset === null) {
      await send({ type: 'fetch.data.missing_mask', requestId, outputNo, maskId })
      continue
    }
    await sendMask(request, manifest, target, dataset, context)
  }
}

/**
 * Serves one fetch.data request, output by output in the requested order, then fetch.data.done.
 * A cancel (the signal) takes effect between messages: a bundle already started is finished so
 * the socket's framing stays intact; a closed socket stops everything at once.
 */
export async function runFetchData(
  request: FetchDataRequest,
  context: FetchDataContext,
): Promise<void> {
  for (const outputNo of request.outputs) {
    if (context.signal.aborted) break
    await sendOutput(request, outputNo, context)
  }
  await context.sender.sendJson({ type: 'fetch.data.done', requestId: request.requestId })
}
