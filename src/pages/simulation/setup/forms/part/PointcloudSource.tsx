import { useQuery } from '@tanstack/react-query'
import { SHAPE_BOUNDS, loadsPointcloud, type Part } from '../../../../../../domain/parts.ts'
import { formatNumber, unitSymbol } from '../../../../../../domain/units.ts'
import { callApi } from '../../../../../api/index.ts'
import { routeKey, useSimulationQuery } from '../../../../../queries/queries.ts'
import { SelectField } from '../fields/ChoiceFields.tsx'
import { useSetupEditable } from '../fields/editable.ts'
import { issuesOfField } from '../fields/FieldIssues.tsx'
import { NumberField } from '../fields/NumberField.tsx'
import { GeometryFolder } from './GeometryFolder.tsx'
import type { PartFolderProps } from './usePartEdit.ts'

/** The button that turns a fluid part into a point cloud from another simulation. */
export const USE_POINTCLOUD_LABEL = 'Take particles from another simulation'
/** What the particle diameter becomes with a pointcloud part. */
export const POINTCLOUD_DIAMETER_NOTE =
  "The particles keep the reference simulation's particle diameter, which the run uses."
/** Shown while no simulation of the project has written outputs. */
export const NO_REFERENCE_SIMULATIONS = 'No other simulation of this project has outputs yet.'

/** The simulations of the part's project that have a run, other than its own. */
function useReferenceCandidates(simulationId: number) {
  const simulation = useSimulationQuery(String(simulationId)).data
  const params = { params: { id: String(simulation?.projectId ?? 0) } }
  const project = useQuery({
    queryKey: routeKey('getProject', params),
    queryFn: ({ signal }) => callApi('getProject', params, { signal }),
    enabled: simulation !== undefined,
  }).data
  return (project?.simulations ?? []).filter((s) => s.id !== simulationId && s.activeRunId !== null)
}

/** The complete outputs of a simulation's active run (output number and time). */
function useReferenceOutputs(refSimulationId: number | null) {
  const input = { params: { id: String(refSimulationId ?? 0) }, query: {} }
  return useQuery({
    queryKey: routeKey('listOutputManifests', input),
    queryFn: ({ signal }) => callApi('listOutputManifests', input, { signal }),
    enabled: refSimulationId !== null,
  }).data?.outputs
}

/**
 * The source of a pointcloud part (spec/setup.md §3 shape.type pointcloud): the reference
 * simulation of the project, its output (number and time) and the splitting ratio. A single
 * filling or flow part of another shape can be turned into one.
 */
export function PointcloudSourceFields({ simulationId, parts, edit, issues }: PartFolderProps) {
  const setup = useSetupEditable()
  const single: Part | undefined = parts.length === 1 ? parts[0] : undefined
  const shape = single?.shape.type === 'pointcloud' ? single.shape : null
  const candidates = useReferenceCandidates(simulationId)
  const outputs = useReferenceOutputs(shape?.refSimulationId ?? null)
  if (!single || !loadsPointcloud(single)) return null
  const on = (field: string) => issuesOfField(issues, `part.shape.${field}`)
  if (!shape)
    return (
      <div className="property-form__group">
        <button
          type="button"
          className="button button--secondary button--small property-form__inline-button"
          disabled={!setup.editable}
          onClick={() =>
            edit(() => ({
              shape: { type: 'pointcloud', refSimulationId: null, refSimulationOutput: null },
            }))
          }
        >
          {USE_POINTCLOUD_LABEL}
        </button>
      </div>
    )
  const s = unitSymbol('time')
  return (
    <div className="property-form__group" aria-label="Point cloud source" role="group">
      <SelectField
        label="Reference simulation"
        value={shape.refSimulationId === null ? null : String(shape.refSimulationId)}
        placeholder="Choose a simulation"
        options={candidates.map((c) => ({ value: String(c.id), label: c.name }))}
        issues={on('refSimulationId')}
        hint={candidates.length === 0 ? NO_REFERENCE_SIMULATIONS : undefined}
        onChange={(id) =>
          edit(() => ({
            shape: { type: 'pointcloud', refSimulationId: Number(id), refSimulationOutput: null },
          }))
        }
      />
      <SelectField
        label="Output"
        value={shape.refSimulationOutput === null ? null : String(shape.refSimulationOutput)}
        placeholder={
          shape.refSimulationId === null ? 'Choose a simulation first' : 'Choose an output'
        }
        options={(outputs ?? []).map((o) => ({
          value: String(o.outputNo),
          label: `${o.outputNo} (${formatNumber(o.timeS)} ${s})`,
        }))}
        issues={on('refSimulationOutput')}
        onChange={(output) =>
          edit(() => ({ shape: { type: 'pointcloud', refSimulationOutput: Number(output) } }))
        }
      />
      <NumberField
        label="Splitting ratio"
        unit=""
        value={shape.splittingRatio}
        issues={on('splittingRatio')}
        hint={`An integer of at least ${SHAPE_BOUNDS.splittingRatio.min}.`}
        onCommit={(splittingRatio) =>
          edit(() => ({ shape: { type: 'pointcloud', splittingRatio } }))
        }
      />
      <p className="field__hint property-form__note">{POINTCLOUD_DIAMETER_NOTE}</p>
    </div>
  )
}

/** The Geometry folder with a fluid part's point cloud source below it. */
export function GeometryWithPointcloudSource(props: PartFolderProps) {
  return (
    <>
      <GeometryFolder {...props} />
      <PointcloudSourceFields {...props} />
    </>
  )
}
