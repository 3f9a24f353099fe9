import { describe, expect, it } from 'vitest'
import {
  MAX_OUTPUT_BUDGET_BYTES,
  MIN_OUTPUT_BUDGET_BYTES,
  NO_MEMORY_READINGS,
  outputMemoryBudget,
} from './memoryBudget.ts'

const GIB = 1024 ** 3
const MIB = 1024 ** 2

describe('output memory budget', () => {
  it('takes an eighth of the device memory, 4 GiB assumed where the browser does not say', () => {
    expect(outputMemoryBudget(NO_MEMORY_READINGS)).toBe(512 * MIB)
    expect(outputMemoryBudget({ deviceMemoryGiB: 8, pageBytes: null })).toBe(GIB)
    expect(outputMemoryBudget({ deviceMemoryGiB: 2, pageBytes: null })).toBe(256 * MIB)
  })

  it('stays within its bounds on small and large devices', () => {
    expect(outputMemoryBudget({ deviceMemoryGiB: 0.25, pageBytes: null })).toBe(
      MIN_OUTPUT_BUDGET_BYTES,
    )
    expect(outputMemoryBudget({ deviceMemoryGiB: 64, pageBytes: null })).toBe(
      MAX_OUTPUT_BUDGET_BYTES,
    )
  })

  it('shrinks when the page already uses most of half the device, not counting the outputs held', () => {
    // 8 GiB device: the page should stay under 4 GiB; it uses 3.5 GiB of which 0.25 GiB are outputs.
    const budget = outputMemoryBudget({ deviceMemoryGiB: 8, pageBytes: 3.5 * GIB }, 0.25 * GIB)
    expect(budget).toBe(0.75 * GIB)
    // A page that uses little leaves the device's share as it is.
    expect(outputMemoryBudget({ deviceMemoryGiB: 8, pageBytes: 200 * MIB })).toBe(GIB)
    // Never below the minimum, however full the page.
    expect(outputMemoryBudget({ deviceMemoryGiB: 8, pageBytes: 6 * GIB })).toBe(
      MIN_OUTPUT_BUDGET_BYTES,
    )
  })
})
