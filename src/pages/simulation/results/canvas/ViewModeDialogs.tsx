import { useAtom, useAtomValue } from 'jotai'
import { useId, useState } from 'react'
import { MATERIAL_DISPLAY_MODES, PART_VIEW_MODES } from '../../../../../domain/results.ts'
import {
  materialViewsAtom,
  partViewsAtom,
  pointSizeAtom,
  viewportEngineAtom,
  type MaterialView,
  type PartView,
} from '../../../../state/viewportAtoms.ts'
import { velocityArrowsAtom } from './canvasAtoms.ts'
import { Segmented, Switch } from '../../../../components/viewport/chrome/CanvasMenu.tsx'
import {
  DEFAULT_MATERIAL_VIEW,
  MATERIAL_DISPLAY_LABELS,
  PART_VIEW_LABELS,
  POINT_SIZE_RANGE_PX,
  defaultPartView,
  sharedValue,
  type ViewObject,
} from './canvasModel.ts'

/** Solid view mode: how every wall and open boundary is drawn (surface, wireframe, translucent) and whether it shows. */
export function SolidViewDialog({ parts }: { parts: readonly ViewObject[] }) {
  const engine = useAtomValue(viewportEngineAtom)
  const [views, setViews] = useAtom(partViewsAtom)
  const current = parts.map(
    (part) => views[part.objectId] ?? defaultPartView(part.kind as 'wall_boundary'),
  )
  const apply = (change: Partial<PartView>) => {
    const next: Record<string, PartView> = {}
    parts.forEach((part, index) => {
      const view = { ...(current[index] as PartView), ...change }
      next[part.objectId] = view
      engine?.dispatch({
        type: 'set_part_view',
        objectId: part.objectId,
        mode: view.viewMode,
        visible: view.visible,
      })
    })
    setViews((previous) => ({ ...previous, ...next }))
  }
  if (parts.length === 0) return <p className="canvas-menu__empty">This output has no walls.</p>
  return (
    <div className="canvas-menu__body">
      <Switch
        label="Show walls"
        checked={current.some((view) => view.visible)}
        onChange={(visible) => apply({ visible })}
      />
      <Segmented
        label="Solid view mode"
        options={PART_VIEW_MODES}
        value={sharedValue(current.map((view) => view.viewMode))}
        labelOf={(mode) => PART_VIEW_LABELS[mode]}
        onChange={(viewMode) => apply({ viewMode, visible: true })}
      />
    </div>
  )
}

/** Fluid view mode: how every fluid is drawn (the material display modes), whether it shows, and the point size. */
export function FluidViewDialog({
  fluids,
  arrowsAvailable,
}: {
  fluids: readonly ViewObject[]
  /** The fluids carry velocity columns: velocity arrows can be drawn. */
  arrowsAvailable: boolean
}) {
  const [arrows, setArrows] = useAtom(velocityArrowsAtom)
  const engine = useAtomValue(viewportEngineAtom)
  const [views, setViews] = useAtom(materialViewsAtom)
  const [pointSizePx, setPointSizePx] = useAtom(pointSizeAtom)
  const [sizeText, setSizeText] = useState(String(pointSizePx))
  const sizeId = useId()
  const current = fluids.map((fluid) => views[fluid.objectId] ?? DEFAULT_MATERIAL_VIEW)
  const apply = (change: Partial<MaterialView>) => {
    const next: Record<string, MaterialView> = {}
    fluids.forEach((fluid, index) => {
      const view = { ...(current[index] as MaterialView), ...change }
      next[fluid.objectId] = view
      engine?.dispatch({
        type: 'set_material_display',
        objectId: fluid.objectId,
        mode: view.displayMode,
        visible: view.visible,
      })
    })
    setViews((previous) => ({ ...previous, ...next }))
  }
  const changeSize = (text: string) => {
    setSizeText(text)
    const value = Number(text)
    if (text.trim() === '' || !Number.isFinite(value)) return
    const clamped = Math.min(POINT_SIZE_RANGE_PX.max, Math.max(POINT_SIZE_RANGE_PX.min, value))
    // The canvas menus send the size to the engine when the atom changes.
    setPointSizePx(clamped)
  }
  const sizeInvalid =
    sizeText.trim() === '' ||
    !(Number(sizeText) >= POINT_SIZE_RANGE_PX.min && Number(sizeText) <= POINT_SIZE_RANGE_PX.max)
  if (fluids.length === 0) return <p className="canvas-menu__empty">This output has no fluids.</p>
  return (
    <div className="canvas-menu__body">
      <Switch
        label="Show fluids"
        checked={current.some((view) => view.visible)}
        onChange={(visible) => apply({ visible })}
      />
      <Segmented
        label="Fluid view mode"
        options={MATERIAL_DISPLAY_MODES}
        value={sharedValue(current.map((view) => view.displayMode))}
        labelOf={(mode) => MATERIAL_DISPLAY_LABELS[mode]}
        onChange={(displayMode) => apply({ displayMode, visible: true })}
      />
      {arrowsAvailable && <Switch label="Velocity arrows" checked={arrows} onChange={setArrows} />}
      <div className="canvas-menu__row">
        <label className="canvas-menu__label" htmlFor={sizeId}>
          Point size (px)
        </label>
        <input
          id={sizeId}
          className="input input--small canvas-menu__number"
          type="number"
          min={POINT_SIZE_RANGE_PX.min}
          max={POINT_SIZE_RANGE_PX.max}
          step={1}
          value={sizeText}
          aria-invalid={sizeInvalid}
          onChange={(event) => changeSize(event.target.value)}
        />
        <input
          type="range"
          className="canvas-menu__slider"
          aria-label="Point size slider"
          min={POINT_SIZE_RANGE_PX.min}
          max={POINT_SIZE_RANGE_PX.max}
          step={1}
          value={pointSizePx}
          onChange={(event) => changeSize(event.target.value)}
        />
      </div>
      {sizeInvalid && (
        <p className="canvas-menu__error" role="alert">
          Point size must be between {POINT_SIZE_RANGE_PX.min} and {POINT_SIZE_RANGE_PX.max} px.
        </p>
      )}
    </div>
  )
}
