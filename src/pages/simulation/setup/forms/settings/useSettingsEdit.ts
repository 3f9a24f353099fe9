import { useMemo, useState } from 'react'
import { isPointcloudPart } from '../../../../../../domain/parts.ts'
import { defaultSettings, type SimulationSettingsPatch } from '../../../../../../domain/settings.ts'
import { checkSettings, checkSettingsCoupling } from '../../../../../../domain/settingsRules.ts'
import { useUpdateSettingsMutation } from '../../queries/propertyMutations.ts'
import { useMaterialsQuery, usePartsQuery, useSettingsQuery } from '../../queries/setupQueries.ts'
import { mergeIssues, settingsFieldOf, useRefusals } from '../formIssues.ts'

/**
 * The settings as the settings and physics forms edit them: the stored settings, every message
 * about them (checkSettings and the coupled rules on what the form shows, the server's issues, the
 * field errors of a refused edit), `save` (PUT settings, shown at once, rolled back on refusal) and
 * the lines of the 'Advanced Settings Were Adjusted' dialog after a switch changed other settings.
 */
export function useSettingsEdit(simulationId: number) {
  const result = useSettingsQuery(simulationId)
  const materials = useMaterialsQuery(simulationId).data ?? []
  const parts = usePartsQuery(simulationId).data ?? []
  const [adjustments, setAdjustments] = useState<readonly string[] | null>(null)
  const update = useUpdateSettingsMutation(simulationId, {
    onAdjusted: (lines) => setAdjustments(lines),
  })
  const refusals = useRefusals(settingsFieldOf)
  const settings = result.data?.settings ?? defaultSettings()
  const hasPointcloudPart = parts.some(isPointcloudPart)
  const serverIssues = result.data?.issues
  const issues = useMemo(
    () =>
      mergeIssues(
        refusals.issues,
        checkSettings(settings, { hasPointcloudPart }),
        checkSettingsCoupling(settings, { materialCount: materials.length, refinementCount: 0 }),
        serverIssues ?? [],
      ),
    [refusals.issues, settings, hasPointcloudPart, materials.length, serverIssues],
  )
  const save = (patch: SimulationSettingsPatch) => {
    refusals.clear()
    update.mutate(patch, { onError: refusals.capture })
  }
  return {
    loaded: result.data !== undefined,
    settings,
    materials,
    parts,
    issues,
    save,
    adjustments,
    dismissAdjustments: () => setAdjustments(null),
  }
}
