import { useCallback, useEffect, useRef, useState } from 'react'
import {
  ASSEMBLY_WIZARD,
  checkMeshingParameters,
  type AssemblyPart,
  type AssemblyPartUpdate,
  type MeshingParameters,
} from '../../../../../domain/tessellation.ts'
import type { Issue } from '../../../../../domain/validation.ts'
import { sharedMeshingParameters } from './wizardModel.ts'

/** A change of the form not saved yet: the fields typed, applied to every chosen part. */
export type MeshingPatch = Partial<MeshingParameters>

/** A chosen part's meshing parameters with the pending change applied. */
export function patchedParameters(part: AssemblyPart, patch: MeshingPatch): MeshingParameters {
  return { ...part.meshingParameters, ...patch }
}

/** The updates that save a change to the chosen parts (none when it changes nothing). */
export function meshingUpdates(
  parts: readonly AssemblyPart[],
  patch: MeshingPatch,
): AssemblyPartUpdate[] {
  return parts.flatMap((part) => {
    const next = patchedParameters(part, patch)
    const same = (Object.keys(next) as (keyof MeshingParameters)[]).every(
      (key) => next[key] === part.meshingParameters[key],
    )
    return same ? [] : [{ id: part.id, meshingParameters: next }]
  })
}

/**
 * The Meshing Parameters form's state (spec/setup.md §2): what it shows for the chosen parts (a
 * field they differ in shows empty as 'Mixed' until typed), the rules' messages, and the save of
 * each change 250 ms after the last one, per part, only while the values follow the rules. `flush`
 * saves a waiting change at once (before Import, or when the chosen parts change).
 */
export function useMeshingDraft(
  chosen: readonly AssemblyPart[],
  save: (updates: AssemblyPartUpdate[]) => Promise<unknown>,
) {
  const [patch, setPatch] = useState<MeshingPatch>({})
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const latest = useRef({ chosen, patch, save })
  useEffect(() => {
    latest.current = { chosen, patch, save }
  })

  const issues: Issue[] = chosen.flatMap((part) =>
    checkMeshingParameters(patchedParameters(part, patch)),
  )
  const valid = issues.length === 0

  const saveNow = useCallback(async () => {
    clearTimeout(timer.current)
    timer.current = undefined
    const { chosen: parts, patch: pending, save: send } = latest.current
    if (Object.keys(pending).length === 0) return
    const allValid = parts.every(
      (p) => checkMeshingParameters(patchedParameters(p, pending)).length === 0,
    )
    if (!allValid) return
    setPatch({})
    latest.current = { ...latest.current, patch: {} }
    const updates = meshingUpdates(parts, pending)
    if (updates.length > 0) await send(updates)
  }, [])

  const change = useCallback(
    (next: MeshingPatch) => {
      const merged = { ...latest.current.patch, ...next }
      latest.current = { ...latest.current, patch: merged }
      setPatch(merged)
      clearTimeout(timer.current)
      timer.current = setTimeout(
        () => void saveNow().catch(() => undefined),
        ASSEMBLY_WIZARD.formDebounceMs,
      )
    },
    [saveNow],
  )

  // A change still waiting when the form goes away is saved, not dropped.
  useEffect(
    () => () => {
      if (timer.current !== undefined) void saveNow().catch(() => undefined)
    },
    [saveNow],
  )

  const shared = sharedMeshingParameters(chosen)
  const shown = {
    linearDeflectionFactor:
      patch.linearDeflectionFactor !== undefined
        ? patch.linearDeflectionFactor
        : shared.mixed.linearDeflectionFactor
          ? null
          : shared.params.linearDeflectionFactor,
    angularDeflection:
      patch.angularDeflection !== undefined
        ? patch.angularDeflection
        : shared.mixed.angularDeflection
          ? null
          : shared.params.angularDeflection,
    useDelabellaAlgorithm: patch.useDelabellaAlgorithm ?? shared.params.useDelabellaAlgorithm,
  }
  const mixed = {
    linearDeflectionFactor:
      patch.linearDeflectionFactor === undefined && shared.mixed.linearDeflectionFactor,
    angularDeflection: patch.angularDeflection === undefined && shared.mixed.angularDeflection,
    useDelabellaAlgorithm:
      patch.useDelabellaAlgorithm === undefined && shared.mixed.useDelabellaAlgorithm,
  }
  const pending = Object.keys(patch).length > 0
  return { shown, mixed, issues, valid, pending, patch, change, flush: saveNow }
}
