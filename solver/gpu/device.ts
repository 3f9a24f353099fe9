/**
 * The WebGPU device of the GPU backend: Dawn for Node (the optional `webgpu` npm package), one
 * instance kept for the life of the process (a garbage-collected Dawn instance aborts the
 * process), one adapter and one device, found once. Where the package, a Vulkan loader or an
 * adapter is missing, findGpu() answers null and nothing else happens: the GPU solver is simply
 * not offered.
 */
import type {} from 'webgpu'

/** An adapter the GPU backend can run on. */
export interface GpuInfo {
  /** What the card calls itself ('NVIDIA H200', 'SwiftShader driver 5.0.0'). */
  name: string
  /** A software adapter (SwiftShader, lavapipe): correct, not fast. */
  fallback: boolean
  /** The largest buffer, and the largest storage binding, in bytes. */
  maxBufferSize: number
  maxStorageBufferBindingSize: number
}

export interface GpuContext {
  info: GpuInfo
  device: GPUDevice
}

/** The object create() returned: kept for the life of the process, see the module comment. */
let keptInstance: unknown = null
let found: Promise<GpuContext | null> | null = null
let lastError: string | null = null

/** Storage buffers one shader stage of the backend binds (the force and scatter passes). */
const STORAGE_BUFFERS_NEEDED = 8

/** Why the last findGpu() found none (for logs and skipped tests); null when it found one. */
export function gpuUnavailableReason(): string | null {
  return lastError
}

/**
 * The adapter and device, found once per process; null where none can be had (no package, no
 * Vulkan loader, no adapter, or an adapter below the backend's needs). Never throws.
 */
export function findGpu(): Promise<GpuContext | null> {
  found ??= openGpu().catch((error: unknown) => {
    lastError = error instanceof Error ? error.message : String(error)
    return null
  })
  return found
}

async function openGpu(): Promise<GpuContext | null> {
  let module: typeof import('webgpu')
  try {
    module = await import('webgpu')
  } catch (error) {
    lastError = `The webgpu package is not installed (${(error as Error).message}).`
    return null
  }
  const instance = module.create([])
  keptInstance = instance
  const adapter = await instance.requestAdapter({ powerPreference: 'high-performance' })
  if (!adapter) {
    lastError = 'WebGPU found no adapter (no Vulkan driver for this machine).'
    return null
  }
  const limits = adapter.limits
  if (limits.maxStorageBuffersPerShaderStage < STORAGE_BUFFERS_NEEDED) {
    lastError = `The adapter binds ${limits.maxStorageBuffersPerShaderStage} storage buffers per stage; the GPU solver needs ${STORAGE_BUFFERS_NEEDED}.`
    return null
  }
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxBufferSize: limits.maxBufferSize,
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxStorageBuffersPerShaderStage: STORAGE_BUFFERS_NEEDED,
    },
  })
  const info = adapter.info
  const name =
    info.description || info.device || `${info.vendor} ${info.architecture}`.trim() || 'GPU'
  lastError = null
  return {
    info: {
      name,
      fallback: info.isFallbackAdapter,
      maxBufferSize: limits.maxBufferSize,
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
    },
    device,
  }
}

/** Keeps the module's reference visible to linters (see keptInstance). */
export function gpuInstanceKept(): boolean {
  return keptInstance !== null
}
