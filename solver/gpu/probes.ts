/**
 * The run's sensors on the GPU (solver/run/sensorSeries.ts samples them at the solver's rate): a
 * small pass after every step of a batch evaluates each sensor point's kernel sums (probes.ts and
 * velocityProbe.ts of solver/sph, in float32) into that step's slot of a samples buffer, two vec4
 * per point; the host reads back only the slots of the steps where a sample is due, so a batch
 * stays one submission and the readback stays a few bytes per point.
 *
 *   slot s, point k: (p, vx, vy, vz), (wet, 0, 0, 0)
 *
 * p = Σ p_j W V_j / Σ W V_j over fluid and walls within 2h (fluid: its own material's Tait
 * pressure, the phase row of its flags; walls: their last extrapolated pressure, V = m/ρ0), 0
 * without a fluid particle within 2h; v = Σ v_f W m/ρ_f / Σ W m/ρ_f over the fluid with the
 * constant particle mass m, as velocityProbe.ts; wet when that Σ > 0. The cells searched reach
 * two cells (4h) around the point's: the particles moved since the step's sort.
 */
import type { SphConstants } from '../sph/config.ts'
import { KERNEL_CODE } from '../sph/config.ts'
import { fluidPressure } from '../sph/phaseTable.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { ParticleArrays } from '../sph/particles.ts'
import {
  type Matrix,
  type RotationalSlice,
  rotationMatrix,
  sliceCount,
} from '../sph/rotationalSlice.ts'
import type { GpuBuffers } from './buffers.ts'
import type { PeriodY } from './grid.ts'
import { MAP_READ, MAX_BATCH_STEPS, USAGE } from './buffers.ts'
import { perDevice } from './pipelines.ts'
import { imageTurnsAt } from './rotationalSlice.ts'
import { CONTROL, PARAMS, turnedNeighbourLoop, WORKGROUP } from './shaderCommon.ts'

/** vec4 per point and step slot. */
const VEC4_PER_POINT = 2

export const PROBE_SHADER = /* wgsl */ `${PARAMS}${CONTROL}
@group(0) @binding(1) var<storage, read> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> velr: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read> control: Control;
@group(0) @binding(7) var<storage, read> points: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read_write> samples: array<vec4<f32>>;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let m = arrayLength(&points);
  let q = gid.x;
  if (q >= m) { return; }
  var xi = points[q].xyz;
  // periodic along y: the point's image inside the period, and rows through the period's images
  if (P.gridY.y > 0.0) { xi.y = wrapPeriodY(xi.y); }
  let home = cellCoords(xi);
  let rho0 = P.k1.y;
  let particleMass = points[q].w;
  var sumW = 0.0;
  var sumPW = 0.0;
  var fluidNear = false;
  var sumFW = 0.0;
  var sumV = vec3<f32>(0.0);
  // one cell more than the stencil: particles moved a little since the last sort; across a
  // rotational slice's cuts, the images of turn k as the force pass sees them
${turnedNeighbourLoop(
  /* wgsl */ `
        let pm = posm[j];
        let d = xr - imagePoint(pm.xyz, k, t);
        let r2 = dot(d, d);
        if (r2 >= P.k0.y) { continue; }
        let flags = info[j].z;
        if ((flags & DELETED_FLAG) != 0u) { continue; }
        if (k > 0 && !imageMade(flags, k)) { continue; }
        let w = kernelW(sqrt(r2));
        var pressure: f32;
        var volume: f32;
        if ((flags & WALL_FLAG) != 0u) {
          pressure = rec0[j].w;
          volume = pm.w / rho0;
        } else {
          fluidNear = true;
          let vr = velr[j];
          // its own material's Tait equation (one fluid: phase 0 holds its material)
          let tait = P.phases[phaseOf(flags)];
          pressure = taitPressure(vr.w, tait.x, tait.y, tait.z);
          volume = pm.w / vr.w;
          // the velocity's weights take the constant particle mass (velocityProbe.ts)
          let fw = w * particleMass / vr.w;
          sumFW += fw;
          sumV += fw * imageVector(vr.xyz, k, t);
        }
        sumW += w * volume;
        sumPW += pressure * w * volume;
