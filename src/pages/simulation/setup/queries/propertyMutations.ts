import * as v from 'valibot'
import type { Material, MaterialUpdate } from '../../../../../domain/materials.ts'
import type { Part, PartUpdate } from '../../../../../domain/parts.ts'
import {
  UploadSchema,
  type CalcDomain,
  type SettingsResult,
  type Upload,
} from '../../../../../domain/rest/setupRoutes.ts'
import type { SimulationSettingsPatch } from '../../../../../domain/settings.ts'
import { SETUP_MESSAGES } from '../../../../../domain/setupMessages.ts'
import type { LooseVec3 } from '../../../../../domain/vector.ts'
import { ApiError, UNEXPECTED_RESPONSE_MESSAGE } from '../../../../api/ApiError.ts'
import { api, callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'
import { applyPartUpdate } from './partMutations.ts'
import { paramsOf } from './setupQueries.ts'
import { useSetupMutation } from './useSetupMutation.ts'

/*
 * Edits of the property forms: materials, settings (physics included), the calculation domain
 * ('Deletion Boundary'), per-part changes of a multi-selection and the acceleration file. Each goes
 * through useSetupMutation: shown at once, rolled back with the spec's failure toast on refusal.
 */

const settingsKey = (simulationId: number) => routeKey('getSettings', paramsOf(simulationId))
const materialsKey = (simulationId: number) => routeKey('listMaterials', paramsOf(simulationId))
const calcDomainKey = (simulationId: number) => routeKey('getCalcDomain', paramsOf(simulationId))
const partsKey = (simulationId: number) => routeKey('listParts', paramsOf(simulationId))

/** A settings change touches the materials and parts (multiphase) and the deletion boundary. */
const AFTER_SETTINGS_EDIT = ['getSettings', 'getCalcDomain', 'listMaterials', 'listParts'] as const

/** A material with an update applied (a new id: the defaults the server would give it). */
export function applyMaterialUpdate(material: Material, update: MaterialUpdate): Material {
  const next: Material = { ...material }
  for (const [key, value] of Object.entries(update))
    if (value !== undefined) Object.assign(next, { [key]: value })
  return next
}

/**
 * PUT /simulations/{id}/settings ('Updating settings failed'), shown at once. The reply's
 * `adjustments` (multiphase, surface tension) go to `onAdjusted` for the 'Advanced Settings Were
 * Adjusted' dialog.
 */
export function useUpdateSettingsMutation(
  simulationId: number,
  options: { onAdjusted?: (adjustments: readonly string[]) => void } = {},
) {
  return useSetupMutation({
    mutationFn: (patch: SimulationSettingsPatch) =>
      callApi('updateSettings', { ...paramsOf(simulationId), body: patch }),
    failure: { action: 'update', entity: 'settings' },
    optimistic: [
      {
        queryKey: settingsKey(simulationId),
        update: (cached: SettingsResult, patch: SimulationSettingsPatch) => ({
          ...cached,
          settings: { ...cached.settings, ...patch },
          adjustments: [],
        }),
      },
    ],
    invalidate: AFTER_SETTINGS_EDIT,
    onSuccess: (result) => {
      if (result.adjustments.length > 0) options.onAdjusted?.(result.adjustments)
    },
  })
}

/** What a material edit sends: the material id and the changed properties. */
export interface MaterialEdit {
  materialId: number
  update: MaterialUpdate
}

/** PUT /simulations/{id}/materials/{materialId} on an existing material ('Updating material failed'). */
export function useUpdateMaterialMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: ({ materialId, update }: MaterialEdit) =>
      callApi('updateMaterial', {
        params: { id: String(simulationId), materialId: String(materialId) },
        body: update,
      }),
    failure: { action: 'update', entity: 'material' },
    optimistic: [
      {
        queryKey: materialsKey(simulationId),
        update: (materials: Material[], { materialId, update }: MaterialEdit) =>
          materials.map((m) => (m.id === materialId ? applyMaterialUpdate(m, update) : m)),
      },
    ],
    invalidate: ['listMaterials', 'getSettings'],
  })
}

/** PUT with a new material id: adds a fluid with the water-like defaults ('Adding material failed'). */
export function useAddMaterialMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: ({ materialId, update }: MaterialEdit) =>
      callApi('updateMaterial', {
        params: { id: String(simulationId), materialId: String(materialId) },
        body: update,
      }),
    failure: { action: 'add', entity: 'material' },
    invalidate: ['listMaterials', 'getSettings'],
  })
}

