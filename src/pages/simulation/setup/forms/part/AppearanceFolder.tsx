import { loadsPointcloud, type Appearance } from '../../../../../../domain/parts.ts'
import { ColorField } from '../fields/ColorField.tsx'
import { RadioGroupField, SwitchField } from '../fields/ChoiceFields.tsx'
import { issuesOfField } from '../fields/FieldIssues.tsx'
import { NumberField } from '../fields/NumberField.tsx'
import { MIXED_PLACEHOLDER, POINTCLOUD_NOT_EDITABLE, shared } from './partSelection.ts'
import type { PartFolderProps } from './usePartEdit.ts'

/** Point clouds are loaded for fillings and flows only (spec/setup.md §3). */
export const POINTCLOUD_FLUIDS_ONLY = 'Point clouds are shown for fluid fillings and flows.'

/** How a part is drawn in the view (spec/setup.md §2 part display modes). */
export const DISPLAY_MODES = ['surface', 'wireframe', 'translucent'] as const
export type DisplayMode = (typeof DISPLAY_MODES)[number]
export const DISPLAY_MODE_LABELS: Record<DisplayMode, string> = {
  surface: 'Surface',
  wireframe: 'Wireframe',
  translucent: 'Translucent',
}

/** A part's display mode from its appearance flags. */
export function displayModeOf(
  appearance: Pick<Appearance, 'wireframe' | 'translucent'>,
): DisplayMode {
  if (appearance.wireframe) return 'wireframe'
  if (appearance.translucent) return 'translucent'
  return 'surface'
}

/** The appearance flags of a display mode. */
export function displayModeFlags(mode: DisplayMode): Pick<Appearance, 'wireframe' | 'translucent'> {
  return { wireframe: mode === 'wireframe', translucent: mode === 'translucent' }
}

/**
 * The Appearance folder: colour ('#rrggbb'), opacity 0 … 1, surface / wireframe / translucent,
 * visibility and the discretized point cloud. Point cloud parts cannot be edited.
 */
export function AppearanceFolder({ parts, edit, issues }: PartFolderProps) {
  const locked = parts.some((p) => p.shape.type === 'pointcloud')
  const lock = locked ? { disabled: true, disabledReason: POINTCLOUD_NOT_EDITABLE } : {}
  const colour = shared(parts, (p) => p.appearance.color)
  const opacity = shared(parts, (p) => p.appearance.opacity)
  const mode = shared(parts, (p) => displayModeOf(p.appearance))
  const visibility = shared(parts, (p) => p.appearance.visibility)
  const pointcloud = shared(parts, (p) => p.appearance.showPointcloud)
  const loadsCloud = parts.every(loadsPointcloud)
  const on = (field: string) => issuesOfField(issues, `part.appearance.${field}`)
  const save = (appearance: Partial<Appearance>) => edit(() => ({ appearance }))
  return (
    <div className="property-form">
      {locked && <p className="property-form__note">{POINTCLOUD_NOT_EDITABLE}</p>}
      <ColorField
        label="Colour"
        value={colour.value}
        placeholder={colour.mixed ? MIXED_PLACEHOLDER : undefined}
        issues={on('color')}
        onCommit={(color) => save({ color })}
        {...lock}
      />
      <NumberField
        label="Opacity"
        unit=""
        value={opacity.value}
        placeholder={opacity.mixed ? MIXED_PLACEHOLDER : undefined}
        hint="Of the Translucent display: 0 (invisible) to 1 (opaque)."
        issues={on('opacity')}
        onCommit={(value) => save({ opacity: value })}
        {...lock}
      />
      <RadioGroupField
        label="Display"
        value={mode.value}
        options={DISPLAY_MODES.map((m) => ({ value: m, label: DISPLAY_MODE_LABELS[m] }))}
        hint={mode.mixed ? 'Mixed: the selected parts differ.' : undefined}
        onChange={(next) => save(displayModeFlags(next))}
        {...lock}
      />
      <SwitchField
        label="Visible"
        checked={visibility.value ?? false}
        mixed={visibility.mixed}
        onChange={(visible) => save({ visibility: visible })}
        {...lock}
      />
      <SwitchField
        label="Show point cloud"
        hint="The particles of the latest discretization."
        checked={pointcloud.value ?? false}
        mixed={pointcloud.mixed}
        onChange={(show) => save({ showPointcloud: show })}
        {...(loadsCloud ? lock : { disabled: true, disabledReason: POINTCLOUD_FLUIDS_ONLY })}
      />
    </div>
  )
}
