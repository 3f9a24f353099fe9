import { useSetAtom } from 'jotai'
import { useId, useMemo, useState } from 'react'
import { materialLabel } from '../../../../../domain/materials.ts'
import type { StlUnit } from '../../../../../domain/rest/setupRoutes.ts'
import { formatBytes } from '../../../../../domain/units.ts'
import type { Issue } from '../../../../../domain/validation.ts'
import { IconClose } from '../../../../components/icons.tsx'
import { NameInput } from '../movements/MovementEditor.tsx'
import { SubmitButton } from '../movements/SubmitButton.tsx'
import '../movements/movements.css'
import { useCreatePartMutation } from '../queries/partMutations.ts'
import {
  useMaterialsQuery,
  usePartsQuery,
  useSetupSensorsQuery,
  useSetupVolumeClipsQuery,
} from '../queries/setupQueries.ts'
import {
  assemblyWizardAtom,
  objectId,
  setupSelectionAtom,
  sideFormAtom,
} from '../state/setupAtoms.ts'
import { FileButton, StlUnitSelect, UploadProgressList } from '../uploads/StlUploads.tsx'
import { useStlUploads } from '../uploads/useStlUploads.ts'
import {
  ADD_PART_LABELS,
  GEOMETRY_SOURCE_LABELS,
  addPartIssues,
  createBodyOf,
  newAddPartDraft,
  nextPartName,
  partNameOfFile,
  shapeOfDraft,
  stlShape,
  type AddPartDraft,
  type GeometrySource,
} from './addPart/addPartModel.ts'
import { useSetupEditable } from './fields/editable.ts'
import { FieldIssues, issuesOfField } from './fields/FieldIssues.tsx'
import { NumberField } from './fields/NumberField.tsx'
import { SelectField } from './fields/ChoiceFields.tsx'
import { VectorField } from './fields/VectorField.tsx'
import type { SideFormProps } from './registry.ts'
import '../uploads/uploads.css'
import './addPart/addPart.css'

/** The geometry source that opens the CAD assembly import wizard. */
export const CAD_SOURCE_LABEL = 'CAD file (STEP)'

/** Names a new part must not take: parts, sensors and volume clips (spec/setup.md §5). */
function useTakenNames(simulationId: number): Set<string> {
  const parts = usePartsQuery(simulationId).data
  const sensors = useSetupSensorsQuery(simulationId).data
  const clips = useSetupVolumeClipsQuery(simulationId).data
  return useMemo(
    () =>
      new Set([
        ...(parts ?? []).map((p) => p.name),
        ...(sensors ?? []).map((s) => s.name),
        ...(clips ?? []).map((c) => c.name),
      ]),
    [parts, sensors, clips],
  )
}

/**
 * The addPart form (spec/setup.md §2), opened by the Add menu for a Solid, Fluid or Inlet Outlet:
 * a name (automatic, unique), the geometry — STL files (several at once, each its own part named
 * after the file, with a progress bar per file), a box or a plane — and for fluids the material and
 * a filling's fill height. The new parts are selected and their part form opens.
 */
