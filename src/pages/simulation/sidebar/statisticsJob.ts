import { atom } from 'jotai'
import type { StatisticsCalculationState } from '../../../../domain/results.ts'

/**
 * The statistics calculation of the Results page as a job of the Run sidebar's Jobs Progress
 * (spec/results.md §2 "Job widgets … Statistics"): the Statistics panel publishes it here while
 * it is on screen, the Statistics widget reads it and cancels through it.
 */
export interface StatisticsJob {
  simulationId: number
  state: StatisticsCalculationState
  /** 0 … 1: outputs answered over outputs asked. */
  progress: number
  /** Outputs asked. */
  outputCount: number
  /** Stops the calculation (the server is told; the panel says 'Computation cancelled.'). */
  cancel: () => void
}

/** The latest statistics calculation (null: none since the Results page opened). */
export const statisticsJobAtom = atom<StatisticsJob | null>(null)
statisticsJobAtom.debugLabel = 'statisticsJobAtom'
