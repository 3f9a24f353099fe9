import { encodeBundleHeader, type WrittenDataset } from '../../domain/outputFormat.ts'
import type { OutputManifestInfo } from '../../domain/rest/resultsRoutes.ts'
import { statObjectPayload, type ObjectPayloadFile } from './outputFiles.ts'

/*
 * A DIVB bundle (docs/output-format.md "Bundle") of some objects of one complete output, laid out
 * to be sent from the object files without concatenating them in memory (bundleBody.ts). Shared by
 * the HTTP bundle route (bundleRoute.ts) and the results session's fetch.data (session/fetchData.ts).
 */

/** A bundle ready to stream: its header, its files and where each file starts. */
export interface PreparedBundle {
  header: Uint8Array
  files: ObjectPayloadFile[]
  offsets: number[]
  totalByteLength: number
}

/** Why some requested objects cannot be bundled. */
export interface BundleProblems {
  /** Ids the manifest does not list. */
  unknownObjectIds: string[]
  /** Ids the manifest lists whose payload file of the dataset is missing. */
  missingFileObjectIds: string[]
}

/**
 * Stats the payload files of `objectIds` (every object of the manifest when empty) in `dataset`
 * and lays out the bundle header. Objects that are unknown or have no file are left out and named
 * in `problems`; `bundle` is null when none is left.
 */
export async function prepareOutputBundle(
  dataDir: string,
  location: { simulationId: number; runId: number; outputNo: number },
  manifest: OutputManifestInfo,
  objectIds: readonly string[],
  dataset: WrittenDataset,
): Promise<{ bundle: PreparedBundle | null; problems: BundleProblems }> {
  const known = new Map(manifest.objects.map((object) => [object.objectId, object]))
  const wanted = objectIds.length > 0 ? [...new Set(objectIds)] : [...known.keys()]
  const problems: BundleProblems = { unknownObjectIds: [], missingFileObjectIds: [] }
  const files: ObjectPayloadFile[] = []
  for (const objectId of wanted) {
    if (!known.has(objectId)) {
      problems.unknownObjectIds.push(objectId)
      continue
    }
    const file = await statObjectPayload(dataDir, location, objectId, dataset)
    if (file) files.push(file)
    else problems.missingFileObjectIds.push(objectId)
  }
  if (files.length === 0) return { bundle: null, problems }
  const layout = encodeBundleHeader(
    files.map((file) => ({
      objectId: file.objectId,
      kind: known.get(file.objectId)?.kind ?? 'fluid',
      dataset,
      outputNo: location.outputNo,
      byteLength: file.sizeBytes,
    })),
  )
  return {
    bundle: {
      header: layout.header,
      files,
      offsets: layout.entries.map((entry) => entry.byteOffset),
      totalByteLength: layout.totalByteLength,
    },
    problems,
  }
}
