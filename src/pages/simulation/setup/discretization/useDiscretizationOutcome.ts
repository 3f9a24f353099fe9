import { useQueryClient } from '@tanstack/react-query'
import { useAtomValue } from 'jotai'
import { useEffect, useRef } from 'react'
import { discretizationToast, type Discretization } from '../../../../../domain/discretization.ts'
import { isJobActive, isJobSucceeded } from '../../../../../domain/jobs.ts'
import { loadsPointcloud, type Part } from '../../../../../domain/parts.ts'
import { SETUP_MESSAGES } from '../../../../../domain/setupMessages.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { objectId } from '../state/setupAtoms.ts'

/** Refetched when a discretization ends: parts (their point clouds, warnings) and the checklist. */
const AFTER_DISCRETIZATION = ['listParts', 'getSetupValidation', 'getSimulation'] as const

/**
 * Parts whose point cloud from the latest discretization the view shows: fillings and flows
 * ("Pointclouds are loaded for flow and filling parts"), and any part whose appearance shows it;
 * walls' clouds load on request only, so they are not awaited.
 */
export function partsWithPointclouds(parts: readonly Part[] | undefined): number[] {
  return (parts ?? [])
    .filter((p) => p.pointcloudUrl !== null && (loadsPointcloud(p) || p.appearance.showPointcloud))
    .map((p) => p.id)
}

/**
 * What happens when a discretization this page watched ends (spec/setup.md §4, §8; spec/results.md
 * "Jobs"): failed → 'Discretization failed' with the first error; done → 'Discretization warning'
 * with the first warning if any, the parts refetched (their point clouds change), and 'Loaded
 * pointclouds' once the view draws every part's particles, each once per discretization. A record
 * that had already ended when the page opened says nothing.
 */
export function useDiscretizationOutcome(
  record: Discretization | null | undefined,
  parts: { data: readonly Part[] | undefined; dataUpdatedAt: number },
) {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  const setup = useAtomValue(viewportStateAtom).snapshot?.setup
  const watched = useRef<{ id: number; active: boolean } | null>(null)
  /** The discretization whose end was reported: a stale reply showing it active again says nothing. */
  const reported = useRef<number | null>(null)
  /** When a discretization was seen done; its point clouds are awaited from parts fetched later. */
  const doneAtMs = useRef<number | null>(null)

  useEffect(() => {
    if (!record) return
    const before = watched.current
    watched.current = { id: record.id, active: isJobActive(record.state) }
    if (!before || before.id !== record.id || !before.active || isJobActive(record.state)) return
    if (reported.current === record.id) return
    reported.current = record.id
    const toast = discretizationToast(record)
    if (toast) pushToast({ kind: toast.level, title: toast.title, description: toast.text })
    for (const name of AFTER_DISCRETIZATION)
      void queryClient.invalidateQueries({ queryKey: [name] })
    if (isJobSucceeded(record.state)) doneAtMs.current = Date.now()
  }, [record, pushToast, queryClient])

  const clouds = partsWithPointclouds(parts.data).map((id) => objectId('part', id))
  const allDrawn =
    setup !== undefined &&
    clouds.length > 0 &&
    clouds.every((id) => id in setup.pointcloudCounts && !setup.loading.includes(id))
  const partsUpdatedAt = parts.dataUpdatedAt
  useEffect(() => {
    const since = doneAtMs.current
    if (since === null || partsUpdatedAt < since || !allDrawn) return
    doneAtMs.current = null
    pushToast({ kind: 'success', title: SETUP_MESSAGES.loadedPointclouds })
  }, [partsUpdatedAt, allDrawn, pushToast])

  /** A discretization this page started: its end is reported like one seen running. */
  return (started: Discretization) => {
    // the record may already have been fetched, ended even, before the start's reply arrived
    if (watched.current?.id !== started.id) watched.current = { id: started.id, active: true }
  }
}
