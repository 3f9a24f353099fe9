import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useSetAtom } from 'jotai'
import { useEffect, useRef } from 'react'
import { POLL_INTERVALS_MS } from '../../../../../domain/constants.ts'
import { isJobActive, type JobState } from '../../../../../domain/jobs.ts'
import type { MeshBody, Sensor, SensorUpdate, VolumeClip } from '../../../../../domain/meshes.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { SensorSampleRate } from '../../../../../domain/sensorSampling.ts'
import { callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'
import { sensorDataVersionAtom } from './explorerAtoms.ts'
import { sampleRateOf } from './sensorDraft.ts'
import {
  meshBodyOf,
  meshDraftOf,
  sensorPositionOf,
  type SensorDraft,
  type VolumeClipDraft,
} from './explorerModel.ts'

/*
 * Server state of the explorer (react-query, keyed by route): sensors, volume clips, their meshes,
 * and the sensor recomputation job.
 */

const paramsOf = (id: number) => ({ params: { id: String(id) } })
/** Sensors and clips of the active run (the one the page shows). */
const ACTIVE_RUN = {}

export function useSensorsQuery(simulation: Simulation) {
  const input = { ...paramsOf(simulation.id), query: ACTIVE_RUN }
  return useQuery({
    queryKey: routeKey('listSensors', input),
    queryFn: ({ signal }) => callApi('listSensors', input, { signal }),
  })
}

export function useVolumeClipsQuery(simulation: Simulation) {
  const input = { ...paramsOf(simulation.id), query: ACTIVE_RUN }
  return useQuery({
    queryKey: routeKey('listVolumeClips', input),
    queryFn: ({ signal }) => callApi('listVolumeClips', input, { signal }),
  })
}

/** After a sensor change: the sensors and the recomputation record refetch. */
function useInvalidateSensorData() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all(
      ['listSensors', 'getSensorRecomputation'].map((name) =>
        queryClient.invalidateQueries({ queryKey: [name] }),
      ),
    )
}

function useInvalidateVolumeClips() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: ['listVolumeClips'] })
}

async function createMesh(simulationId: number, body: MeshBody): Promise<number> {
  const mesh = await callApi('createMesh', { ...paramsOf(simulationId), body })
  return mesh.id
}

async function updateMesh(meshId: number, body: MeshBody): Promise<void> {
  await callApi('updateMesh', { ...paramsOf(meshId), body })
}

/** What the sensor form saves: a point position or a surface mesh, and the sample rate. */
export type SensorSave = (
  | { kind: 'point'; name: string; position: [number, number, number] }
  | { kind: 'surface'; name: string; mesh: MeshBody }
) & { sampleRate: SensorSampleRate }

/** What a filled-in sensor form saves. */
export function sensorSaveOf(draft: SensorDraft): SensorSave {
  const name = draft.name.trim()
  const sampleRate = sampleRateOf(draft)
  return draft.kind === 'point'
    ? { kind: 'point', name, position: sensorPositionOf(draft), sampleRate }
    : { kind: 'surface', name, mesh: meshBodyOf(draft.mesh), sampleRate }
}

/**
 * The surface mesh to update when a sensor is saved: its id when the form changed it, null when
 * not (an unchanged mesh is not sent: a mesh change clears the sensor's samples).
 */
export function changedSensorMeshId(sensor: Sensor, save: SensorSave): number | null {
  if (sensor.kind !== 'surface' || save.kind !== 'surface') return null
  const unchanged =
    JSON.stringify(meshBodyOf(meshDraftOf(sensor.mesh))) === JSON.stringify(save.mesh)
  return unchanged ? null : sensor.mesh.id
}

export function useCreateSensorMutation(simulation: Simulation) {
  const invalidate = useInvalidateSensorData()
  return useMutation({
    mutationFn: async (save: SensorSave) => {
      const body =
        save.kind === 'point'
          ? { kind: 'point' as const, name: save.name, position: save.position }
          : {
              kind: 'surface' as const,
              name: save.name,
              meshId: await createMesh(simulation.id, save.mesh),
            }
      // no rate is the server's default: sent only when the form chose one
      if (save.sampleRate !== null) Object.assign(body, { sampleRate: save.sampleRate })
      return callApi('createSensor', {
        ...paramsOf(simulation.id),
        query: ACTIVE_RUN,
        body,
      })
    },
    onSettled: invalidate,
  })
}

export function useUpdateSensorMutation() {
  const invalidate = useInvalidateSensorData()
  return useMutation({
    /**
     * meshId: the surface mesh to update, null to leave it as it is; previousSampleRate: the
     * sensor's rate before the edit (the rate is sent only when it changed).
     */
    mutationFn: async (input: {
      sensorId: number
      meshId: number | null
      save: SensorSave
      previousSampleRate: SensorSampleRate
    }) => {
      const body: SensorUpdate = { name: input.save.name }
      if (input.save.sampleRate !== input.previousSampleRate)
        body.sampleRate = input.save.sampleRate
      if (input.save.kind === 'point') body.position = input.save.position
      else if (input.meshId !== null) await updateMesh(input.meshId, input.save.mesh)
      return callApi('updateSensor', { ...paramsOf(input.sensorId), body })
    },
    onSettled: invalidate,
  })
}

/**
 * Shows or hides a sensor in the 3D view at once (a view setting: allowed while the simulation
 * runs) and rolls the list back when the server refuses, as volume clips do.
 */
