import { useState } from 'react'
import type { SimulationSettings } from '../../../../../../domain/settings.ts'
import {
  SETTINGS_MESSAGES,
  checkOutputCount,
  checkOutputCountInput,
  outputCount,
  outputIntervalFromCount,
} from '../../../../../../domain/settingsRules.ts'
import type { Issue } from '../../../../../../domain/validation.ts'
import { NumberField } from '../fields/NumberField.tsx'

/**
 * The output count: end time ÷ output interval, and typed, the interval it gives (end time ÷
 * count). It needs an end time first ('Set an end time first'); a count out of bounds ('Total
 * output number must be less than N. Now is M.') is shown and not saved.
 */
export function OutputCountField({
  settings,
  onInterval,
}: {
  settings: SimulationSettings
  onInterval: (outputTimeInterval: number) => void
}) {
  const [refused, setRefused] = useState<{ count: number | null; issues: Issue[] } | null>(null)
  const count = outputCount(settings)
  const endTime = settings.endTime
  const needsEndTime = checkOutputCountInput(endTime, 1).filter(
    (i) => i.message === SETTINGS_MESSAGES.setEndTimeFirst,
  )
  const stored = count === null ? [] : checkOutputCount(count, 'standard', 'settings.outputCount')
  const issues = needsEndTime.length > 0 ? needsEndTime : (refused?.issues ?? stored)
  return (
    <NumberField
      label="Output count"
      unit=""
      value={refused ? refused.count : count}
      disabled={needsEndTime.length > 0}
      disabledReason={needsEndTime.length > 0 ? SETTINGS_MESSAGES.setEndTimeFirst : null}
      issues={issues}
      hint="Outputs written over the end time; sets the output interval."
      onCommit={(typed) => {
        const checked = checkOutputCountInput(endTime, typed)
        const interval = typed === null ? null : outputIntervalFromCount(endTime, typed)
        if (checked.length > 0 || interval === null) {
          setRefused({ count: typed, issues: checked })
          return
        }
        setRefused(null)
        onInterval(interval)
      }}
    />
  )
}
