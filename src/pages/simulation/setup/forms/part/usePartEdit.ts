import { useMemo } from 'react'
import type { DatatableInfo } from '../../../../../../domain/datatable.ts'
import {
  checkPart,
  type Part,
  type PartRuleContext,
  type PartUpdate,
} from '../../../../../../domain/parts.ts'
import { defaultSettings, type SimulationSettings } from '../../../../../../domain/settings.ts'
import type { Issue } from '../../../../../../domain/validation.ts'
import { useUpdatePartMutation, useUpdatePartsMutation } from '../../queries/partMutations.ts'
import { useUpdateEachPartMutation } from '../../queries/propertyMutations.ts'
import {
  useMaterialsQuery,
  useSettingsQuery,
  useSetupIssuesQuery,
} from '../../queries/setupQueries.ts'
import { mergeIssues, partFieldOf, rebaseIssues, useRefusals } from '../formIssues.ts'

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The settings the part rules and folders look at (the defaults until they load). */
export function useSetupSettings(simulationId: number): SimulationSettings {
  return useSettingsQuery(simulationId).data?.settings ?? defaultSettings()
}

/**
 * Every message about the selected parts, named 'part.…': the part rules run on each of them
 * (checkPart, with the settings and materials), the setup validation's items for them, and the
 * field errors of the last refused edit.
 */
export function usePartIssues(
  simulationId: number,
  parts: readonly Part[],
  refusals: readonly Issue[],
  tables: readonly DatatableInfo[] = [],
): Issue[] {
  const settings = useSetupSettings(simulationId)
  const materials = useMaterialsQuery(simulationId).data
  const server = useSetupIssuesQuery(simulationId).data?.issues
  return useMemo(() => {
    const context: PartRuleContext = {
      thermodynamics: settings.thermodynamics,
      multiphase: settings.multiphase,
      surfaceTension: settings.surfaceTension,
      materialIds: (materials ?? []).map((m) => m.id),
      findDatatable: (id) => tables.find((t) => t.id === id),
    }
    const local = parts.flatMap((p) =>
      checkPart(p, context, 'part').filter(
        // Until the materials load, a missing material is not known.
        (i) => materials !== undefined || i.field !== 'part.materialId',
      ),
    )
    const fromServer = parts.flatMap((p) => rebaseIssues(server ?? [], `parts.${p.id}`, 'part'))
    return mergeIssues(refusals, local, fromServer)
  }, [settings, materials, server, parts, refusals, tables])
}

/**
 * Edits of the selected parts. `edit` asks each part for its own update (null: leave it); one part
 * goes through PUT /parts/{id}, several through PUT /simulations/{id}/parts: the same change for all
 * (useUpdatePartsMutation) or each its own (a vector component over differing vectors, fields of
 * different component types). A refusal rolls back and its field errors show on the fields.
 */
export function usePartEdit(simulationId: number, parts: readonly Part[]) {
  const one = useUpdatePartMutation(simulationId)
  const many = useUpdatePartsMutation(simulationId)
  const each = useUpdateEachPartMutation(simulationId)
  const refusals = useRefusals(partFieldOf)

  const edit = (make: (part: Part) => PartUpdate | null) => {
    const edits = parts.flatMap((part) => {
      const update = make(part)
      return update ? [{ partId: part.id, update }] : []
    })
    const first = edits[0]
    if (!first) return
    refusals.clear()
    const callbacks = { onError: refusals.capture }
    if (edits.length === 1) one.mutate(first, callbacks)
    else if (edits.every((e) => same(e.update, first.update)))
      many.mutate({ partIds: edits.map((e) => e.partId), update: first.update }, callbacks)
    else each.mutate(edits, callbacks)
  }

  return { edit, refusals: refusals.issues }
}

/** What every folder of the part form gets. */
export interface PartFolderProps {
  simulationId: number
  /** The selected parts (one or more). */
  parts: readonly Part[]
  /** Saves a change: each part's own update, or null to leave it. */
  edit: (make: (part: Part) => PartUpdate | null) => void
  /** Every message about the selected parts, fields named 'part.…'. */
  issues: readonly Issue[]
  settings: SimulationSettings
}
