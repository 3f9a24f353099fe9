import { useQueryClient } from '@tanstack/react-query'
import { useSetAtom } from 'jotai'
import { useEffect, useMemo, useRef, useState } from 'react'
import { isJobActive, showsTessellationProgress } from '../../../../../domain/jobs.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { TESSELLATION_MESSAGES, type TessellationRun } from '../../../../../domain/tessellation.ts'
import { callApi } from '../../../../api/index.ts'
import { Spinner } from '../../../../components/Spinner.tsx'
import { StopComputationDialog } from '../../../../components/StopComputationDialog.tsx'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { routeKey } from '../../../../queries/queries.ts'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { paramsOf } from '../queries/setupQueries.ts'
import { useSetupMutation } from '../queries/useSetupMutation.ts'
import { assemblyWizardAtom } from '../state/setupAtoms.ts'
import {
  CANCEL_TESSELLATION_FAILED,
  CANCEL_TESSELLATION_WARNING,
  TESSELLATION_FAILED,
  activeJobs,
  assemblyJobText,
  assemblyJobs,
  endedJobs,
  importFailedMessage,
  type AssemblyJob,
} from './assemblyJobs.ts'
import { useAssembliesQuery, useTessellationRunsQuery } from './assemblyQueries.ts'
import './importingFile.css'

/** Refetched when a tessellation ends: the setup's parts (new and updated) and what depends on them. */
const AFTER_TESSELLATION = [
  'listParts',
  'getSetupValidation',
  'getSimulation',
  'getAssembly',
  'listAssemblyParts',
  'listAssemblies',
] as const

/**
 * What happens when an import or a tessellation this page saw running ends: a failed import says
 * so; a tessellation refetches the setup's parts (the new ones appear in the view, their warnings
 * in Information) and shows the file's errors in a toast.
 */
function useJobOutcomes(jobs: readonly AssemblyJob[]) {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  const seen = useRef(new Map<string, boolean>())
  useEffect(() => {
    const ended = endedJobs(seen.current, jobs)
    seen.current = new Map(jobs.map((job) => [job.key, isJobActive(job.state)]))
    for (const job of ended) {
      if (job.kind === 'import') {
        if (job.state === 'failed')
          pushToast({ kind: 'error', title: importFailedMessage(job.filename) })
        void queryClient.invalidateQueries({
          queryKey: routeKey('getAssembly', paramsOf(job.assemblyId)),
        })
        continue
      }
      for (const name of AFTER_TESSELLATION)
        void queryClient.invalidateQueries({ queryKey: [name] })
      void callApi('getAssembly', paramsOf(job.assemblyId))
        .then((assembly) => {
          const errors = assembly.tessellationErrors.map((e) => e.message)
          if (errors.length > 0 || job.state === 'failed')
            pushToast({
              kind: 'error',
              title: TESSELLATION_FAILED,
              description: errors.join(' ') || undefined,
            })
        })
        .catch(() => {
          if (job.state === 'failed') pushToast({ kind: 'error', title: TESSELLATION_FAILED })
        })
    }
  }, [jobs, pushToast, queryClient])
}

/**
 * The 'Importing File' widget of the Setup toolbar row (spec/setup.md §2): while a CAD file is read
 * or its parts are tessellated (both polled), its name, what is happening, a tessellation's
 * progress and Cancel ('Stop computation?').
 */
export function ImportingFileWidget({ simulation }: { simulation: Simulation }) {
  const assemblies = useAssembliesQuery(simulation.id).data
  const runs = useTessellationRunsQuery(simulation.id).data
  const jobs = useMemo(() => assemblyJobs(assemblies, runs), [assemblies, runs])
  useJobOutcomes(jobs)
  const [stopping, setStopping] = useState<number | null>(null)
  const shown = activeJobs(jobs)
  if (shown.length === 0 && stopping === null) return null
  return (
    <div className="assembly-job" role="group" aria-label={TESSELLATION_MESSAGES.importing}>
      {shown.map((job) => (
        <JobLine key={job.key} job={job} onCancel={() => setStopping(job.id)} />
      ))}
      {stopping !== null && (
        <CancelDialog
          simulationId={simulation.id}
          runId={stopping}
          onClose={() => setStopping(null)}
        />
      )}
    </div>
  )
}

function JobLine({ job, onCancel }: { job: AssemblyJob; onCancel: () => void }) {
  const setup = useSetupEditable()
  const setWizard = useSetAtom(assemblyWizardAtom)
  const percent = Math.round(job.progress * 100)
  const bar =
    job.kind === 'tessellation' &&
    job.state === 'running' &&
    showsTessellationProgress(job.state, job.progress)
  return (
    <div className="assembly-job__line">
      <Spinner label={assemblyJobText(job)} size={12} />
      <span className="assembly-job__title">{TESSELLATION_MESSAGES.importing}</span>
      <span className="assembly-job__file" title={job.filename}>
        {job.filename}
      </span>
      <span className="assembly-job__state" role="status">
        {assemblyJobText(job)}
      </span>
      {bar && (
        <>
          <progress
            className="assembly-job__bar"
            max={100}
            value={percent}
            aria-label={`Tessellation of ${job.filename}`}
          />
          <span className="assembly-job__percent" aria-hidden="true">
            {percent} %
          </span>
        </>
      )}
      {job.kind === 'import' ? (
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => setWizard({ assemblyId: job.assemblyId, step: 'organize' })}
        >
          Organize parts
        </button>
      ) : (
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={!setup.editable}
          onClick={onCancel}
        >
          Cancel
        </button>
      )}
    </div>
  )
}

/** 'Stop computation?' for a tessellation run: DELETE /tessellation_runs/{id}. */
function CancelDialog(props: { simulationId: number; runId: number; onClose: () => void }) {
  const queryClient = useQueryClient()
  const cancel = useSetupMutation({
    mutationFn: () => callApi('cancelTessellationRun', paramsOf(props.runId)),
    failure: { title: CANCEL_TESSELLATION_FAILED },
    invalidate: ['listTessellationRuns'],
    onSuccess: (run: TessellationRun) =>
      queryClient.setQueryData(
        routeKey('listTessellationRuns', paramsOf(props.simulationId)),
        (runs: TessellationRun[] | undefined) =>
          (runs ?? []).map((r) => (r.id === run.id ? run : r)),
      ),
  })
  return (
    <StopComputationDialog
      text={CANCEL_TESSELLATION_WARNING}
      pending={cancel.isPending}
      done={cancel.isSuccess}
      onStop={() => cancel.mutate(undefined, { onError: props.onClose })}
      onClose={props.onClose}
    />
  )
}