`,
  1,
)}
  var p = 0.0;
  if (fluidNear && sumW > 0.0) { p = sumPW / sumW; }
  var v = vec3<f32>(0.0);
  var wet = 0.0;
  if (sumFW > 0.0) {
    v = sumV / sumFW;
    wet = 1.0;
  }
  let o = ${VEC4_PER_POINT}u * ((control.index - 1u) * m + q);
  samples[o] = vec4<f32>(p, v);
  samples[o + 1u] = vec4<f32>(wet, 0.0, 0.0, 0.0);
}
`

/** A GPU solver's sensor points (GpuSolver.attachProbes). */
export interface GpuProbeReader {
  /** The last batch's steps `steps` (indices in the batch): 8 floats per point each. */
  read(steps: readonly number[]): Promise<Map<number, Float32Array>>
  /** The state before the first step at a point (hostProbe): (p, vx, vy, vz), false when dry. */
  start(point: readonly number[] | Float64Array, out: Float64Array): boolean
}

/** The probe pass, made at a device's first run with sensors. */
const probePipeline = perDevice((make) => make(PROBE_SHADER))

/** The sensor points of a run on the GPU: their buffers and the pass after each step. */
export class GpuProbes {
  readonly count: number
  #device: GPUDevice
  #points: GPUBuffer
  #samples: GPUBuffer
  #pipeline: GPUComputePipeline
  #bindGroup: GPUBindGroup

  /**
   * `points`: x, y, z of each point (sensorSeries.ts sensorPoints); `particleMass`: the constant
   * the velocity's weights take (kept in each point's fourth lane).
   */
  constructor(device: GPUDevice, buffers: GpuBuffers, points: Float64Array, particleMass: number) {
    this.#device = device
    this.count = Math.floor(points.length / 3)
    const m = Math.max(this.count, 1)
    const storage = USAGE.storage | USAGE.copySrc | USAGE.copyDst
    this.#points = device.createBuffer({ size: 16 * m, usage: storage })
    const lanes = new Float32Array(4 * m)
    for (let k = 0; k < this.count; k++) {
      lanes.set(points.subarray(3 * k, 3 * k + 3), 4 * k)
      lanes[4 * k + 3] = particleMass
    }
    device.queue.writeBuffer(this.#points, 0, lanes)
    this.#samples = device.createBuffer({
      size: 16 * VEC4_PER_POINT * m * MAX_BATCH_STEPS,
      usage: storage,
    })
    const pipeline = probePipeline(device)
    this.#pipeline = pipeline
    const b = buffers
    const resources = [
      b.params,
      b.posm,
      b.velr,
      b.info,
      b.rec0,
      b.cellStart,
      b.control,
      this.#points,
      this.#samples,
    ]
    this.#bindGroup = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: resources.map((buffer, binding) => ({ binding, resource: { buffer } })),
    })
  }

  /** The pass of a step's end: every point into the step's slot (control.index − 1). */
  encode(pass: GPUComputePassEncoder): void {
    if (this.count === 0) return
    pass.setPipeline(this.#pipeline)
    pass.setBindGroup(0, this.#bindGroup)
    pass.dispatchWorkgroups(Math.ceil(this.count / WORKGROUP))
  }

  /**
   * The slots of the batch's steps `steps` (indices in the batch), read back in one copy each:
   * for each, 8 floats per point (see the module comment).
   */
  async read(steps: readonly number[]): Promise<Map<number, Float32Array>> {
    const out = new Map<number, Float32Array>()
    if (steps.length === 0 || this.count === 0) return out
    const slotBytes = 16 * VEC4_PER_POINT * this.count
    const staging = this.#device.createBuffer({
      size: slotBytes * steps.length,
      usage: USAGE.mapRead | USAGE.copyDst,
    })
    const encoder = this.#device.createCommandEncoder()
    steps.forEach((step, k) =>
      encoder.copyBufferToBuffer(
        this.#samples,
        step * slotBytes,
        staging,
        k * slotBytes,
        slotBytes,
      ),
    )
    this.#device.queue.submit([encoder.finish()])
    await staging.mapAsync(MAP_READ)
    const all = new Float32Array(staging.getMappedRange().slice(0))
    staging.unmap()
    staging.destroy()
    steps.forEach((step, k) => {
      const per = 4 * VEC4_PER_POINT * this.count
      out.set(step, all.subarray(k * per, (k + 1) * per))
    })
    return out
  }

  destroy(): void {
    this.#points.destroy()
    this.#samples.destroy()
  }
}

