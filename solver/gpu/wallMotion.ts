/**
 * Moving parts on the GPU (config.wallMotion, as solver/sph wallMover.ts and wallPlacement.ts):
 * per part, the affine maps from a wall particle's rest position x0 to its position, velocity and
 * acceleration at a time t, computed on the host in double precision from the part's poses at
 * t − ε, t, t + ε (the CPU's central differences are linear in x0: the same numbers but for
 * rounding), and the shaders that place the wall particles from them and carry their rest
 * positions through the sort.
 */
import type { RigidTransform, WallMotion } from '../sph/motion.ts'
import { identityTransform, MOTION_DIFFERENCE_S, poseToTransform } from '../sph/motion.ts'
import type { GpuPasses } from './passes.ts'
import { PARAMS, PARTICLE_MAIN } from './shaderCommon.ts'

/** vec4 per part: three rows (matrix row, offset) for each of position, velocity, acceleration. */
export const MOTION_VEC4_PER_PART = 9

/**
 * The maps of every part at time t, float32 rows of MOTION_VEC4_PER_PART vec4 per part index: a
 * part at rest (no pose at t − ε, t, t + ε) maps x0 to itself with no velocity or acceleration.
 */
export function motionMaps(
  partIds: readonly number[],
  motion: WallMotion,
  timeS: number,
): Float32Array<ArrayBuffer> {
  const eps = MOTION_DIFFERENCE_S
  const out = new Float32Array(Math.max(1, partIds.length) * MOTION_VEC4_PER_PART * 4)
  const [geometry, before, now, after] = [0, 1, 2, 3].map(() => identityTransform()) as [
    RigidTransform,
    RigidTransform,
    RigidTransform,
    RigidTransform,
  ]
  for (let p = 0; p < partIds.length; p++) {
    const id = partIds[p]!
    const poses = [motion(id, timeS - eps), motion(id, timeS), motion(id, timeS + eps)]
    poseToTransform(poses[1]!, geometry)
    poseToTransform(poses[0]?.velocityPose ?? poses[0]!, before)
    poseToTransform(poses[1]?.velocityPose ?? poses[1]!, now)
    poseToTransform(poses[2]?.velocityPose ?? poses[2]!, after)
    const base = p * MOTION_VEC4_PER_PART * 4
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        const k = 3 * r + c
        const b = before.matrix[k]!
        const n = now.matrix[k]!
        const a = after.matrix[k]!
        out[base + 4 * r + c] = geometry.matrix[k]!
        out[base + 12 + 4 * r + c] = (a - b) / (2 * eps)
        out[base + 24 + 4 * r + c] = (a - 2 * n + b) / (eps * eps)
      }
      const b = before.offset[r]!
      const n = now.offset[r]!
      const a = after.offset[r]!
      out[base + 4 * r + 3] = geometry.offset[r]!
      out[base + 12 + 4 * r + 3] = (a - b) / (2 * eps)
      out[base + 24 + 4 * r + 3] = (a - 2 * n + b) / (eps * eps)
    }
  }
  return out
}

/**
 * Wall particles at the maps' time (wallPlacement.ts placeWalls): position, velocity (velr.xyz,
 * which the neighbour records and the viscous terms take) and acceleration (acc.xyz, which the
 * wall extrapolation subtracts from gravity; the force pass writes acc for fluid only).
 */
export const PLACE_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> rest: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> maps: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> posm: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> velr: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> acc: array<vec4<f32>>;

fn apply(base: u32, x0: vec4<f32>) -> vec3<f32> {
  return vec3<f32>(dot(maps[base], x0), dot(maps[base + 1u], x0), dot(maps[base + 2u], x0));
}

${PARTICLE_MAIN}
  let m = info[i];
  if ((m.z & (WALL_FLAG | DELETED_FLAG)) != WALL_FLAG) { return; }
  let x0 = vec4<f32>(rest[i].xyz, 1.0);
  let base = ${MOTION_VEC4_PER_PART}u * m.y;
  posm[i] = vec4<f32>(apply(base, x0), posm[i].w);
  velr[i] = vec4<f32>(apply(base + 3u, x0), velr[i].w);
  acc[i] = vec4<f32>(apply(base + 6u, x0), 0.0);
}
`

/** The rest positions into cell order beside the sort's scatter (into a scratch buffer). */
export const SCATTER_REF_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> rest: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> rank: array<u32>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read_write> outRef: array<vec4<f32>>;

${PARTICLE_MAIN}
  outRef[cellStart[info[i].w] + rank[i]] = rest[i];
}
`

/** A run's moving parts on the GPU: the part maps written per step, the steps in two halves. */
export class GpuWallMotion {
  #device: GPUDevice
  #passes: GpuPasses
  #partIds: readonly number[]
  #motion: WallMotion

  constructor(
    device: GPUDevice,
    passes: GpuPasses,
    partIds: readonly number[],
    motion: WallMotion,
  ) {
    this.#device = device
    this.#passes = passes
    this.#partIds = partIds
    this.#motion = motion
  }

  /** The maps of `slot` (0: a step's t, 1: t + dt/2, 2: t + dt) at timeS. */
  #writeMaps(slot: number, timeS: number): void {
    const maps = motionMaps(this.#partIds, this.#motion, timeS)
    this.#device.queue.writeBuffer(this.#passes.buffers.maps[slot]!, 0, maps)
  }

  /** The walls placed at timeS (after an upload, as the CPU's start and restore). */
  place(timeS: number): void {
    this.#writeMaps(0, timeS)
    const encoder = this.#device.createCommandEncoder()
    this.#passes.encodePlace(encoder)
    this.#device.queue.submit([encoder.finish()])
  }

  /**
   * `steps` steps from timeS, each submitted in two halves with the time step read back between
   * them, so that the maps of t + dt/2 and t + dt are in place for the stages that need them. One
   * small readback per step; a step past the batch's target (dt 0) ends the batch.
   */
  async steps(steps: number, timeS: number): Promise<void> {
    const p = this.#passes
    const queue = this.#device.queue
    let t = timeS
    for (let s = 0; s < steps; s++) {
      this.#writeMaps(0, t)
      let encoder = this.#device.createCommandEncoder()
      p.encodeStepStart(encoder)
      queue.submit([encoder.finish()])
      const dt = new Float32Array(await p.read(p.buffers.control, 16))[0]!
      if (!(dt > 0)) break
      this.#writeMaps(1, t + 0.5 * dt)
      this.#writeMaps(2, t + dt)
      encoder = this.#device.createCommandEncoder()
      p.encodeStepEnd(encoder)
      queue.submit([encoder.finish()])
      t += dt
    }
  }
}
