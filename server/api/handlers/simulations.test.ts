import { describe, expect, it } from 'vitest'
import { chooseCloneName } from './simulations.ts'

describe('chooseCloneName', () => {
  it('appends (copy), then (copy 2), (copy 3) for names already taken', () => {
    expect(chooseCloneName('Run', new Set(['Run']))).toBe('Run (copy)')
    expect(chooseCloneName('Run', new Set(['Run', 'Run (copy)']))).toBe('Run (copy 2)')
    expect(chooseCloneName('Run', new Set(['Run (copy)', 'Run (copy 2)']))).toBe('Run (copy 3)')
  })

  it('cuts the original so the clone stays within 100 characters', () => {
    const name = 'x'.repeat(100)
    expect(chooseCloneName(name, new Set())).toHaveLength(100)
    expect(chooseCloneName(`${'y'.repeat(92)} tail`, new Set())).toBe(`${'y'.repeat(92)} (copy)`)
  })
})
