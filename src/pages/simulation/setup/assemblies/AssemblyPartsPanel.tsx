import { useId, useRef, useState, type KeyboardEvent } from 'react'
import type { ComponentType } from '../../../../../domain/parts.ts'
import type { AssemblyPart } from '../../../../../domain/tessellation.ts'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import { dropTargetValue, type DropTarget } from './assemblyDrag.ts'
import {
  COMPONENT_TYPE_LABELS,
  SOLID_COMPONENT_TYPES,
  WIZARD_TABS,
  partNodeNames,
  partsOfTab,
  type WizardTab,
} from './wizardModel.ts'

/** Shown in a tab without parts. */
export const NO_PARTS = 'No parts yet: import components from the tree.'
/** The create area's text. */
export const CREATE_AREA_TEXT = 'Drop components here to create a part'

/**
 * The parts of step 1 (spec/setup.md §2) in the tabs Solids and Inlets/Outlets: each part can be
 * renamed, deleted (double click, as elsewhere in the editor) and given a component type (rigid by
 * default), and takes dropped components; the create area makes a new part of dropped ones. For
 * the keyboard, 'Add checked' on a part and the create area (a button) take the checked nodes.
 */
export function AssemblyPartsPanel(props: {
  parts: readonly AssemblyPart[]
  labels: ReadonlyMap<string, string>
  tab: WizardTab
  onTabChange: (tab: WizardTab) => void
  checkedCount: number
  /** The drop target under a drag. */
  dragOver: DropTarget | null
  dragging: boolean
  duplicateMessages: readonly string[]
  disabled: boolean
  onRename: (part: AssemblyPart, name: string) => void
  onTypeChange: (part: AssemblyPart, type: ComponentType) => void
  onDelete: (part: AssemblyPart) => void
  onAddChecked: (part: AssemblyPart) => void
  onCreateFromChecked: () => void
}) {
  const { tab, disabled, checkedCount, dragOver } = props
  const baseId = useId()
  const tabIds = (Object.keys(WIZARD_TABS) as WizardTab[]).map((key) => ({
    key,
    tabId: `${baseId}-tab-${key}`,
    panelId: `${baseId}-panel-${key}`,
  }))
  const tabRefs = useRef(new Map<WizardTab, HTMLButtonElement>())
  const shown = partsOfTab(props.parts, tab)
  const current = tabIds.find((t) => t.key === tab) ?? tabIds[0]
  const over = (target: DropTarget) =>
    dragOver !== null && dropTargetValue(dragOver) === dropTargetValue(target)

  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    event.preventDefault()
    const at = tabIds.findIndex((t) => t.key === tab)
    const next = tabIds[(at + (event.key === 'ArrowRight' ? 1 : tabIds.length - 1)) % tabIds.length]
    if (!next) return
    props.onTabChange(next.key)
    tabRefs.current.get(next.key)?.focus()
  }

  return (
    <section className="assembly-parts" aria-label="Parts">
      <div className="tabs assembly-parts__tabs" role="tablist" aria-label="Part kinds">
        {tabIds.map(({ key, tabId, panelId }) => (
          <button
            key={key}
            ref={(element) => {
              if (element) tabRefs.current.set(key, element)
              else tabRefs.current.delete(key)
            }}
            id={tabId}
            type="button"
            role="tab"
            aria-selected={tab === key}
            aria-controls={panelId}
            tabIndex={tab === key ? 0 : -1}
            className={`tabs__tab${tab === key ? ' tabs__tab--active' : ''}`}
            onClick={() => props.onTabChange(key)}
            onKeyDown={onTabKey}
          >
            {WIZARD_TABS[key]} ({partsOfTab(props.parts, key).length})
          </button>
        ))}
      </div>
      <div
        id={current?.panelId}
        role="tabpanel"
        aria-labelledby={current?.tabId}
        className="assembly-parts__panel"
      >
        {props.duplicateMessages.length > 0 && (
          <ul className="assembly-parts__duplicates" aria-label="Duplicate components">
            {props.duplicateMessages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
        {shown.length === 0 ? (
          <p className="assembly-parts__empty">{NO_PARTS}</p>
        ) : (
          <ul className="assembly-parts__list" aria-label={`${WIZARD_TABS[tab]} parts`}>
            {shown.map((part) => (
              <PartRow
                key={part.id}
                part={part}
                nodeNames={partNodeNames(part, props.labels)}
                tab={tab}
                over={over({ kind: 'part', partId: part.id })}
                disabled={disabled}
                checkedCount={checkedCount}
                onRename={(name) => props.onRename(part, name)}
                onTypeChange={(type) => props.onTypeChange(part, type)}
                onDelete={() => props.onDelete(part)}
                onAddChecked={() => props.onAddChecked(part)}
              />
            ))}
          </ul>
        )}
        <button
          type="button"
          className={`assembly-create${over({ kind: 'create' }) ? ' assembly-create--over' : ''}${props.dragging ? ' assembly-create--dragging' : ''}`}
          {...{ 'data-assembly-drop': dropTargetValue({ kind: 'create' }) }}
          aria-disabled={disabled || checkedCount === 0 || undefined}
          aria-describedby={`${baseId}-create-hint`}
          onClick={() => !disabled && checkedCount > 0 && props.onCreateFromChecked()}
        >
          <span className="assembly-create__title">{CREATE_AREA_TEXT}</span>
          <span id={`${baseId}-create-hint`} className="assembly-create__hint">
            {checkedCount > 0
              ? `Or press to make one part of the ${checkedCount} checked.`
              : 'Or check components and press here.'}
          </span>
        </button>
      </div>
    </section>
  )
}

function PartRow(props: {
  part: AssemblyPart
  nodeNames: string[]
  tab: WizardTab
  over: boolean
  disabled: boolean
  checkedCount: number
  onRename: (name: string) => void
  onTypeChange: (type: ComponentType) => void
  onDelete: () => void
  onAddChecked: () => void
}) {
  const { part, disabled } = props
  const nodes = props.nodeNames.join(', ')
  return (
    <li
      className={`assembly-part${props.over ? ' assembly-part--over' : ''}`}
      {...{ 'data-assembly-drop': dropTargetValue({ kind: 'part', partId: part.id }) }}
    >
      <div className="assembly-part__top">
        <PartNameInput name={part.name} disabled={disabled} onCommit={props.onRename} />
        {props.tab === 'solids' ? (
          <select
            className="input input--small assembly-part__type"
            aria-label={`Component type of ${part.name}`}
            value={part.componentType}
            disabled={disabled}
            onChange={(event) => props.onTypeChange(event.target.value as ComponentType)}
          >
            {SOLID_COMPONENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {COMPONENT_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        ) : (
          <span className="tag">{COMPONENT_TYPE_LABELS.openboundary}</span>
        )}
        <ArmedDeleteButton
          label={`Delete ${part.name}`}
          disabled={disabled}
          onConfirm={props.onDelete}
        />
      </div>
      <div className="assembly-part__bottom">
        <span className="assembly-part__nodes" title={nodes}>
          {props.nodeNames.length} {props.nodeNames.length === 1 ? 'component' : 'components'}:{' '}
          {nodes}
        </span>
        <button
          type="button"
          className="button button--ghost button--small"
          aria-label={`Add checked components to ${part.name}`}
          disabled={disabled || props.checkedCount === 0}
          onClick={props.onAddChecked}
        >
          Add checked
        </button>
      </div>
    </li>
  )
}

/** A part's name, edited in place: committed on blur or Enter, Escape or an empty name reverts. */
function PartNameInput(props: {
  name: string
  disabled: boolean
  onCommit: (name: string) => void
}) {
  const [draft, setDraft] = useState<string | null>(null)
  const commit = () => {
    if (draft === null) return
    setDraft(null)
    const name = draft.trim()
    if (name !== '' && name !== props.name) props.onCommit(name)
  }
  return (
    <input
      className="input input--small assembly-part__name"
      aria-label={`Name of ${props.name}`}
      value={draft ?? props.name}
      maxLength={100}
      disabled={props.disabled}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault()
          commit()
        }
        if (event.key === 'Escape' && draft !== null) {
          event.stopPropagation()
          setDraft(null)
        }
      }}
    />
  )
}
