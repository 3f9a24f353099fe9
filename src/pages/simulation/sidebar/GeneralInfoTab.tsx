import { TIME_UNIT_CONVERSIONS } from '../../../../domain/constants.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { statusTooltipOf } from '../../../../domain/simulationState.ts'
import {
  formatCount,
  formatCredits,
  formatDateTime,
  formatNumber,
  formatSize,
} from '../../../../domain/units.ts'
import { Fact } from '../../../components/Fact.tsx'
import { solverLabel } from '../run/runButton.ts'

/** Runtime (ms in the log) in minutes, as the spec converts it (§9: runtime 60000). */
export function runtimeText(runtimeMs: number): string {
  return `${formatNumber(runtimeMs / TIME_UNIT_CONVERSIONS.runtime, 3)} min`
}

/** Simulated time (ms in the log) in seconds. */
export function simulatedTimeText(timeMs: number): string {
  return `${formatNumber(timeMs / TIME_UNIT_CONVERSIONS.time, 4)} s`
}

/** General Info of the Run sidebar: the run's state, solver, resources and figures. */
export function GeneralInfoTab({ simulation }: { simulation: Simulation }) {
  const log = simulation.log
  return (
    <dl className="facts run-sidebar__facts">
      <Fact term="Status">{statusTooltipOf(simulation.state, simulation.lastStopCondition)}</Fact>
      <Fact term="Solver">
        {simulation.solver ? solverLabel(simulation.solver, simulation.gpu) : 'Not chosen yet'}
      </Fact>
      <Fact term="Cores">{simulation.cores ?? '–'}</Fact>
      <Fact term="Simulated time">
        {log ? simulatedTimeText(log.time) : '–'}
        {simulation.settings.endTime !== null &&
          ` of ${formatNumber(simulation.settings.endTime)} s`}
      </Fact>
      <Fact term="Runtime">{log ? runtimeText(log.runtime) : '–'}</Fact>
      <Fact term="Runtime left">
        {log && log.runtimeLeft !== null ? runtimeText(log.runtimeLeft) : '–'}
      </Fact>
      <Fact term="Particles">{log ? formatCount(log.particles) : '–'}</Fact>
      <Fact term="Outputs written">{log && log.output >= 0 ? log.output + 1 : 0}</Fact>
      <Fact term="Credits used">{formatCredits(simulation.creditsConsumed)}</Fact>
      <Fact term="Simulation hours">{`${formatNumber(simulation.simulationHoursConsumed, 3)} h`}</Fact>
      <Fact term="Started">
        {simulation.startedAt ? formatDateTime(simulation.startedAt) : '–'}
      </Fact>
      <Fact term="Last edit">{formatDateTime(simulation.updatedAt)}</Fact>
      <Fact term="Size">{formatSize(simulation.size)}</Fact>
      <Fact term="Owned by">{simulation.creator.fullName}</Fact>
    </dl>
  )
}
