import { useAtomValue, useSetAtom } from 'jotai'
import { useMemo, type ComponentType } from 'react'
import { datatablePreviewRows, type DatatableInfo } from '../../../../../../domain/datatable.ts'
import type { Part } from '../../../../../../domain/parts.ts'
import { useDatatableQuery, usePartsQuery } from '../../queries/setupQueries.ts'
import {
  PART_FOLDER_LABELS,
  setupSelectionAtom,
  sideFormAtom,
  type PartFolder,
} from '../../state/setupAtoms.ts'
import type { SideFormProps } from '../registry.ts'
import { AppearanceFolder } from './AppearanceFolder.tsx'
import { BoundaryConditionsFolder } from './BoundaryConditionsFolder.tsx'
import { InformationFolder } from './InformationFolder.tsx'
import { InitialConditionsFolder } from './InitialConditionsFolder.tsx'
import { MaterialFolder } from './MaterialFolder.tsx'
import { GeometryWithPointcloudSource } from './PointcloudSource.tsx'
import { SINGLE_PART_ONLY, partFolderState, selectedParts } from './partSelection.ts'
import {
  usePartEdit,
  usePartIssues,
  useSetupSettings,
  type PartFolderProps,
} from './usePartEdit.ts'

/** Shown while no part is selected. */
export const SELECT_A_PART = 'Select a part in the explorer or the view to edit it.'

const FOLDERS: Partial<Record<PartFolder, ComponentType<PartFolderProps>>> = {
  geometry: GeometryWithPointcloudSource,
  material: MaterialFolder,
  boundary_conditions: BoundaryConditionsFolder,
  initial_conditions: InitialConditionsFolder,
  appearance: AppearanceFolder,
  information: InformationFolder,
}

/** The tables a single part's rules look at (profile and initial distribution). */
function usePartTables(part: Part | undefined): DatatableInfo[] {
  const component = part?.component
  const profileId = component?.type === 'openboundary' ? component.ioTableId : null
  const distributionId = component?.initialDistributionTableId ?? null
  const profile = useDatatableQuery(profileId, datatablePreviewRows('openBoundary')).data
  const distribution = useDatatableQuery(
    distributionId,
    datatablePreviewRows('initialDistribution'),
  ).data
  return useMemo(
    () => [profile, distribution].filter((t): t is NonNullable<typeof t> => t !== undefined),
    [profile, distribution],
  )
}

/**
 * The part form (spec/setup.md §2): the selected parts, one folder at a time (the secondary
 * toolbar picks it). A multi-selection edits all of them at once and shows a field whose parts
 * differ as mixed.
 */
export function PartForm({ simulation, form }: SideFormProps<'part'>) {
  const selection = useAtomValue(setupSelectionAtom)
  const setForm = useSetAtom(sideFormAtom)
  const all = usePartsQuery(simulation.id).data
  const parts = useMemo(() => selectedParts(selection, all ?? []), [selection, all])
  const settings = useSetupSettings(simulation.id)
  const { edit, refusals } = usePartEdit(simulation.id, parts)
  const tables = usePartTables(parts.length === 1 ? parts[0] : undefined)
  const issues = usePartIssues(simulation.id, parts, refusals, tables)
  if (!all) return <p className="property-form__note">Loading parts…</p>
  if (parts.length === 0) return <p className="property-form__note">{SELECT_A_PART}</p>

  const title = parts.length === 1 ? (parts[0]?.name ?? '') : `${parts.length} parts`
  const state = partFolderState(parts, form.folder)
  const Folder = FOLDERS[form.folder]
  return (
    <div className="property-form property-form--part" data-folder={form.folder}>
      <h3 className="property-form__heading">
        {PART_FOLDER_LABELS[form.folder]} · {title}
      </h3>
      {form.folder === 'motion' ? (
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => setForm({ kind: 'motion' })}
        >
          Open Motion
        </button>
      ) : state.disabled && state.reason === SINGLE_PART_ONLY ? (
        <p className="property-form__note">{state.reason}</p>
      ) : (
        Folder && (
          <Folder
            simulationId={simulation.id}
            parts={parts}
            edit={edit}
            issues={issues}
            settings={settings}
          />
        )
      )}
    </div>
  )
}
