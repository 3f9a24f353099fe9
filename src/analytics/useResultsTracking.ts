import { useAtomValue } from 'jotai'
import { useParams } from 'react-router'
import type { DetailLevel } from '../../domain/constants.ts'
import { viewportStateAtom } from '../state/viewportAtoms.ts'
import { trackEvent } from './analytics.ts'

/**
 * The results screen's analytics events (spec/results.md §7): the quantity coloured by, with the
 * output on screen, and the dataset reduction (point cloud: the detail level drawn; mesh: the
 * dataset loaded), each with the simulation of the page's route.
 */
export function useResultsTracking() {
  const { id } = useParams()
  const shownOutput = useAtomValue(viewportStateAtom).snapshot?.shownOutput ?? 0
  const simulationId = Number(id)
  const known = Number.isInteger(simulationId) && simulationId > 0
  return {
    quantityChanged(quantity: string) {
      if (known)
        trackEvent('ui_output-quantity_changed', { quantity, outputNo: shownOutput, simulationId })
    },
    reductionChanged(detail: DetailLevel, dataset: 'fast' | 'full') {
      if (known)
        trackEvent('ui_dataset-reduction_changed', {
          pointcloudReduction: detail,
          meshReduction: dataset,
          simulationId,
        })
    },
  }
}
