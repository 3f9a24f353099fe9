import { useAtomValue } from 'jotai'
import { useEffect, useRef, useState } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { SETUP_MESSAGES } from '../../../../../domain/setupMessages.ts'
import { ViewChrome } from '../../../../components/viewport/chrome/ViewChrome.tsx'
import { Viewport, type ShortcutHelp } from '../../../../components/viewport/Viewport.tsx'
import { viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { MeshCheckTool, MeshHealthTool } from '../objects/MeshCheckDialog.tsx'
import { SetupSceneSync } from './SetupSceneSync.tsx'
import './setupViewport.css'

/** Where the pointer is over the view, CSS pixels from its top left (null: outside). */
type PointerSpot = { x: number; y: number } | null

/**
 * The view's message ('Initializing...' until every mesh is in, then 'Successfully initialized.')
 * and the 'Deletion Boundary' tooltip at the pointer while it is over the calculation domain box.
 */
export function SetupViewOverlay() {
  const setup = useAtomValue(viewportStateAtom).snapshot?.setup
  const hoveringDomain = setup?.hovered === 'calc_domain'
  const anchorRef = useRef<HTMLSpanElement>(null)
  const hoveringRef = useRef(hoveringDomain)
  const [pointer, setPointer] = useState<PointerSpot>(null)
  useEffect(() => {
    hoveringRef.current = hoveringDomain
  }, [hoveringDomain])
  // The pointer is followed over the whole view; React hears of it only while over the box.
  useEffect(() => {
    const host = anchorRef.current?.parentElement
    if (!host) return
    const onMove = (event: PointerEvent) => {
      if (!hoveringRef.current) return
      const rect = host.getBoundingClientRect()
      setPointer({ x: event.clientX - rect.left, y: event.clientY - rect.top })
    }
    host.addEventListener('pointermove', onMove)
    return () => host.removeEventListener('pointermove', onMove)
  }, [])
  return (
    <>
      <span ref={anchorRef} hidden />
      {setup && (
        <p
          className={`setup-viewport__message${setup.initialized ? ' setup-viewport__message--done' : ''}`}
          role="status"
        >
          {setup.message}
        </p>
      )}
      {hoveringDomain && pointer && (
        <div
          className="setup-viewport__tooltip"
          role="tooltip"
          style={{ left: pointer.x + 12, top: pointer.y + 12 }}
        >
          {SETUP_MESSAGES.deletionBoundaryTooltip}
        </div>
      )}
    </>
  )
}

/** The page's own shortcut, listed with the camera keys (spec/setup.md §2). */
const SETUP_SHORTCUTS: readonly ShortcutHelp[] = [
  { keys: 'Space', action: 'Play or pause the movements' },
]

/**
 * The 3D view of the Setup page (spec/setup.md §2 "3D viewport (Setup)"): the engine's setup
 * scene (SetupSceneSync posts the objects, selection, tool and clip, and handles clicks and drags),
 * the shared viewport chrome (clip, camera, coordinate system, fit view, view cube, axis gizmo,
 * scale bar) with mesh-health mode, the view's message and the 'Deletion Boundary' tooltip.
 */
export function SetupViewport({ simulation }: { simulation: Simulation }) {
  return (
    <div className="setup-viewport">
      <Viewport label="Setup 3D view" shortcuts={SETUP_SHORTCUTS}>
        <ViewChrome
          clipModeKeys={false}
          tools={
            <>
              <MeshHealthTool />
              <MeshCheckTool simulation={simulation} />
            </>
          }
        />
      </Viewport>
      <SetupViewOverlay />
      <SetupSceneSync simulation={simulation} />
    </div>
  )
}
