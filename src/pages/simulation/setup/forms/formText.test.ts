import { describe, expect, it } from 'vitest'
import { formatMeasured, formatMeasuredVector, formatVector, withUnit } from './formText.ts'

describe('form text', () => {
  it('writes numbers and vectors as people do, with their unit', () => {
    expect(formatVector([0.1 + 0.75, 0.15000000000000002, 0.55], 'm')).toBe('(0.85, 0.15, 0.55) m')
    expect(formatVector([1, null, 2], '')).toBe('(1, –, 2)')
    expect(withUnit(1e-6, 'm²/s')).toBe('1e-6 m²/s')
  })

  it('reads float32 geometry without its noise', () => {
    const box = [-5.96046456636e-9, -7.45058070795e-10, 0.800000011921]
    expect(formatMeasuredVector(box, 'm', 0.8)).toBe('(0, 0, 0.8) m')
    expect(formatMeasuredVector([0.0500000003725, 0.25, 0.4], 'm', 0.8)).toBe('(0.05, 0.25, 0.4) m')
    expect(formatMeasured(0.9800001, 0)).toBe('0.98')
  })
})