/** DELETE /simulations/{id}/materials/{materialId} (id 2 or above; 'Deleting material failed'). */
export function useDeleteMaterialMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (materialId: number) =>
      callApi('deleteMaterial', {
        params: { id: String(simulationId), materialId: String(materialId) },
      }),
    failure: { action: 'delete', entity: 'material' },
    optimistic: [
      {
        queryKey: materialsKey(simulationId),
        update: (materials: Material[], materialId: number) =>
          materials.filter((m) => m.id !== materialId),
      },
    ],
    // Parts that used the material are left without one.
    invalidate: ['listMaterials', 'listParts', 'getSettings'],
  })
}

/** What the deletion boundary form changes. */
export interface CalcDomainEdit {
  active?: boolean
  min?: LooseVec3
  max?: LooseVec3
}

/** PUT /simulations/{id}/calc_domain ('Updating deletion boundary failed'), shown at once. */
export function useUpdateCalcDomainMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (edit: CalcDomainEdit) =>
      callApi('updateCalcDomain', { ...paramsOf(simulationId), body: edit }),
    failure: { action: 'update', entity: 'calcDomain' },
    optimistic: [
      {
        queryKey: calcDomainKey(simulationId),
        update: (cached: CalcDomain, edit: CalcDomainEdit) => ({
          ...cached,
          active: edit.active ?? true,
          min: edit.min ?? cached.min,
          max: edit.max ?? cached.max,
        }),
      },
    ],
    invalidate: ['getCalcDomain', 'getSettings'],
  })
}

/** DELETE /simulations/{id}/calc_domain ('Deleting deletion boundary failed'). */
export function useDeleteCalcDomainMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: () => callApi('deleteCalcDomain', paramsOf(simulationId)),
    failure: { action: 'delete', entity: 'calcDomain' },
    optimistic: [
      {
        queryKey: calcDomainKey(simulationId),
        update: (cached: CalcDomain) => ({ ...cached, active: false }),
      },
    ],
    invalidate: ['getCalcDomain', 'getSettings'],
  })
}

/** One part's own change within a multi-selection. */
export interface PartEdit {
  partId: number
  update: PartUpdate
}

/**
 * PUT /simulations/{id}/parts with a change of each part's own (a vector component set on parts
 * whose other components differ, a field of parts of different component types): all or nothing.
 */
export function useUpdateEachPartMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (edits: readonly PartEdit[]) =>
      callApi('updateParts', {
        ...paramsOf(simulationId),
        body: edits.map(({ partId, update }) => ({ id: partId, ...update })),
      }),
    failure: { action: 'update', entity: 'part' },
    optimistic: [
      {
        queryKey: partsKey(simulationId),
        update: (parts: Part[], edits: readonly PartEdit[]) =>
          parts.map((p) => {
            const edit = edits.find((e) => e.partId === p.id)
            return edit ? applyPartUpdate(p, edit.update) : p
          }),
      },
    ],
    invalidate: ['listParts', 'listSimulationMovements'],
  })
}

/** POST /client-upload/uploads with one file (a CSV without a datatable kind: stored as is). */
export async function uploadFile(file: File): Promise<Upload> {
  const form = new FormData()
  form.append('file', file)
  const response = await api.requestRaw({
    method: 'POST',
    path: '/client-upload/uploads',
    body: form,
    expectedStatus: 201,
  })
  const parsed = v.safeParse(UploadSchema, await response.json())
  if (!parsed.success)
    throw new ApiError(response.status, undefined, { message: UNEXPECTED_RESPONSE_MESSAGE })
  return parsed.output
}

/**
 * The acceleration file (csv only): uploaded, then set on the settings; a failure of either shows
 * 'Uploading acceleration file failed'. (Removing it is a settings edit: accelerationFileId null.)
 */
export function useAccelerationFileMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: async (file: File) => {
      const upload = await uploadFile(file)
      return callApi('updateSettings', {
        ...paramsOf(simulationId),
        body: { accelerationFileId: upload.id },
      })
    },
    failure: { title: SETUP_MESSAGES.accelerationUploadFailed },
    invalidate: ['getSettings'],
  })
}
