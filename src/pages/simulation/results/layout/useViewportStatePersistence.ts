import { useSetAtom, useStore } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { VIEWPORT_STATE_AUTOSAVE_MS } from '../../../../../domain/constants.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import type { ViewportState } from '../../../../../domain/results.ts'
import { callApi } from '../../../../api/index.ts'
import {
  DEFAULT_CLIP,
  DEFAULT_COLOUR_MAP_CHOICE,
  clipAtom,
  colourMapChoiceAtom,
  coordinateSystemAtom,
  materialViewsAtom,
  partViewsAtom,
  viewportEngineAtom,
  viewportStateAtom,
} from '../../../../state/viewportAtoms.ts'
import { buildViewportState, fromColourMapState } from '../resultsModel.ts'

type Store = ReturnType<typeof useStore>

/** The viewport state to save now; null until the engine reports a camera. */
function currentViewportState(store: Store): ViewportState | null {
  const snapshot = store.get(viewportStateAtom).snapshot
  if (!snapshot) return null
  return buildViewportState({
    camera: snapshot.camera,
    colour: store.get(colourMapChoiceAtom),
    output: snapshot.shownOutput,
    coordinateSystem: store.get(coordinateSystemAtom),
    clip: store.get(clipAtom),
    parts: store.get(partViewsAtom),
    materials: store.get(materialViewsAtom),
  })
}

/** Failures to restore or persist the viewport state are only logged (spec/results.md §8). */
function logFailure(what: string, error: unknown): void {
  console.warn(`${what} the viewport state failed:`, error)
}

/**
 * Restores the results viewport's saved state when the page opens (colour map, clipping plane,
 * coordinate system, part and material views at once; camera and output once the engine has the
 * outputs, or the first output would re-fit the camera), then saves it every 5 s when it changed,
 * and once more when the page goes away. Returns the callback the page calls right after it handed
 * the engine its outputs.
 */
export function useViewportStatePersistence(
  simulationId: number,
): (outputs: OutputManifestList) => void {
  const store = useStore()
  const setColour = useSetAtom(colourMapChoiceAtom)
  const setClip = useSetAtom(clipAtom)
  const setCoordinateSystem = useSetAtom(coordinateSystemAtom)
  const setParts = useSetAtom(partViewsAtom)
  const setMaterials = useSetAtom(materialViewsAtom)
  const [settled, setSettled] = useState(false)
  const lastSavedRef = useRef<string | null>(null)
  const pendingRef = useRef<{
    restored: ViewportState | null
    outputs: OutputManifestList | null
    applied: boolean
  }>({ restored: null, outputs: null, applied: false })

  const applyCameraAndOutput = useCallback(() => {
    const pending = pendingRef.current
    const engine = store.get(viewportEngineAtom)
    const { restored, outputs } = pending
    if (pending.applied || !restored || !outputs || !engine) return
    pending.applied = true
    engine.dispatch({ type: 'set_camera', camera: restored.camera })
    const output = restored.output
    if (output !== null && outputs.outputs.some((manifest) => manifest.outputNo === output))
      engine.dispatch({ type: 'show_output', outputNo: output })
  }, [store])

  useEffect(() => {
    let cancelled = false
    // The view atoms outlive the page: another simulation's views must not carry over.
    setColour(DEFAULT_COLOUR_MAP_CHOICE)
    setClip(DEFAULT_CLIP)
    setCoordinateSystem(true)
    setParts({})
    setMaterials({})
    callApi('getRunViewportState', { params: { id: String(simulationId) } })
      .then((saved) => {
        if (cancelled) return
        const state = saved.state
        if (state) {
          if (state.colorMap) setColour(fromColourMapState(state.colorMap))
          setClip(state.clippingPlane)
          setCoordinateSystem(state.coordinateSystem)
          setParts(state.parts)
          setMaterials(state.materials)
          lastSavedRef.current = JSON.stringify(state)
          pendingRef.current.restored = state
          applyCameraAndOutput()
        }
        setSettled(true)
      })
      .catch((error: unknown) => {
        if (cancelled) return
        logFailure('Restoring', error)
        setSettled(true)
      })
    return () => {
      cancelled = true
    }
  }, [
    simulationId,
    setColour,
    setClip,
    setCoordinateSystem,
    setParts,
    setMaterials,
    applyCameraAndOutput,
  ])

  useEffect(() => {
    if (!settled) return
    const save = () => {
      const state = currentViewportState(store)
      if (!state) return
      const text = JSON.stringify(state)
      if (text === lastSavedRef.current) return
      lastSavedRef.current = text
      callApi('updateRunViewportState', {
        params: { id: String(simulationId) },
        body: state,
      }).catch((error: unknown) => {
        // Try again at the next tick.
        lastSavedRef.current = null
        logFailure('Saving', error)
      })
    }
    const timer = setInterval(save, VIEWPORT_STATE_AUTOSAVE_MS)
    return () => {
      clearInterval(timer)
      save()
    }
  }, [settled, simulationId, store])

  return useCallback(
    (outputs: OutputManifestList) => {
      pendingRef.current.outputs = outputs
      applyCameraAndOutput()
    },
    [applyCameraAndOutput],
  )
}