export function useSensorVisibilityMutation(simulation: Simulation) {
  const queryClient = useQueryClient()
  const key = routeKey('listSensors', { ...paramsOf(simulation.id), query: ACTIVE_RUN })
  return useMutation({
    mutationFn: (input: { sensorId: number; visibility: boolean }) =>
      callApi('updateSensor', {
        ...paramsOf(input.sensorId),
        body: { appearance: { visibility: input.visibility } },
      }),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: key })
      const previous = queryClient.getQueryData<Sensor[]>(key)
      queryClient.setQueryData<Sensor[]>(key, (sensors) =>
        sensors?.map((sensor) =>
          sensor.id === input.sensorId
            ? { ...sensor, appearance: { ...sensor.appearance, visibility: input.visibility } }
            : sensor,
        ),
      )
      return { previous }
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  })
}

export function useDeleteSensorMutation() {
  const invalidate = useInvalidateSensorData()
  return useMutation({
    mutationFn: (sensorId: number) => callApi('deleteSensor', paramsOf(sensorId)),
    onSettled: invalidate,
  })
}

/** What the volume clip form saves. */
export interface VolumeClipSave {
  name: string
  mesh: MeshBody
  materialId: number | null
  inverted: boolean
}

/** What a filled-in volume clip form saves. */
export function volumeClipSaveOf(draft: VolumeClipDraft): VolumeClipSave {
  return {
    name: draft.name.trim(),
    mesh: meshBodyOf(draft.mesh),
    materialId: draft.materialId,
    inverted: draft.inverted,
  }
}

export function useCreateVolumeClipMutation(simulation: Simulation) {
  const invalidate = useInvalidateVolumeClips()
  return useMutation({
    mutationFn: async (save: VolumeClipSave) => {
      const meshId = await createMesh(simulation.id, save.mesh)
      return callApi('createVolumeClip', {
        ...paramsOf(simulation.id),
        query: ACTIVE_RUN,
        body: { name: save.name, meshId, materialId: save.materialId, inverted: save.inverted },
      })
    },
    onSettled: invalidate,
  })
}

export function useUpdateVolumeClipMutation(simulation: Simulation) {
  const invalidate = useInvalidateVolumeClips()
  return useMutation({
    mutationFn: async (input: { clip: VolumeClip; save: VolumeClipSave }) => {
      const { name, materialId, inverted, mesh } = input.save
      await updateMesh(input.clip.mesh.id, mesh)
      return callApi('updateVolumeClips', {
        ...paramsOf(simulation.id),
        query: ACTIVE_RUN,
        body: [{ id: input.clip.id, name, materialId, inverted }],
      })
    },
    onSettled: invalidate,
  })
}

/**
 * Shows or hides a clip at once and rolls the list back when the server refuses
 * (spec/setup.md §8: volume clip visibility rolls back on failure).
 */
export function useVolumeClipVisibilityMutation(simulation: Simulation) {
  const queryClient = useQueryClient()
  const key = routeKey('listVolumeClips', {
    ...paramsOf(simulation.id),
    query: ACTIVE_RUN,
  })
  return useMutation({
    mutationFn: (input: { clipId: number; visibility: boolean }) =>
      callApi('updateVolumeClips', {
        ...paramsOf(simulation.id),
        query: ACTIVE_RUN,
        body: [{ id: input.clipId, appearance: { visibility: input.visibility } }],
      }),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: key })
      const previous = queryClient.getQueryData<VolumeClip[]>(key)
      queryClient.setQueryData<VolumeClip[]>(key, (clips) =>
        clips?.map((clip) =>
          clip.id === input.clipId
            ? { ...clip, appearance: { ...clip.appearance, visibility: input.visibility } }
            : clip,
        ),
      )
      return { previous }
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  })
}

export function useDeleteVolumeClipMutation() {
  const invalidate = useInvalidateVolumeClips()
  return useMutation({
    mutationFn: (clipId: number) => callApi('deleteVolumeClip', paramsOf(clipId)),
    onSettled: invalidate,
  })
}

// ── Sensor recomputation ────────────────────────────────────────────────────────────────────────

/** True while the recomputation runs or waits: the button reads 'Stop computation'. */
export function isRecomputationActive(state: JobState | undefined | null): boolean {
  return state !== undefined && state !== null && isJobActive(state)
}

/**
 * The sensor recomputation record, polled every 2 s while scheduled or running (spec §7). When it
 * stops being active, the sensor data is resynced (sensors, outputs and their sensor states).
 */
export function useSensorRecomputationQuery(simulation: Simulation) {
  const input = paramsOf(simulation.id)
  const query = useQuery({
    queryKey: routeKey('getSensorRecomputation', input),
    queryFn: ({ signal }) => callApi('getSensorRecomputation', input, { signal }),
    refetchInterval: (current) =>
      isRecomputationActive(current.state.data?.state)
        ? POLL_INTERVALS_MS.sensorRecomputation
        : false,
  })
  const queryClient = useQueryClient()
  const bumpSensorData = useSetAtom(sensorDataVersionAtom)
  const active = isRecomputationActive(query.data?.state)
  const wasActive = useRef(active)
  useEffect(() => {
    if (wasActive.current && !active) {
      void queryClient.invalidateQueries({ queryKey: ['listSensors'] })
      bumpSensorData((version) => version + 1)
    }
    wasActive.current = active
  }, [active, queryClient, bumpSensorData])
  return query
}

export function useStartSensorRecomputationMutation(simulation: Simulation) {
  const queryClient = useQueryClient()
  const input = paramsOf(simulation.id)
  return useMutation({
    mutationFn: () => callApi('startSensorRecomputation', input),
    onSuccess: (record) =>
      queryClient.setQueryData(routeKey('getSensorRecomputation', input), record),
  })
}

export function useStopSensorRecomputationMutation(simulation: Simulation) {
  const queryClient = useQueryClient()
  const input = paramsOf(simulation.id)
  return useMutation({
    mutationFn: () => callApi('cancelSensorRecomputation', input),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: routeKey('getSensorRecomputation', input) }),
  })
}
