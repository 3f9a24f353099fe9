import { useAtom, useAtomValue } from 'jotai'
import { useEffect, useMemo, useRef, useState } from 'react'
import { isJobActive, isJobSucceeded } from '../../../../../domain/jobs.ts'
import type { Part } from '../../../../../domain/parts.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { SetupEvent } from '../../../../../engine/setupProtocol.ts'
import { clipAtom, viewportEngineAtom, viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { useDiscretizationMessages } from '../discretization/discretizationModel.ts'
import { useOpenObject } from '../explorer/openObject.ts'
import { useSetupEditable } from '../forms/fields/editable.ts'
import {
  useCalcDomainQuery,
  useDiscretizationQuery,
  useMovementsQuery,
  usePartsQuery,
  useSettingsQuery,
  useSetupSensorsQuery,
  useSetupVolumeClipsQuery,
} from '../queries/setupQueries.ts'
import { setupSelectionAtom, setupToolAtom } from '../state/setupAtoms.ts'
import { setupViewActions } from './setupEvents.ts'
import { useSetupObjectExtras } from '../objects/useObjectViews.ts'
import { freshPointcloudParts, setupObjectViews } from './setupObjects.ts'
import { usePlacePartMutation } from './usePlacePartMutation.ts'

/**
 * The 'show point cloud' switch of every part when the discretization this page watched finished
 * (their point clouds show until the switch is changed); empty while none has finished here.
 */
function useShownAtFinish(simulationId: number, parts: readonly Part[] | undefined) {
  const record = useDiscretizationQuery(simulationId).data
  const watched = useRef<{ id: number; active: boolean } | null>(null)
  const partsRef = useRef(parts)
  const [shownAtFinish, setShownAtFinish] = useState<ReadonlyMap<number, boolean>>(new Map())
  useEffect(() => {
    partsRef.current = parts
  }, [parts])
  useEffect(() => {
    if (!record) return
    const before = watched.current
    const active = isJobActive(record.state)
    watched.current = { id: record.id, active }
    if (before?.id !== record.id && active) setShownAtFinish(new Map())
    else if (before?.id === record.id && before.active && isJobSucceeded(record.state))
      setShownAtFinish(
        new Map((partsRef.current ?? []).map((p) => [p.id, p.appearance.showPointcloud])),
      )
  }, [record])
  return shownAtFinish
}

/** Logs each geometry the engine could not load, once (spec/setup.md §8: only logged). */
function useLogFailedLoads() {
  const failed = useAtomValue(viewportStateAtom).snapshot?.setup?.failed
  const logged = useRef(new Set<string>())
  useEffect(() => {
    for (const { id, message } of failed ?? []) {
      const key = `${id}\n${message}`
      if (logged.current.has(key)) continue
      logged.current.add(key)
      console.warn(`Could not load ${id} in the setup view: ${message}`)
    }
  }, [failed])
}

/**
 * Keeps the render worker's setup scene in step with the page (engine/setupProtocol.ts): the
 * scene choice, every object whenever one changes, the selection, the gizmo tool and the clipping
 * plane; and turns what a person does in the view (click, double click, gizmo and seed-point
 * drags) into selection changes, opened forms and saved placements.
 */
export function SetupSceneSync({ simulation }: { simulation: Simulation }) {
  const engine = useAtomValue(viewportEngineAtom)
  const [selection, setSelection] = useAtom(setupSelectionAtom)
  const tool = useAtomValue(setupToolAtom)
  const clip = useAtomValue(clipAtom)
  const setup = useSetupEditable()
  const parts = usePartsQuery(simulation.id).data
  const movements = useMovementsQuery(simulation.id).data
  const sensors = useSetupSensorsQuery(simulation.id).data
  const clips = useSetupVolumeClipsQuery(simulation.id).data
  const calcDomain = useCalcDomainQuery(simulation.id).data
  const settings = useSettingsQuery(simulation.id).data?.settings ?? simulation.settings
  const discretizationMessages = useDiscretizationMessages(simulation.id).byPart
  const extras = useSetupObjectExtras(simulation)
  const shownAtFinish = useShownAtFinish(simulation.id, parts)
  const open = useOpenObject(simulation)
  // Bumped when the server refuses a drag: the objects are posted again, back where they were.
  const [revision, setRevision] = useState(0)
  const place = usePlacePartMutation(simulation.id, () => setRevision((r) => r + 1))
  useLogFailedLoads()

  const endTimeS = settings.endTime
  const objects = useMemo(
    () => [
      ...setupObjectViews({
        parts: parts ?? [],
        movements: movements ?? [],
        sensors: sensors ?? [],
        volumeClips: clips ?? [],
        calcDomain,
        endTimeS,
        editable: setup.editable,
        freshPointclouds: freshPointcloudParts(parts ?? [], shownAtFinish),
        discretizationMessages,
      }),
      ...extras,
    ],
    [
      extras,
      parts,
      movements,
      sensors,
      clips,
      calcDomain,
      endTimeS,
      setup.editable,
      shownAtFinish,
      discretizationMessages,
    ],
  )

  useEffect(() => {
    engine?.dispatch({ type: 'set_scene', scene: 'setup' })
  }, [engine])
  useEffect(() => {
    engine?.dispatch({ type: 'setup_objects', objects, endTimeS })
  }, [engine, objects, endTimeS, revision])
  useEffect(() => {
    engine?.dispatch({ type: 'setup_selection', ids: [...selection] })
  }, [engine, selection])
  useEffect(() => {
    engine?.dispatch({ type: 'setup_tool', tool })
  }, [engine, tool])
  useEffect(() => {
    engine?.dispatch({ type: 'set_clip', clip })
  }, [engine, clip])

  // The listener stays subscribed; it reads the latest state through this ref.
  const handle = useRef<(event: SetupEvent) => void>(() => undefined)
  useEffect(() => {
    handle.current = (event) => {
      for (const action of setupViewActions(event, selection, parts ?? [])) {
        if (action.type === 'select') setSelection(action.ids)
        else if (action.type === 'open') open(action.id)
        else if (setup.editable) place.mutate(action.place)
        else setRevision((r) => r + 1)
      }
    }
  })
  useEffect(() => {
    if (!engine) return
    return engine.onSetupEvent((event) => handle.current(event))
  }, [engine])

  return null
}
