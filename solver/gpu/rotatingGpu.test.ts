/**
 * The rotating system on the GPU (settings.rotatingSystem: Coriolis and centrifugal accelerations,
 * the centrifugal one in the walls' extrapolation and the diffusion's hydrostatic term) against
 * the CPU: the small swirling dam break of cpuAgreement.ts in a frame turning at 6 rad/s about a
 * vertical axis through the tank's centre, and about a tilted axis off the tank. Runs on
 * SwiftShader where no GPU is.
 */
import { describe, expect, it } from 'vitest'
import { useGpu } from './testGpu.ts'
import { expectCpuAgreement, withRotation } from './cpuAgreement.ts'
import { damBreak } from '../sph/testScenarios.ts'
import { gpuUnsupportedSettings } from './support.ts'

const device = useGpu()

const FRAMES = [
  { name: 'vertical axis through the tank', axis: [0, 0, 1], center: [0.06, 0.03, 0] },
  { name: 'tilted axis beside the tank', axis: [0.3, -0.2, 1], center: [-0.05, 0.02, 0.1] },
] as const

describe('GPU backend, rotating system', () => {
  it('is no longer refused', () => {
    expect(gpuUnsupportedSettings(withRotation(damBreak(), [0, 0, 1], [0, 0, 0]))).toEqual([])
  })

  for (const { name, axis, center } of FRAMES) {
    it(`one force pass and 8 steps agree with the CPU (${name})`, async (t) => {
      const gpu = device.need(t)
      await expectCpuAgreement(withRotation(damBreak(), [...axis], [...center]), gpu)
    })
  }
})
