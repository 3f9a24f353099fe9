import { useAtom, useAtomValue } from 'jotai'
import { MATERIAL_DISPLAY_MODES, PART_VIEW_MODES } from '../../../../../domain/results.ts'
import {
  materialViewsAtom,
  partViewsAtom,
  viewportEngineAtom,
  type MaterialView,
  type PartView,
} from '../../../../state/viewportAtoms.ts'
import {
  DEFAULT_MATERIAL_DISPLAY,
  DEFAULT_OPEN_BOUNDARY_VIEW,
  DEFAULT_WALL_VIEW,
  MATERIAL_DISPLAY_LABELS,
  PART_VIEW_LABELS,
  type ExplorerObject,
  type OutputObjectGroups,
  type PartViewMode,
} from './explorerModel.ts'

/** Fluids per material with their display mode; walls and open boundaries with their view. */
export function OutputObjectsSection({ groups }: { groups: OutputObjectGroups }) {
  const empty = groups.fluids.length + groups.walls.length + groups.openBoundaries.length === 0
  return (
    <section className="explorer__section" aria-label="Output objects">
      <h2 className="explorer__heading">Output objects</h2>
      {empty && <p className="explorer__empty">No objects in this output.</p>}
      {groups.fluids.length > 0 && (
        <ObjectGroup title="Fluids">
          {groups.fluids.map((object) => (
            <FluidRow key={object.objectId} object={object} />
          ))}
        </ObjectGroup>
      )}
      {groups.walls.length > 0 && (
        <ObjectGroup title="Walls">
          {groups.walls.map((object) => (
            <PartRow key={object.objectId} object={object} defaultMode={DEFAULT_WALL_VIEW} />
          ))}
        </ObjectGroup>
      )}
      {groups.openBoundaries.length > 0 && (
        <ObjectGroup title="Open boundaries">
          {groups.openBoundaries.map((object) => (
            <PartRow
              key={object.objectId}
              object={object}
              defaultMode={DEFAULT_OPEN_BOUNDARY_VIEW}
            />
          ))}
        </ObjectGroup>
      )}
    </section>
  )
}

function ObjectGroup({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="explorer__group">
      <h3 className="explorer__subheading">{title}</h3>
      <ul className="explorer__list" aria-label={title}>
        {children}
      </ul>
    </div>
  )
}

/** One object's row: visibility checkbox, name and a mode select (the fluid and part rows differ only in modes). */
function ObjectViewRow<Mode extends string>({
  name,
  visible,
  mode,
  modes,
  labels,
  modeLabel,
  onChange,
}: {
  name: string
  visible: boolean
  mode: Mode
  modes: readonly Mode[]
  labels: Record<Mode, string>
  /** Accessible name of the select, e.g. 'Display mode of Water'. */
  modeLabel: string
  onChange: (visible: boolean, mode: Mode) => void
}) {
  return (
    <li className="explorer__item">
      <input
        type="checkbox"
        className="explorer__visibility"
        aria-label={`Show ${name}`}
        checked={visible}
        onChange={(event) => onChange(event.target.checked, mode)}
      />
      <span className="explorer__name" title={name}>
        {name}
      </span>
      <select
        className="select select--compact explorer__mode"
        aria-label={modeLabel}
        value={mode}
        onChange={(event) => onChange(visible, event.target.value as Mode)}
      >
        {modes.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </select>
    </li>
  )
}

function FluidRow({ object }: { object: ExplorerObject }) {
  const engine = useAtomValue(viewportEngineAtom)
  const [views, setViews] = useAtom(materialViewsAtom)
  const view: MaterialView = views[object.objectId] ?? {
    visible: true,
    displayMode: DEFAULT_MATERIAL_DISPLAY,
  }
  const apply = (next: MaterialView) => {
    setViews((current) => ({ ...current, [object.objectId]: next }))
    engine?.dispatch({
      type: 'set_material_display',
      objectId: object.objectId,
      mode: next.displayMode,
      visible: next.visible,
    })
  }
  return (
    <ObjectViewRow
      name={object.name}
      visible={view.visible}
      mode={view.displayMode}
      modes={MATERIAL_DISPLAY_MODES}
      labels={MATERIAL_DISPLAY_LABELS}
      modeLabel={`Display mode of ${object.name}`}
      onChange={(visible, displayMode) => apply({ visible, displayMode })}
    />
  )
}

function PartRow({ object, defaultMode }: { object: ExplorerObject; defaultMode: PartViewMode }) {
  const engine = useAtomValue(viewportEngineAtom)
  const [views, setViews] = useAtom(partViewsAtom)
  const view: PartView = views[object.objectId] ?? { visible: true, viewMode: defaultMode }
  const apply = (next: PartView) => {
    setViews((current) => ({ ...current, [object.objectId]: next }))
    engine?.dispatch({
      type: 'set_part_view',
      objectId: object.objectId,
      mode: next.viewMode,
      visible: next.visible,
    })
  }
  return (
    <ObjectViewRow
      name={object.name}
      visible={view.visible}
      mode={view.viewMode}
      modes={PART_VIEW_MODES}
      labels={PART_VIEW_LABELS}
      modeLabel={`View of ${object.name}`}
      onChange={(visible, viewMode) => apply({ visible, viewMode })}
    />
  )
}
