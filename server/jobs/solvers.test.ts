import { describe, expect, it } from 'vitest'
import { adapterShortName } from './solvers.ts'

describe('adapterShortName', () => {
  it('names a CPU Vulkan driver briefly and a card as it is', () => {
    expect(adapterShortName('SwiftShader driver 5.0.0')).toBe('SwiftShader')
    expect(adapterShortName('llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) 0.0.1')).toBe(
      'llvmpipe (Mesa 25.0.7)',
    )
    expect(adapterShortName('NVIDIA H200')).toBe('NVIDIA H200')
  })
})
