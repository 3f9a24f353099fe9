import { useAtom } from 'jotai'
import { useId, useState } from 'react'
import { CLIP_AXES } from '../../../../domain/results.ts'
import { DEFAULT_CLIP, clipAtom } from '../../../state/viewportAtoms.ts'

/** Steps of the offset arrows, in metres. */
const OFFSET_STEP_M = 0.01

/** The Clip panel: on/off, orientation x/y/z, Flipped, Offset in m, Reset. */
export function ClipControls() {
  const [clip, setClip] = useAtom(clipAtom)
  const [offsetText, setOffsetText] = useState(String(clip.offsetM))
  const [shownOffsetM, setShownOffsetM] = useState(clip.offsetM)
  const ids = { title: useId(), enabled: useId(), flipped: useId(), offset: useId() }

  // The offset changed elsewhere (Reset): show it, unless the field already says the same.
  if (shownOffsetM !== clip.offsetM) {
    setShownOffsetM(clip.offsetM)
    if (Number(offsetText) !== clip.offsetM) setOffsetText(String(clip.offsetM))
  }

  return (
    <section className="results__group" aria-labelledby={ids.title}>
      <h3 className="results__group-title" id={ids.title}>
        Clip
      </h3>
      <div className="results__row">
        <label className="results__label" htmlFor={ids.enabled}>
          <input
            id={ids.enabled}
            type="checkbox"
            checked={clip.enabled}
            onChange={(event) => setClip({ ...clip, enabled: event.target.checked })}
          />
          Clipping plane
        </label>
        <div className="segmented" role="group" aria-label="Orientation">
          {CLIP_AXES.map((axis) => (
            <button
              key={axis}
              type="button"
              className="segmented__option"
              aria-pressed={clip.axis === axis}
              onClick={() => setClip({ ...clip, axis })}
            >
              {axis}
            </button>
          ))}
        </div>
        <label className="results__label" htmlFor={ids.flipped}>
          <input
            id={ids.flipped}
            type="checkbox"
            role="switch"
            checked={clip.flipped}
            onChange={(event) => setClip({ ...clip, flipped: event.target.checked })}
          />
          Flipped
        </label>
      </div>
      <div className="results__row">
        <label className="results__label" htmlFor={ids.offset}>
          Offset (m)
        </label>
        <input
          id={ids.offset}
          className="input input--small results__number"
          type="number"
          step={OFFSET_STEP_M}
          value={offsetText}
          onChange={(event) => {
            setOffsetText(event.target.value)
            const value = Number(event.target.value)
            if (event.target.value.trim() !== '' && Number.isFinite(value))
              setClip({ ...clip, offsetM: value })
          }}
        />
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => setClip({ ...DEFAULT_CLIP, enabled: clip.enabled })}
        >
          Reset
        </button>
      </div>
    </section>
  )
}
