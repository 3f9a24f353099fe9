import { useAtom, useAtomValue } from 'jotai'
import { useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { EMPTY_SETUP_MESSAGE } from '../../../../../domain/setupValidation.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { viewportEngineAtom } from '../../../../state/viewportAtoms.ts'
import { useDiscretizationMessages } from '../discretization/discretizationModel.ts'
import { useSetupEditable } from '../forms/fields/editable.ts'
import {
  useCalcDomainQuery,
  useMaterialsQuery,
  usePartsQuery,
  useSettingsQuery,
  useSetupSensorsQuery,
  useSetupVolumeClipsQuery,
} from '../queries/setupQueries.ts'
import { DeleteSetupObject } from '../objects/DeleteSetupObject.tsx'
import { usePeriodicsQuery, useRefinementsQuery } from '../objects/objectQueries.ts'
import { parseObjectId, setupSelectionAtom } from '../state/setupAtoms.ts'
import { ExplorerRow, type RowControls } from './ExplorerRow.tsx'
import {
  NO_REFINEMENTS,
  PART_ROLE_LABELS,
  explorerSections,
  neighbourOf,
  nextSelection,
  orderedEntries,
  partWarnings,
  selectModeOf,
  type ExplorerEntry,
} from './explorerModel.ts'
import { useOpenObject } from './openObject.ts'
import { DeleteSingle } from './DeleteSingle.tsx'
import { PartRow } from './PartRow.tsx'
import { SensorsAndClips } from './SensorClipSections.tsx'
import { SetupObjectDialogs } from './SetupObjectDialogs.tsx'
import './setupExplorer.css'

/**
 * The object explorer of the Setup view (spec/setup.md §2): the coordinate system, parts by role,
 * materials, refinements, sensors, volume clips and the single items (Deletion Boundary, Periodic
 * Boundary, Air Drag Domain). Click selects, ctrl/meta-click toggles, shift-click selects a range,
 * double click or Enter opens the object's form; arrow keys move, Delete arms the row's delete.
 */
export function SetupExplorer({ simulation }: { simulation: Simulation }) {
  const parts = usePartsQuery(simulation.id)
  const materials = useMaterialsQuery(simulation.id)
  const sensors = useSetupSensorsQuery(simulation.id)
  const clips = useSetupVolumeClipsQuery(simulation.id)
  const calcDomain = useCalcDomainQuery(simulation.id)
  const refinementZones = useRefinementsQuery(simulation.id)
  const periodics = usePeriodicsQuery(simulation.id)
  const settings = useSettingsQuery(simulation.id).data?.settings ?? simulation.settings
  const discretization = useDiscretizationMessages(simulation.id).byPart
  const setup = useSetupEditable()
  const [selection, setSelection] = useAtom(setupSelectionAtom)
  const openObject = useOpenObject(simulation)
  const engine = useAtomValue(viewportEngineAtom)
  // Opening an object also frames it in the 3D view.
  const open = (id: string) => {
    engine?.dispatch({ type: 'setup_focus', id })
    openObject(id)
  }
  const anchorRef = useRef<string | null>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const [focused, setFocused] = useState<string | null>(null)

  const sections = useMemo(
    () =>
      explorerSections({
        parts: parts.data ?? [],
        materials: materials.data ?? [],
        sensors: sensors.data ?? [],
        volumeClips: clips.data ?? [],
        calcDomain: calcDomain.data,
        airDrag: settings.airDrag,
        refinementZones: refinementZones.data ?? [],
        periodic: periodics.data?.[0] ?? null,
      }),
    [
      parts.data,
      materials.data,
      sensors.data,
      clips.data,
      calcDomain.data,
      settings.airDrag,
      refinementZones.data,
      periodics.data,
    ],
  )
  const ordered = useMemo(() => orderedEntries(sections).map((e) => e.id), [sections])

  const select = (id: string, mode: ReturnType<typeof selectModeOf>) => {
    setSelection(nextSelection(selection, ordered, id, mode, anchorRef.current))
    if (mode !== 'range') anchorRef.current = id
    setFocused(id)
  }
  const deselect = (id: string) => setSelection((current) => current.filter((s) => s !== id))
  const focusEntry = (id: string) =>
    listRef.current?.querySelector<HTMLElement>(`[data-explorer-id="${id}"]`)?.focus()

  const onKeyDown = (id: string, event: KeyboardEvent<HTMLButtonElement>) => {
    const step = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity }[event.key]
    if (step !== undefined) {
      event.preventDefault()
      const next = Number.isFinite(step)
        ? neighbourOf(ordered, id, step)
        : ((step > 0 ? ordered.at(-1) : ordered[0]) ?? null)
      if (next === null) return
      select(next, event.shiftKey ? 'range' : 'replace')
      focusEntry(next)
    } else if (event.key === 'Enter') {
      event.preventDefault()
      open(id)
    } else if (event.key === 'Delete') {
      // Arms the row's delete button (the first of its two clicks); Enter there confirms.
      const button = event.currentTarget
        .closest('li')
        ?.querySelector<HTMLButtonElement>('.explorer__delete:not(:disabled)')
      if (!button) return
      event.preventDefault()
      button.focus()
      button.click()
    }
  }

  const controls: RowControls = {
    selected: (id) => selection.includes(id),
    tabStop:
      focused !== null && ordered.includes(focused)
        ? focused
        : (selection.find((id) => ordered.includes(id)) ?? ordered[0] ?? null),
    onClick: (id, event: MouseEvent) => select(id, selectModeOf(event)),
    onOpen: (id) => open(id),
    onKeyDown,
  }
  const partById = new Map((parts.data ?? []).map((p) => [p.id, p]))
  const partOf = (entry: ExplorerEntry) => partById.get(parseObjectId(entry.id).id ?? -1)
  const noParts = parts.isSuccess && parts.data.length === 0

  const partRow = (entry: (typeof sections.refinements)[number]) => {
    if (parseObjectId(entry.id).kind === 'refinement')
      return (
        <ExplorerRow key={entry.id} entry={entry} controls={controls}>
          <DeleteSetupObject
            simulation={simulation}
            entry={entry}
            onDeleted={() => deselect(entry.id)}
          />
        </ExplorerRow>
      )
    const part = partOf(entry)
    return part ? (
      <PartRow
        key={entry.id}
        simulation={simulation}
        entry={entry}
        part={part}
        warnings={partWarnings(part, discretization.get(part.id))}
        controls={controls}
        onSelect={(id) => select(id, 'replace')}
      />
    ) : null
  }

  return (
    <div className="setup-explorer" ref={listRef}>
      {!setup.editable && setup.reason && <p className="setup-explorer__note">{setup.reason}</p>}
      <ul className="setup-explorer__list" aria-label="Coordinate system">
        <ExplorerRow entry={sections.coordinateSystem} controls={controls} />
      </ul>

      <section className="setup-explorer__section" aria-labelledby="setup-explorer-parts">
        <h2 className="setup-explorer__heading" id="setup-explorer-parts">
          Parts
        </h2>
        {parts.isError && (
          <p className="field__error">Could not load the parts: {messageOf(parts.error)}</p>
        )}
        {noParts && <p className="setup-explorer__empty">{EMPTY_SETUP_MESSAGE}</p>}
        {(Object.keys(PART_ROLE_LABELS) as (keyof typeof PART_ROLE_LABELS)[]).map((role) =>
          sections.parts[role].length === 0 ? null : (
            <div key={role} className="setup-explorer__group">
              <h3 className="setup-explorer__subheading">{PART_ROLE_LABELS[role]}</h3>
              <ul className="setup-explorer__list" aria-label={PART_ROLE_LABELS[role]}>
                {sections.parts[role].map(partRow)}
              </ul>
            </div>
          ),
        )}
      </section>

      <section className="setup-explorer__section" aria-labelledby="setup-explorer-materials">
        <h2 className="setup-explorer__heading" id="setup-explorer-materials">
          Materials
        </h2>
        <ul className="setup-explorer__list" aria-labelledby="setup-explorer-materials">
          {sections.materials.map((entry) => (
            <ExplorerRow key={entry.id} entry={entry} controls={controls}>
              <DeleteSingle
                simulation={simulation}
                entry={entry}
                onDeleted={() => deselect(entry.id)}
              />
            </ExplorerRow>
          ))}
        </ul>
      </section>

      <section className="setup-explorer__section" aria-labelledby="setup-explorer-refinements">
        <h2 className="setup-explorer__heading" id="setup-explorer-refinements">
          Refinements
        </h2>
        {sections.refinements.length === 0 ? (
          <p className="setup-explorer__empty">{NO_REFINEMENTS}</p>
        ) : (
          <ul className="setup-explorer__list" aria-labelledby="setup-explorer-refinements">
            {sections.refinements.map(partRow)}
          </ul>
        )}
      </section>

      <SensorsAndClips simulation={simulation} sections={sections} controls={controls} />

      <section className="setup-explorer__section" aria-labelledby="setup-explorer-domain">
        <h2 className="setup-explorer__heading" id="setup-explorer-domain">
          Domain
        </h2>
        <ul className="setup-explorer__list" aria-labelledby="setup-explorer-domain">
          {sections.special.map((entry) => (
            <ExplorerRow key={entry.id} entry={entry} controls={controls}>
              <DeleteSingle
                simulation={simulation}
                entry={entry}
                active={calcDomain.data?.active ?? false}
                onDeleted={() => deselect(entry.id)}
              />
              <DeleteSetupObject
                simulation={simulation}
                entry={entry}
                onDeleted={() => deselect(entry.id)}
              />
            </ExplorerRow>
          ))}
        </ul>
      </section>
      <SetupObjectDialogs simulation={simulation} />
    </div>
  )
}
