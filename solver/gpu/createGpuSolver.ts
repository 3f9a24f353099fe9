/**
 * The GPU solver's factory (GpuSolver.ts re-exports it): what the GPU refuses, the adapter, the
 * particles prepared as the CPU's, and the check that the case fits the adapter's buffers.
 */
import type { SolverConfig } from '../sph/config.ts'
import {
  deriveConstants,
  findFluidMaterial,
  resolveOptions,
  SolverSetupError,
} from '../sph/config.ts'
import { prepareParticles } from '../sph/prepare.ts'
import { findGpu, type GpuContext, gpuUnavailableReason } from './device.ts'
import { gpuGrid } from './grid.ts'
import { GpuSolver } from './GpuSolver.ts'
import { gpuFeatures, gpuFitProblem, gpuUnsupportedSettings } from './support.ts'

/** Creates a GPU solver, or refuses (SolverSetupError) what the GPU backend does not implement. */
export async function createGpuSolver(
  config: SolverConfig,
  context?: GpuContext,
): Promise<GpuSolver> {
  const refused = gpuUnsupportedSettings(config)
  if (refused.length > 0)
    throw new SolverSetupError(`Unsupported on the GPU: ${refused.join(', ')}.`)
  const gpu = context ?? (await findGpu())
  if (!gpu) throw new SolverSetupError(`No GPU is available: ${gpuUnavailableReason() ?? ''}`)
  const options = resolveOptions(config.options)
  const material = findFluidMaterial(config)
  const constants = deriveConstants(config, options, material)
  const setup = prepareParticles(config, options, constants)
  const grid = gpuGrid(setup.referenceBox, constants.support, setup.count, options.periodicY)
  const features = gpuFeatures(config, constants)
  const problem = gpuFitProblem(setup.arrays.capacity, grid.shape.cells, gpu.info, features)
  if (problem) throw new SolverSetupError(problem)
  return new GpuSolver(config, options, constants, material.id, setup, grid, gpu)
}
