import { useAtom, useAtomValue } from 'jotai'
import { unitSymbol } from '../../../../../domain/units.ts'
import type { LooseVec3 } from '../../../../../domain/vector.ts'
import { coordinateSystemAtom, viewportEngineAtom } from '../../../../state/viewportAtoms.ts'
import {
  AXIS_SIDES,
  CUBE_FACE_NAMES,
  axisSideLabel,
  orientationFromSide,
} from '../../../../components/viewport/chrome/gizmoMath.ts'
import { AXIS_COLOURS } from '../../../../components/viewport/chrome/ViewGizmos.tsx'
import { SwitchField } from './fields/ChoiceFields.tsx'
import { SetupEditableContext, type SetupEditable } from './fields/editable.ts'
import { issuesOfField } from './fields/FieldIssues.tsx'
import { VectorField } from './fields/VectorField.tsx'
import { formatVector } from './formText.ts'
import type { SideFormProps } from './registry.ts'
import { useSettingsEdit } from './settings/useSettingsEdit.ts'

const VIEW_SETTING: SetupEditable = { editable: true, reason: null }

/** Why the view buttons are off. */
export const VIEW_NOT_READY = 'The 3D view is not running.'

/** The axis colours of the view in words (x red, y green, z blue). */
const AXIS_COLOUR_NAMES = { x: 'red', y: 'green', z: 'blue' } as const

/** 'Up' in the view's words: the axis opposite to gravity, when gravity lies along one. */
export function upFromGravity(gravity: LooseVec3): string | null {
  const components = gravity.map((c) => c ?? 0)
  const nonZero = components.flatMap((c, i) => (c !== 0 ? [i] : []))
  const axis = nonZero[0]
  if (nonZero.length !== 1 || axis === undefined) return null
  const sign = (components[axis] ?? 0) < 0 ? '+' : '−'
  return `${sign}${['X', 'Y', 'Z'][axis] ?? ''}`
}

/**
 * The coordinate system (spec/setup.md §2 "Coordinate-system origin toggle"): whether the origin
 * axes show in the view, what their colours mean, views along each axis, and gravity, the physical
 * frame of the setup (which way is up).
 */
export function CoordinateSystemForm({ simulation }: SideFormProps<'coordinateSystem'>) {
  const [visible, setVisible] = useAtom(coordinateSystemAtom)
  const engine = useAtomValue(viewportEngineAtom)
  const { settings, issues, save } = useSettingsEdit(simulation.id)
  const up = upFromGravity(settings.gravity)
  const show = (next: boolean) => {
    setVisible(next)
    engine?.dispatch({ type: 'set_coordinate_system', visible: next })
  }
  return (
    <div className="property-form">
      {/* A view setting, not a setup edit: on even while the setup is locked. */}
      <SetupEditableContext.Provider value={VIEW_SETTING}>
        <SwitchField
          label="Show origin axes"
          checked={visible}
          hint="The x, y and z axes drawn at the origin of the view."
          onChange={show}
        />
      </SetupEditableContext.Provider>
      <ul className="axis-legend" aria-label="Axis colours">
        {(['x', 'y', 'z'] as const).map((axis) => (
          <li key={axis}>
            <span
              className="axis-legend__swatch"
              style={{ background: AXIS_COLOURS[axis] }}
              aria-hidden="true"
            />
            {axis}: {AXIS_COLOUR_NAMES[axis]}
          </li>
        ))}
      </ul>
      <fieldset className="property-form__section">
        <legend>View along an axis</legend>
        <div className="view-buttons" role="group" aria-label="View along an axis">
          {AXIS_SIDES.map((side) => {
            const label = axisSideLabel(side)
            const face = CUBE_FACE_NAMES[`${side.positive ? '+' : '-'}${side.axis}`] ?? label
            return (
              <button
                key={label}
                type="button"
                className="button button--secondary button--small"
                aria-label={`View from ${label} (${face})`}
                title={engine ? undefined : VIEW_NOT_READY}
                disabled={!engine}
                onClick={() =>
                  engine?.dispatch({ type: 'view_orientation', ...orientationFromSide(side) })
                }
              >
                {label}
              </button>
            )
          })}
          <button
            type="button"
            className="button button--secondary button--small"
            title={engine ? undefined : VIEW_NOT_READY}
            disabled={!engine}
            onClick={() => engine?.dispatch({ type: 'fit_view' })}
          >
            Fit view
          </button>
        </div>
      </fieldset>
      <fieldset className="property-form__section">
        <legend>Physical frame</legend>
        <VectorField
          label="Gravity"
          unit={unitSymbol('acceleration')}
          value={settings.gravity}
          issues={issuesOfField(issues, 'settings.gravity')}
          hint={
            up
              ? `Up is ${up}: gravity ${formatVector(settings.gravity, unitSymbol('acceleration'))}.`
              : 'Gravity does not lie along one axis.'
          }
          onCommit={(gravity) => save({ gravity })}
        />
      </fieldset>
    </div>
  )
}
