import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import {
  TESSELLATION_MESSAGES,
  canStartTessellation,
  configurationFileName,
  defaultMeshingParameters,
  type Assembly,
  type AssemblyPart,
  type TessellationRun,
} from '../../../../../domain/tessellation.ts'
import { callApi } from '../../../../api/index.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { routeKey } from '../../../../queries/queries.ts'
import { saveBlobAs } from '../../results/charts/chartExport.ts'
import { ArmedDeleteButton } from '../../results/explorer/ArmedDeleteButton.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { paramsOf } from '../queries/setupQueries.ts'
import { useSetupMutation } from '../queries/useSetupMutation.ts'
import {
  useDeleteAssemblyPartsMutation,
  useUpdateAssemblyPartsMutation,
} from './assemblyQueries.ts'
import { MeshingParametersForm } from './MeshingParametersForm.tsx'
import { patchedParameters, useMeshingDraft } from './useMeshingDraft.ts'
import {
  COMPONENT_TYPE_LABELS,
  allMeshingValid,
  configurationOf,
  tessellateLabel,
} from './wizardModel.ts'

/** Title of the toast of a refused tessellation. */
export const TESSELLATION_START_FAILED = 'Starting tessellation failed'
/** The link of 'Tessellation started.': the Monitor page, whose Jobs Progress lists the run. */
export const JOBS_LINK_LABEL = 'Jobs Progress'

/** Where 'Tessellation started.' links to. */
export function jobsProgressLink(simulationId: number): string {
  return `/simulation/${simulationId}/dashboard`
}

/**
 * Step '2. Tessellation' (spec/setup.md §2): 'Parts to Tessellate' (choose all or some, delete,
 * Export Configuration as '{file}-config.json') beside 'Meshing Parameters' for the chosen parts;
 * Back, and Import (Re-Tessellate once the file was tessellated), disabled while the form breaks a
 * rule or no part needs tessellation. Import schedules the run (POST /assemblies/{id}), says
 * 'Tessellation started.' with a link to the jobs, and closes the wizard.
 */
