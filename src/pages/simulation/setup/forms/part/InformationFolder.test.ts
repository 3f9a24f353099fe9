import { describe, expect, it } from 'vitest'
import { fluidVolumeText } from './InformationFolder.tsx'

describe('Information folder: fluid volume', () => {
  it('shows what the particles hold against the part’s own volume, and nothing for walls', () => {
    expect(
      fluidVolumeText({
        partId: 1,
        name: 'Water',
        role: 'fluid',
        particleCount: 1234,
        particleVolume: 0.009872,
        geometricVolume: 0.0103,
        volumeDifference: -0.04155,
      }),
    ).toBe('9.87 L of 10.3 L (−4.2 %)')
    expect(
      fluidVolumeText({
        partId: 1,
        name: 'Sea',
        role: 'fluid',
        particleCount: 10,
        particleVolume: 2.5,
        geometricVolume: null,
      }),
    ).toBe('2.5 m³')
    expect(
      fluidVolumeText({
        partId: 2,
        name: 'Tank',
        role: 'wall',
        particleCount: 9,
        particleVolume: 1,
      }),
    ).toBeNull()
    // a summary stored before volumes were reported
    expect(
      fluidVolumeText({ partId: 1, name: 'Water', role: 'fluid', particleCount: 9 }),
    ).toBeNull()
  })
})
