import { useAtomValue } from 'jotai'
import { JOB_TEXTS, JOB_WIDGETS, showsTessellationProgress } from '../../../../domain/jobs.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { callApi } from '../../../api/index.ts'
import { useSensorRecomputationQuery } from '../results/explorer/explorerApi.ts'
import {
  CANCEL_TESSELLATION_FAILED,
  CANCEL_TESSELLATION_WARNING,
} from '../setup/assemblies/assemblyJobs.ts'
import { useTessellationRunsQuery } from '../setup/assemblies/assemblyQueries.ts'
import { CANCEL_DISCRETIZATION_WARNING } from '../setup/discretization/DiscretizationControls.tsx'
import { useDiscretizationQuery } from '../setup/queries/setupQueries.ts'
import { CompressionJobWidget } from './CompressedDownload.tsx'
import { useCompressionQuery } from './compressionQueries.ts'
import { JobWidget } from './JobWidget.tsx'
import { useCancelUserExport, useUserExportQuery } from './sidebarQueries.ts'
import { statisticsJobAtom } from './statisticsJob.ts'
import { useQueryClient } from '@tanstack/react-query'
import { routeKey } from '../../../queries/queries.ts'

/** What stopping a statistics calculation or an export costs (our words; the spec names none). */
export const STOP_STATISTICS_TEXT =
  'There is no resume option. You will need to load the statistics again.'
export const STOP_EXPORT_TEXT =
  'There is no resume option. The exported files are deleted and the export must be started again.'
/** Toast titles when a stop is refused. */
export const STOP_FAILED_TITLES = {
  statistics: 'Canceling statistics failed',
  sensors: 'Canceling sensor computation failed',
  export: 'Canceling export failed',
} as const

const NO_JOBS =
  'No jobs yet: discretizations, sensor computations, statistics, tessellations, exports and compressions show here while they run and after they end.'

/**
 * Jobs Progress of the Run sidebar (spec/results.md §2, §4 "Jobs"): one widget per job kind that
 * has a record (Discretization, Sensors, Statistics, Tessellation, Export), each with its state,
 * progress, messages and Stop computation.
 */
export function JobsProgressTab({ simulation }: { simulation: Simulation }) {
  const queryClient = useQueryClient()
  const discretization = useDiscretizationQuery(simulation.id).data
  const sensors = useSensorRecomputationQuery(simulation).data
  const statistics = useAtomValue(statisticsJobAtom)
  const tessellation = useTessellationRunsQuery(simulation.id).data?.[0]
  const userExport = useUserExportQuery(simulation.id).data?.export
  const cancelExport = useCancelUserExport(simulation.id)
  const compression = useCompressionQuery(simulation.id).data?.compression
  const idParams = { params: { id: String(simulation.id) } }
  const shownStatistics = statistics?.simulationId === simulation.id ? statistics : null

  const widgets = [
    discretization && (
      <JobWidget
        key="discretization"
        title={JOB_WIDGETS.discretization}
        state={discretization.state}
        progress={discretization.progress}
        errors={discretization.errors}
        warnings={discretization.warnings}
        stopText={CANCEL_DISCRETIZATION_WARNING}
        stopFailedTitle={JOB_TEXTS.cancelDiscretizationFailed}
        onStop={async () => {
          const record = await callApi('cancelDiscretization', idParams)
          queryClient.setQueryData(routeKey('getDiscretization', idParams), record)
        }}
      />
    ),
    sensors && sensors.id !== null && (
      <JobWidget
        key="sensors"
        title={JOB_WIDGETS.sensorRecomputation}
        state={sensors.state}
        progress={sensors.progress}
        detail={`${sensors.outputsDone} outputs done`}
        stopText={JOB_TEXTS.stopSensorsWarning}
        stopFailedTitle={STOP_FAILED_TITLES.sensors}
        onStop={async () => {
          await callApi('cancelSensorRecomputation', idParams)
          await queryClient.invalidateQueries({
            queryKey: routeKey('getSensorRecomputation', idParams),
          })
        }}
      />
    ),
    shownStatistics && (
      <JobWidget
        key="statistics"
        title={JOB_WIDGETS.statistics}
        state={shownStatistics.state}
        progress={shownStatistics.progress}
        detail={`${shownStatistics.outputCount} ${shownStatistics.outputCount === 1 ? 'output' : 'outputs'}`}
        stopText={STOP_STATISTICS_TEXT}
        stopFailedTitle={STOP_FAILED_TITLES.statistics}
        onStop={() => {
          shownStatistics.cancel()
          return Promise.resolve()
        }}
      />
    ),
    tessellation && (
      <JobWidget
        key="tessellation"
        title={JOB_WIDGETS.tessellation}
        state={tessellation.state}
        progress={tessellation.progress}
        showProgress={showsTessellationProgress(tessellation.state, tessellation.progress)}
        stopText={CANCEL_TESSELLATION_WARNING}
        stopFailedTitle={CANCEL_TESSELLATION_FAILED}
        onStop={async () => {
          await callApi('cancelTessellationRun', { params: { id: String(tessellation.id) } })
          await queryClient.invalidateQueries({ queryKey: ['listTessellationRuns'] })
        }}
      />
    ),
    userExport && (
      <JobWidget
        key="export"
        title={JOB_WIDGETS.userExport}
        state={userExport.state}
        progress={userExport.progress}
        detail={userExport.name}
        errors={userExport.errors.map((e) => ({ description: e.description }))}
        warnings={userExport.warnings.map((w) => ({ description: w.description }))}
        stopText={STOP_EXPORT_TEXT}
        stopFailedTitle={STOP_FAILED_TITLES.export}
        onStop={cancelExport}
      />
    ),
    compression && (
      <CompressionJobWidget
        key="compression"
        simulationId={simulation.id}
        compression={compression}
      />
    ),
  ].filter(Boolean)

  if (widgets.length === 0) return <p className="run-sidebar__empty">{NO_JOBS}</p>
  return <div className="run-sidebar__jobs">{widgets}</div>
}
