import { useAtom, useSetAtom } from 'jotai'
import { useEffect } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { SETUP_TOOLS, type SetupTool } from '../../../../../engine/setupProtocol.ts'
import { Tooltip } from '../../../../components/Tooltip.tsx'
import { isEditingField } from '../../../../lib/keyboard.ts'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { selectedParts } from '../forms/part/partSelection.ts'
import { useUpdateCalcDomainMutation } from '../queries/propertyMutations.ts'
import { useCalcDomainQuery, usePartsQuery, useSettingsQuery } from '../queries/setupQueries.ts'
import {
  PART_FOLDER_LABELS,
  setupObjectDialogAtom,
  setupSelectionAtom,
  setupToolAtom,
  sideFormAtom,
} from '../state/setupAtoms.ts'
import { usePeriodicsQuery, useRefinementsQuery } from '../objects/objectQueries.ts'
import { useAddSetupObject } from '../objects/useAddSetupObject.ts'
import { AddMenu } from './AddMenu.tsx'
import {
  addMenuEntries,
  domainBoxAround,
  folderStates,
  formOfAddEntry,
  formOfFolder,
  type AddEntryKey,
} from './toolbarModel.ts'
import './toolbar.css'

const TOOL_LABELS: Record<SetupTool, string> = {
  select: 'Select',
  translate: 'Translate (t)',
  rotate: 'Rotate (r)',
}

/** Keys that pick a gizmo tool (spec/setup.md §2: translate and rotate modes, keys t and r). */
export const TOOL_KEYS: Record<string, SetupTool> = { t: 'translate', r: 'rotate' }

/** Keys t and r pick the gizmo tool, except while typing in a field or with a modifier held. */
function useToolKeys(enabled: boolean) {
  const setTool = useSetAtom(setupToolAtom)
  useEffect(() => {
    if (!enabled) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isEditingField(event.target)) return
      const tool = TOOL_KEYS[event.key.toLowerCase()]
      if (tool) setTool(tool)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [enabled, setTool])
}

/** The gizmo tools: select, translate, rotate (moving parts needs an editable setup). */
function ToolButtons() {
  const [tool, setTool] = useAtom(setupToolAtom)
  const setup = useSetupEditable()
  useToolKeys(setup.editable)
  return (
    <div className="segmented setup-toolbar__tools" role="group" aria-label="Transform tool">
      {SETUP_TOOLS.map((option) => {
        const disabled = option !== 'select' && !setup.editable
        const button = (
          <button
            key={option}
            type="button"
            className="segmented__option"
            aria-pressed={tool === option}
            aria-disabled={disabled || undefined}
            onClick={() => {
              if (!disabled) setTool(option)
            }}
          >
            {TOOL_LABELS[option]}
          </button>
        )
        return disabled && setup.reason ? (
          <Tooltip key={option} content={setup.reason}>
            {button}
          </Tooltip>
        ) : (
          button
        )
      })}
    </div>
  )
}

/**
 * The Setup toolbar (spec/setup.md §2): the Add menu (parts, sensor, volume clip, domain boundary
 * … then Physics and Settings), the secondary toolbar with the folders of the selected parts, and
 * the gizmo tools (keys t and r).
 */
export function SetupToolbar({ simulation }: { simulation: Simulation }) {
  const setup = useSetupEditable()
  const settings = useSettingsQuery(simulation.id).data?.settings ?? simulation.settings
  const calcDomain = useCalcDomainQuery(simulation.id).data
  const parts = usePartsQuery(simulation.id).data ?? []
  const [selection, setSelection] = useAtom(setupSelectionAtom)
  const [form, setForm] = useAtom(sideFormAtom)
  const setDialog = useSetAtom(setupObjectDialogAtom)
  const createDomain = useUpdateCalcDomainMutation(simulation.id)
  const periodics = usePeriodicsQuery(simulation.id).data ?? []
  const zones = useRefinementsQuery(simulation.id).data ?? []
  const addObject = useAddSetupObject(
    simulation,
    parts,
    zones.map((z) => z.name),
  )
  const entries = addMenuEntries({
    setup,
    state: simulation.state,
    settings,
    calcDomainActive: calcDomain?.active ?? settings.calcDomainActive,
    periodicExists: periodics.length > 0,
  })
  const selected = selectedParts(selection, parts)
  const folders = selected.length > 0 ? folderStates(selected) : []

  const onAdd = (key: AddEntryKey) => {
    const next = formOfAddEntry(key)
    if (next) setForm(next)
    else if (addObject(key)) return
    else if (key === 'sensor') setDialog({ kind: 'sensor', sensorId: null })
    else if (key === 'volume_clip') setDialog({ kind: 'volumeClip', clipId: null })
    else if (key === 'domain_boundary')
      createDomain.mutate(
        { active: true, ...domainBoxAround(parts) },
        {
          onSuccess: () => {
            setSelection(['calc_domain'])
            setForm({ kind: 'calcDomain' })
          },
        },
      )
  }

  return (
    <div className="setup-toolbar" role="group" aria-label="Setup toolbar">
      <AddMenu entries={entries} onSelect={onAdd} />
      {folders.length > 0 && (
        <div className="setup-toolbar__folders" role="group" aria-label="Part folders">
          {folders.map(({ folder, disabled, reason }) => {
            const target = formOfFolder(folder)
            const current =
              form !== null &&
              form.kind === target.kind &&
              (form.kind !== 'part' || (target.kind === 'part' && form.folder === target.folder))
            const button = (
              <button
                key={folder}
                type="button"
                className="setup-toolbar__folder"
                aria-pressed={current}
                aria-disabled={disabled || undefined}
                onClick={() => {
                  if (!disabled) setForm(target)
                }}
              >
                {PART_FOLDER_LABELS[folder]}
              </button>
            )
            return disabled && reason ? (
              <Tooltip key={folder} content={reason}>
                {button}
              </Tooltip>
            ) : (
              button
            )
          })}
        </div>
      )}
      <ToolButtons />
    </div>
  )
}