/**
 * The probe of the state before the first step, in double precision on the host arrays (the
 * CPU's formulas over every particle; walls read their pressure as uploaded, as the CPU's do
 * before its first force pass). Periodic along y, every image of a particle within the support
 * counts; with a rotational slice, the images the CPU's first sort makes (imageTurnsAt), turned.
 * (p, vx, vy, vz) into `out`, false when dry.
 */
export function hostProbe(
  arrays: ParticleArrays,
  count: number,
  k: SphConstants,
  point: readonly number[] | Float64Array,
  out: Float64Array,
  images: { periodY?: PeriodY | null; slice?: RotationalSlice | null } = {},
): boolean {
  const { posX, posY, posZ, velX, velY, velZ, rho, press, kind, mass, phase } = arrays
  const rho0 = k.referenceDensity
  const sums = { w: 0, pw: 0, fluidNear: false, fw: 0, vx: 0, vy: 0, vz: 0 }
  const add = (dx: number, dy: number, dz: number, j: number, v: readonly number[]) => {
    const r2 = dx * dx + dy * dy + dz * dz
    if (!(r2 < k.support2)) return
    const w = kernelW(k, Math.sqrt(r2) / k.h)
    let pressure: number
    let volume: number
    if (kind[j] === PARTICLE_KIND.fluid) {
      sums.fluidNear = true
      pressure = fluidPressure(k, phase[j]!, rho[j]!)
      volume = mass[j]! / rho[j]!
      const fw = (w * k.particleMass) / rho[j]!
      sums.fw += fw
      sums.vx += fw * v[0]!
      sums.vy += fw * v[1]!
      sums.vz += fw * v[2]!
    } else {
      pressure = press[j]!
      volume = mass[j]! / rho0
    }
    sums.w += w * volume
    sums.pw += pressure * w * volume
  }
  const { periodY, slice } = images
  const period = periodY ? periodY.max - periodY.min : 0
  const copies = period > 0 ? Math.ceil(k.support / period) + 1 : 0
  const py =
    period > 0 ? point[1]! - period * Math.floor((point[1]! - periodY!.min) / period) : point[1]!
  const turns = slice
    ? Array.from({ length: sliceCount(slice) }, (_, t) =>
        rotationMatrix(slice.axis, t * slice.angle),
      )
    : []
  const v = [0, 0, 0]
  const x = [0, 0, 0]
  for (let j = 0; j < count; j++) {
    v[0] = velX[j]!
    v[1] = velY[j]!
    v[2] = velZ[j]!
    for (let copy = -copies; copy <= copies; copy++)
      add(point[0]! - posX[j]!, py - posY[j]! - copy * period, point[2]! - posZ[j]!, j, v)
    if (!slice) continue
    const { up, down } = imageTurnsAt(slice, k.support, posX[j]!, posY[j]!, posZ[j]!)
    for (let t = 1; t < turns.length; t++) {
      if (t > up && t < turns.length - down) continue
      turnInto(
        x,
        turns[t]!,
        posX[j]! - slice.center[0],
        posY[j]! - slice.center[1],
        posZ[j]! - slice.center[2],
      )
      turnInto(v, turns[t]!, velX[j]!, velY[j]!, velZ[j]!)
      add(
        point[0]! - slice.center[0] - x[0]!,
        point[1]! - slice.center[1] - x[1]!,
        point[2]! - slice.center[2] - x[2]!,
        j,
        v,
      )
    }
  }
  out[0] = sums.fluidNear && sums.w > 0 ? sums.pw / sums.w : 0
  if (!(sums.fw > 0)) return false
  out[1] = sums.vx / sums.fw
  out[2] = sums.vy / sums.fw
  out[3] = sums.vz / sums.fw
  return true
}

/** W at q = r/h (the CPU probes' kernel). */
function kernelW(k: SphConstants, q: number): number {
  if (k.kernelCode === KERNEL_CODE.wendland) {
    const t = 1 - 0.5 * q
    return k.kernelAlpha * t * t * t * t * (2 * q + 1)
  }
  if (q < 1) return k.kernelAlpha * (1 - 1.5 * q * q + 0.75 * q * q * q)
  const t = 2 - q
  return k.kernelAlpha * 0.25 * t * t * t
}

/** m (x, y, z) into out. */
function turnInto(out: number[], m: Matrix, x: number, y: number, z: number): void {
  out[0] = m[0]! * x + m[1]! * y + m[2]! * z
  out[1] = m[3]! * x + m[4]! * y + m[5]! * z
  out[2] = m[6]! * x + m[7]! * y + m[8]! * z
}