export function TessellationStep(props: {
  simulationId: number
  assembly: Assembly
  parts: readonly AssemblyPart[]
  onBack: () => void
  onStarted: (run: TessellationRun) => void
}) {
  const { assembly, parts, simulationId } = props
  const setup = useSetupEditable()
  const pushToast = usePushToast()
  const queryClient = useQueryClient()
  const update = useUpdateAssemblyPartsMutation(assembly.id)
  const remove = useDeleteAssemblyPartsMutation(assembly.id)
  const [chosenIds, setChosenIds] = useState<ReadonlySet<number>>(
    () => new Set(parts.map((part) => part.id)),
  )
  const chosen = parts.filter((part) => chosenIds.has(part.id))
  const draft = useMeshingDraft(chosen, (updates) => update.mutateAsync(updates))
  const listTitleId = useId()
  const selectAll = useRef<HTMLInputElement>(null)
  const allChosen = parts.length > 0 && chosen.length === parts.length

  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = chosen.length > 0 && !allChosen
  }, [chosen.length, allChosen])

  const start = useSetupMutation({
    mutationFn: () => callApi('startTessellation', { ...paramsOf(assembly.id), body: {} }),
    failure: { title: TESSELLATION_START_FAILED },
    invalidate: ['listTessellationRuns', 'getAssembly', 'listAssemblies', 'listAssemblyParts'],
    onSuccess: (run: TessellationRun) => {
      queryClient.setQueryData(
        routeKey('listTessellationRuns', paramsOf(simulationId)),
        (runs: TessellationRun[] | undefined) => [
          run,
          ...(runs ?? []).filter((r) => r.id !== run.id),
        ],
      )
      pushToast({
        kind: 'success',
        title: TESSELLATION_MESSAGES.started,
        links: [{ label: JOBS_LINK_LABEL, to: jobsProgressLink(simulationId) }],
      })
      props.onStarted(run)
    },
  })

  const choose = (next: ReadonlySet<number>) => {
    void draft.flush().catch(() => undefined)
    setChosenIds(next)
  }
  const toggle = (id: number) => {
    const next = new Set(chosenIds)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    choose(next)
  }

  // Parts with a change waiting to be saved will need tessellation once it is.
  const effective = parts.map((part) =>
    chosenIds.has(part.id) && draft.pending
      ? {
          ...part,
          meshingParameters: patchedParameters(part, draft.patch),
          needsTessellation: true,
        }
      : part,
  )
  // The form's values as the first chosen part will have them (every part's are checked too).
  const formParams =
    effective.find((part) => chosenIds.has(part.id))?.meshingParameters ??
    defaultMeshingParameters()
  const canImport =
    setup.editable &&
    draft.valid &&
    allMeshingValid(effective) &&
    canStartTessellation(formParams, effective) &&
    !start.isPending
  const label = tessellateLabel(parts)

  const exportConfiguration = () => {
    const json = JSON.stringify(configurationOf(assembly, parts), null, 2)
    saveBlobAs(
      new Blob([json], { type: 'application/json' }),
      configurationFileName(assembly.filename),
    )
  }

  return (
    <>
      <div className="dialog__body assembly-step assembly-step--tessellate">
        <div className="assembly-step__columns">
          <section className="assembly-tessellate" aria-labelledby={listTitleId}>
            <h3 id={listTitleId} className="assembly-step__heading">
              Parts to Tessellate
            </h3>
            <div className="assembly-tessellate__tools">
              <label className="assembly-tessellate__all">
                <input
                  ref={selectAll}
                  type="checkbox"
                  checked={allChosen}
                  disabled={parts.length === 0}
                  onChange={() => choose(allChosen ? new Set() : new Set(parts.map((p) => p.id)))}
                />
                Select all
              </label>
              <ArmedDeleteButton
                label={`Delete ${chosen.length} chosen ${chosen.length === 1 ? 'part' : 'parts'}`}
                disabled={!setup.editable || chosen.length === 0 || remove.isPending}
                onConfirm={() => {
                  const ids = chosen.map((p) => p.id)
                  setChosenIds(new Set())
                  remove.mutate(ids)
                }}
              />
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={parts.length === 0}
                onClick={exportConfiguration}
              >
                Export Configuration
              </button>
            </div>
            <ul className="assembly-tessellate__list" aria-label="Parts to Tessellate">
              {parts.map((part) => (
                <li key={part.id} className="assembly-tessellate__part">
                  <label className="assembly-tessellate__choose">
                    <input
                      type="checkbox"
                      checked={chosenIds.has(part.id)}
                      onChange={() => toggle(part.id)}
                    />
                    <span className="assembly-tessellate__name">{part.name}</span>
                  </label>
                  <span className="tag">
                    {COMPONENT_TYPE_LABELS[part.componentType] ?? part.componentType}
                  </span>
                  <span
                    className={`tag assembly-tessellate__state${part.needsTessellation ? ' assembly-tessellate__state--needed' : ''}`}
                  >
                    {part.needsTessellation ? 'Needs tessellation' : 'Tessellated'}
                  </span>
                  {part.warnings.length > 0 && (
                    <ul
                      className="assembly-tessellate__warnings"
                      aria-label={`Warnings of ${part.name}`}
                    >
                      {part.warnings.map((warning) => (
                        <li key={`${warning.errorCode}-${warning.message}`}>{warning.message}</li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </section>
          <MeshingParametersForm
            shown={draft.shown}
            mixed={draft.mixed}
            issues={draft.issues}
            disabled={!setup.editable || chosen.length === 0}
            onChange={draft.change}
          />
        </div>
      </div>
      <footer className="dialog__footer">
        <button type="button" className="button button--secondary" onClick={props.onBack}>
          Back
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={!canImport}
          onClick={() => {
            void draft
              .flush()
              .then(() => start.mutate(undefined))
              .catch(() => undefined)
          }}
        >
          {start.isPending ? 'Starting…' : label}
        </button>
      </footer>
    </>
  )
}