export function AddPartForm({ simulation, form }: SideFormProps<'addPart'>) {
  const { component } = form
  const setup = useSetupEditable()
  const takenNames = useTakenNames(simulation.id)
  const materials = useMaterialsQuery(simulation.id).data
  const create = useCreatePartMutation(simulation.id)
  const uploads = useStlUploads()
  const setSelection = useSetAtom(setupSelectionAtom)
  const setForm = useSetAtom(sideFormAtom)
  const setWizard = useSetAtom(assemblyWizardAtom)
  // A CAD file is organized and tessellated in the assembly wizard, not in this form.
  const [cad, setCad] = useState(false)
  const [draft, setDraft] = useState<AddPartDraft>(() => newAddPartDraft(component, takenNames, 0))
  // The automatic name follows the names taken until the person types one.
  const [nameTyped, setNameTyped] = useState(false)
  const name = nameTyped ? draft.name : nextPartName(component, takenNames)
  const [files, setFiles] = useState<File[]>([])
  const [unit, setUnit] = useState<StlUnit>('m')
  const [submitted, setSubmitted] = useState(false)
  const sourceId = useId()
  const filesMessageId = useId()
  const set = (patch: Partial<AddPartDraft>) => setDraft((old) => ({ ...old, ...patch }))

  const issues = addPartIssues({ ...draft, name }, { takenNames, fileCount: files.length })
  const shown: readonly Issue[] = submitted ? issues : []
  const busy = create.isPending || uploads.busy
  const blocked = submitted && issues.length > 0

  const openParts = (ids: readonly number[]) => {
    if (ids.length === 0) return
    setSelection(ids.map((id) => objectId('part', id)))
    setForm({ kind: 'part', folder: 'geometry' })
  }

  const addFromFiles = async () => {
    const names = new Set(takenNames)
    const created = new Map<File, number>()
    await uploads.uploadFiles(files, unit, async (upload, file) => {
      const name = partNameOfFile(file.name, names)
      names.add(name)
      const part = await create.mutateAsync(
        createBodyOf(component, draft, name, stlShape(upload, draft.position)),
      )
      created.set(file, part.id)
    })
    setFiles([])
    // Selected in the order the files were chosen, whichever upload finished first.
    openParts(files.flatMap((file) => created.get(file) ?? []))
  }

  const submit = async () => {
    if (!setup.editable || busy || cad) return
    setSubmitted(true)
    if (issues.length > 0) return
    if (draft.source === 'stl') return addFromFiles()
    const part = await create.mutateAsync(
      createBodyOf(component, draft, name.trim(), shapeOfDraft(draft)),
    )
    openParts([part.id])
  }

  return (
    <form
      className="add-part-form"
      noValidate
      aria-label={`Add ${ADD_PART_LABELS[component]}`}
      onSubmit={(event) => {
        event.preventDefault()
        submit().catch(() => undefined)
      }}
    >
      <fieldset className="field setup-field add-part-form__sources">
        <legend className="field__label" id={sourceId}>
          Geometry
        </legend>
        <div className="add-part-form__source-row" role="radiogroup" aria-labelledby={sourceId}>
          {(Object.keys(GEOMETRY_SOURCE_LABELS) as GeometrySource[]).map((source) => (
            <label key={source} className="add-part-form__source">
              <input
                type="radio"
                name="geometry-source"
                value={source}
                checked={!cad && draft.source === source}
                disabled={!setup.editable || busy}
                onChange={() => {
                  setCad(false)
                  set({ source })
                }}
              />
              {GEOMETRY_SOURCE_LABELS[source]}
            </label>
          ))}
          <label className="add-part-form__source">
            <input
              type="radio"
              name="geometry-source"
              value="cad"
              checked={cad}
              disabled={!setup.editable || busy}
              onChange={() => setCad(true)}
            />
            {CAD_SOURCE_LABEL}
          </label>
        </div>
      </fieldset>

      {cad ? (
        <div className="add-part-form__files">
          <p className="field__hint">
            A STEP assembly (.stp or .step) is imported in a wizard: choose its components, group
            them into parts and tessellate them. The parts appear in the view when it is done.
          </p>
          <button
            type="button"
            className="button button--primary button--small"
            disabled={!setup.editable}
            onClick={() => {
              setForm(null)
              setWizard({ assemblyId: null, step: 'organize' })
            }}
          >
            Open the CAD import wizard
          </button>
        </div>
      ) : draft.source === 'stl' ? (
        <div className="add-part-form__files">
          <StlUnitSelect value={unit} onChange={setUnit} disabled={busy || !setup.editable} />
          <div className="add-part-form__file-row">
            <FileButton
              label={files.length > 0 ? 'Add more files' : 'Choose STL files'}
              accept=".stl"
              multiple
              disabled={busy || !setup.editable}
              onFiles={(chosen) => {
                uploads.clear()
                setFiles((old) => [...old, ...chosen])
              }}
            />
            <span className="field__hint">Each file becomes a part named after it.</span>
          </div>
          {files.length > 0 && !uploads.busy && (
            <ul className="add-part-form__chosen" aria-label="Chosen files">
              {files.map((file, index) => (
                <li key={`${file.name}-${index}`}>
                  <span className="add-part-form__file-name">{file.name}</span>
                  <span className="add-part-form__file-size">{formatBytes(file.size)}</span>
                  <button
                    type="button"
                    className="icon-button icon-button--small"
                    aria-label={`Remove ${file.name}`}
                    disabled={busy}
                    onClick={() => setFiles((old) => old.filter((_, i) => i !== index))}
                  >
                    <IconClose width={12} height={12} />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <FieldIssues id={filesMessageId} issues={issuesOfField(shown, 'files')} />
          <UploadProgressList items={uploads.items} />
        </div>
      ) : (
        <>
          <NameInput
            value={name}
            issues={issuesOfField(shown, 'name')}
            onChange={(typed) => {
              setNameTyped(true)
              set({ name: typed })
            }}
          />
          {draft.source === 'box' ? (
            <VectorField
              label="Dimensions"
              unit="m"
              value={draft.dimensions}
              issues={issuesOfField(shown, 'shape.dimensions')}
              onCommit={(dimensions) => set({ dimensions })}
            />
          ) : (
            <>
              <NumberField
                label="Width"
                unit="m"
                value={draft.planeSize[0]}
                issues={issuesOfField(shown, 'shape.scale.0')}
                onCommit={(width) => set({ planeSize: [width, draft.planeSize[1]] })}
              />
              <NumberField
                label="Length"
                unit="m"
                value={draft.planeSize[1]}
                issues={issuesOfField(shown, 'shape.scale.1')}
                onCommit={(length) => set({ planeSize: [draft.planeSize[0], length] })}
              />
            </>
          )}
        </>
      )}

      {!cad && (
        <VectorField
          label="Position"
          unit="m"
          value={draft.position}
          onCommit={(position) => set({ position })}
        />
      )}

      {!cad && component !== 'rigid' && (
        <SelectField<string>
          label="Material"
          value={draft.materialId === null ? null : String(draft.materialId)}
          options={(materials ?? [{ id: 0, name: materialLabel(0) }]).map((m) => ({
            value: String(m.id),
            label: m.name || materialLabel(m.id),
          }))}
          onChange={(value) => set({ materialId: Number(value) })}
        />
      )}
      {!cad && component === 'filling' && (
        <NumberField
          label="Fill height"
          unit="m"
          optional
          value={draft.fillHeight}
          hint="Empty: the whole geometry is filled."
          onCommit={(fillHeight) => set({ fillHeight })}
        />
      )}

      <footer className="add-part-form__footer">
        <button type="button" className="button button--secondary" onClick={() => setForm(null)}>
          Cancel
        </button>
        {!cad && (
          <SubmitButton
            label={
              busy
                ? 'Adding…'
                : draft.source === 'stl' && files.length > 1
                  ? 'Add parts'
                  : 'Add part'
            }
            blockedReason={blocked ? (issues[0]?.message ?? null) : null}
            inactive={busy || !setup.editable}
          />
        )}
      </footer>
    </form>
  )
}
