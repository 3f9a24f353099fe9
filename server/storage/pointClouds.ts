import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { encodePointCloudFile } from '../../domain/pointCloudFile.ts'
import { resolveStoredPath, writeStoredFile } from './files.ts'

/*
 * The point clouds of a discretization (domain/pointCloudFile.ts DPCL, one file per part with
 * particles) under discretizations/{simulationId}/{jobId}/part-{partId}.dpcl in the data
 * directory. Each file is written under a temporary name and renamed; once a newer discretization
 * of the simulation succeeds, the directories of the older ones go.
 */

/** The particles of one part of a discretization, as the DPCL bytes that are stored and served. */
export interface PartPointCloud {
  partId: number
  count: number
  /** DPCL bytes (header + Float32 xyz). */
  bytes: Uint8Array
}

/** The directory of a simulation's discretizations, relative to the data directory. */
export function discretizationsDirectory(simulationId: number): string {
  return join('discretizations', String(simulationId))
}

/** Where a part's point cloud of discretization job `jobId` is kept, relative to the data directory. */
export function pointCloudStoredPath(simulationId: number, jobId: number, partId: number): string {
  return join(discretizationsDirectory(simulationId), String(jobId), `part-${partId}.dpcl`)
}

/**
 * The DPCL bytes of every part with particles: positions xyz (3 per particle, any numeric array)
 * grouped by `partIds`, in particle order. Parts come in order of their first particle.
 */
export function encodePartPointClouds(
  positions: ArrayLike<number>,
  partIds: ArrayLike<number>,
): PartPointCloud[] {
  const counts = new Map<number, number>()
  for (let i = 0; i < partIds.length; i++)
    counts.set(partIds[i]!, (counts.get(partIds[i]!) ?? 0) + 1)
  // Float32 already: the file holds Float32, so nothing is lost and half the memory is held.
  const buffers = new Map<number, { xyz: Float32Array; filled: number }>()
  for (const [partId, count] of counts)
    buffers.set(partId, { xyz: new Float32Array(count * 3), filled: 0 })
  for (let i = 0; i < partIds.length; i++) {
    const target = buffers.get(partIds[i]!)!
    target.xyz[target.filled++] = positions[3 * i]!
    target.xyz[target.filled++] = positions[3 * i + 1]!
    target.xyz[target.filled++] = positions[3 * i + 2]!
  }
  return [...buffers].map(([partId, { xyz }]) => ({
    partId,
    count: xyz.length / 3,
    bytes: encodePointCloudFile(xyz),
  }))
}

/** Writes the point clouds of discretization `jobId` (each file atomically). */
export async function writePointClouds(
  dataDir: string,
  simulationId: number,
  jobId: number,
  clouds: readonly PartPointCloud[],
): Promise<void> {
  for (const cloud of clouds)
    await writeStoredFile(
      dataDir,
      pointCloudStoredPath(simulationId, jobId, cloud.partId),
      cloud.bytes,
    )
}

/** Removes the point clouds of every discretization of a simulation except `keepJobId`'s. */
export async function removeOtherPointClouds(
  dataDir: string,
  simulationId: number,
  keepJobId: number | null,
): Promise<void> {
  const directory = resolveStoredPath(dataDir, discretizationsDirectory(simulationId))
  let entries: string[]
  try {
    entries = await readdir(directory)
  } catch {
    return
  }
  for (const entry of entries)
    if (entry !== String(keepJobId))
      await rm(join(directory, entry), { recursive: true, force: true })
}

/** Removes the point clouds of one discretization (a failed or canceled one). */
export async function removeJobPointClouds(
  dataDir: string,
  simulationId: number,
  jobId: number,
): Promise<void> {
  const directory = join(discretizationsDirectory(simulationId), String(jobId))
  await rm(resolveStoredPath(dataDir, directory), { recursive: true, force: true })
}

/** Removes a deleted part's point clouds from every discretization of its simulation. */
export async function removePartPointClouds(
  dataDir: string,
  simulationId: number,
  partId: number,
): Promise<void> {
  const directory = resolveStoredPath(dataDir, discretizationsDirectory(simulationId))
  let entries: string[]
  try {
    entries = await readdir(directory)
  } catch {
    return
  }
  for (const entry of entries)
    await rm(join(directory, entry, `part-${partId}.dpcl`), { force: true })
}

/** Removes every point cloud of a simulation (the simulation was deleted). */
export async function removeSimulationPointClouds(
  dataDir: string,
  simulationId: number,
): Promise<void> {
  await rm(resolveStoredPath(dataDir, discretizationsDirectory(simulationId)), {
    recursive: true,
    force: true,
  })
}
