import { useAtom, useAtomValue } from 'jotai'
import { useId, useRef, useState } from 'react'
import { CLIP_AXES } from '../../../../domain/results.ts'
import { DEFAULT_CLIP, clipAtom, viewportStateAtom } from '../../../state/viewportAtoms.ts'
import { Segmented, Switch } from './CanvasMenu.tsx'
import {
  CLIP_TRANSFORM_MODES,
  clipAxisExtent,
  firstEnabledClip,
  roundOffset,
  type ClipTransformMode,
} from './viewChromeModel.ts'

const MODE_LABELS: Record<ClipTransformMode, string> = {
  translate: 'Translate (t)',
  rotate: 'Rotate (r)',
}

/** Offset steps of the arrows and the slider, metres. */
const OFFSET_STEP_M = 0.001

/**
 * The Clip dialog: the clipping plane on or off, Flipped, orientation x/y/z, Offset in m (field and
 * slider over the shown output's extent), Reset, and the transform mode of the arrow keys (t, r). The page sends `clipAtom` to the render worker.
 */
export function ClipDialog({
  mode,
  onModeChange,
}: {
  /** What the arrow keys do to the plane (keys t and r switch it). */
  mode: ClipTransformMode
  onModeChange: (mode: ClipTransformMode) => void
}) {
  const [clip, setClip] = useAtom(clipAtom)
  const bounds = useAtomValue(viewportStateAtom).snapshot?.bounds ?? null
  const [offsetText, setOffsetText] = useState(String(clip.offsetM))
  const [shownOffsetM, setShownOffsetM] = useState(clip.offsetM)
  // The first switch-on places the plane (one-time action); later ones keep what the user set.
  const enabledBeforeRef = useRef(clip.enabled)
  const offsetId = useId()
  const extent = clipAxisExtent(bounds, clip.axis)

  // The offset changed elsewhere (Reset, first enabling, a restored state): show it.
  if (shownOffsetM !== clip.offsetM) {
    setShownOffsetM(clip.offsetM)
    if (Number(offsetText) !== clip.offsetM) setOffsetText(String(clip.offsetM))
  }

  const changeOffset = (text: string) => {
    setOffsetText(text)
    const value = Number(text)
    if (text.trim() !== '' && Number.isFinite(value)) setClip({ ...clip, offsetM: value })
  }
  const offsetInvalid = offsetText.trim() === '' || !Number.isFinite(Number(offsetText))

  return (
    <div className="canvas-menu__body">
      <Switch
        label="Clipping plane"
        checked={clip.enabled}
        onChange={(enabled) => {
          if (enabled && !enabledBeforeRef.current) {
            enabledBeforeRef.current = true
            setClip(firstEnabledClip(clip, bounds))
          } else setClip({ ...clip, enabled })
        }}
      />
      <Switch
        label="Flipped"
        checked={clip.flipped}
        onChange={(flipped) => setClip({ ...clip, flipped })}
      />
      <Segmented
        label="Orientation"
        options={CLIP_AXES}
        value={clip.axis}
        onChange={(axis) => setClip({ ...clip, axis })}
      />
      <div className="canvas-menu__row">
        <label className="canvas-menu__label" htmlFor={offsetId}>
          Offset (m)
        </label>
        <input
          id={offsetId}
          className="input input--small canvas-menu__number"
          type="number"
          step={OFFSET_STEP_M}
          value={offsetText}
          aria-invalid={offsetInvalid}
          onChange={(event) => changeOffset(event.target.value)}
        />
      </div>
      {extent !== null && extent.max > extent.min && (
        <input
          type="range"
          className="canvas-menu__slider"
          aria-label="Offset slider"
          min={roundOffset(extent.min)}
          max={roundOffset(extent.max)}
          step={OFFSET_STEP_M}
          value={clip.offsetM}
          onChange={(event) => changeOffset(event.target.value)}
        />
      )}
      {offsetInvalid && (
        <p className="canvas-menu__error" role="alert">
          Offset must be a number.
        </p>
      )}
      <Segmented
        label="Transform mode"
        options={CLIP_TRANSFORM_MODES}
        value={mode}
        labelOf={(option) => MODE_LABELS[option]}
        onChange={onModeChange}
      />
      <div className="canvas-menu__actions">
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => setClip({ ...DEFAULT_CLIP, enabled: clip.enabled })}
        >
          Reset
        </button>
      </div>
    </div>
  )
}
