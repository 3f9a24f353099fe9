import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { defaultExportRequest } from '../../domain/results/userExport.ts'
import type { SimulationRow } from '../db/schema.ts'
import { runExportWork } from '../exports/exportWork.ts'
import { listOutputManifests, resolveRunId } from '../results/outputFiles.ts'

/** The .pvd a VM's ParaView opens (in its /data). */
export const VM_PVD_NAME = 'simulation.pvd'

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * Writes the simulation's outputs for a VM into `directory`: every object of every output as VTU
 * (the user export's writer, all attributes) and one ParaView collection (.pvd) that lists them as
 * a time series, one part per object. Answers the .pvd's name, or null when there are no outputs.
 */
export async function writeVmOutputs(
  dataDir: string,
  simulation: SimulationRow,
  directory: string,
): Promise<string | null> {
  const runId = await resolveRunId(dataDir, simulation)
  if (runId === null) return null
  const manifests = await listOutputManifests(dataDir, simulation.id, runId)
  if (manifests.length === 0) return null
  const last = manifests[manifests.length - 1]!.outputNo
  const request = {
    ...defaultExportRequest(simulation.id, last),
    allObjects: true,
    allAttributes: true,
    outputMode: 'range' as const,
    outputsRange: [manifests[0]!.outputNo, last] as [number, number],
    stepSize: 1,
  }
  const files: string[] = []
  await runExportWork({
    dataDir,
    simulation,
    runId,
    manifests,
    request,
    sensors: [],
    directory,
    signal: new AbortController().signal,
    onProgress: () => Promise.resolve(),
    onFile: (file) => {
      files.push(file.filename)
      return Promise.resolve()
    },
  })
  const timeOf = new Map(manifests.map((m) => [m.outputNo, m.timeS]))
  const parts = new Map<string, number>()
  const entries: string[] = []
  for (const file of files) {
    const match = /^(.*)_(\d+)\.vtu$/.exec(file)
    if (!match) continue
    const [, base, number] = match as unknown as [string, string, string]
    const time = timeOf.get(Number(number))
    if (time === undefined) continue
    if (!parts.has(base)) parts.set(base, parts.size)
    entries.push(
      `    <DataSet timestep="${time}" part="${parts.get(base)}" name="${escapeXml(base)}" file="${escapeXml(file)}"/>`,
    )
  }
  if (entries.length === 0) return null
  const pvd = [
    '<?xml version="1.0"?>',
    '<VTKFile type="Collection" version="0.1" byte_order="LittleEndian">',
    '  <Collection>',
    ...entries,
    '  </Collection>',
    '</VTKFile>',
    '',
  ].join('\n')
  await writeFile(join(directory, VM_PVD_NAME), pvd)
  return VM_PVD_NAME
}
