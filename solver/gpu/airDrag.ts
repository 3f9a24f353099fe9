/**
 * Air drag on the GPU (solver/sph/airDrag.ts in float32, Gissler et al. 2017 without
 * deformation): the drag pass after each force pass, and the host's side of the air buffer.
 *
 * The air buffer (f32): a clock [start, dt, 0, 0], the rows' times (uniform velocity rows or the
 * grid's frames, relative to the solver's time at the batch's start), then the values: vx, vy, vz
 * per row (uniform), or per frame nx·ny·nz cells of vx, vy, vz (a grid, airDragField.ts).
 * The clock: the time step's shader (DT_SHADER) moves start past the previous step's dt and keeps
 * this step's; a pass before it (the step's first interaction) takes start + dt, the end of the
 * previous step, which is this step's start; after it, start + dt/2 or start + dt. The host zeroes
 * the clock and rewrites the times at each batch (setClock): float32 times stay small.
 */
import type { AirDragConstants } from '../sph/airDragField.ts'
import { neighbourLoop, PARAMS, WORKGROUP } from './shaderCommon.ts'

/** f32 lanes of the clock before the times. */
const CLOCK = 4

/** Bytes of the air buffer of a run (16 without air drag). */
export function airBufferBytes(k: AirDragConstants | null): number {
  if (!k) return 16
  const rows = k.timesS.length
  const values = k.frames ? k.frames.length : k.velocities.length
  return 4 * (CLOCK + rows + values)
}

/** The air buffer's contents with the rows' times relative to `timeS`. */
export function airBufferData(k: AirDragConstants, timeS: number): Float32Array<ArrayBuffer> {
  const data = new Float32Array(airBufferBytes(k) / 4)
  data.set(airClock(k, timeS))
  data.set(k.frames ?? k.velocities, CLOCK + k.timesS.length)
  return data
}

/** The clock zeroed and the rows' times relative to `timeS` (the buffer's head). */
export function airClock(k: AirDragConstants, timeS: number): Float32Array<ArrayBuffer> {
  const head = new Float32Array(CLOCK + k.timesS.length)
  head.set(
    k.timesS.map((t) => t - timeS),
    CLOCK,
  )
  return head
}

/** The uniform block's air lanes (PARAMS airMin, airMax, airK as float32, airDims as u32). */
export function airParams(k: AirDragConstants | null): { f32: number[]; u32: number[] } {
  if (!k) return { f32: new Array<number>(12).fill(0), u32: [0, 0, 0, 0] }
  return {
    f32: [
      ...k.min,
      1 / k.faceNeighbours,
      ...k.max,
      k.cellSize > 0 ? 1 / k.cellSize : 0,
      0.5 * k.airDensity,
      (k.airDensity * 2 * k.sphereRadius) / k.airViscosity,
      Math.PI * k.sphereRadius * k.sphereRadius,
      k.faceArea,
    ],
    u32: [...k.dims, k.timesS.length],
  }
}

/**
 * The drag pass for fluid particles inside the air drag domain (airDrag.ts applyAirDrag, line by
 * line): w = u_air(x, t) − v; n neighbours within the support (fluid and walls), the largest
 * ŵ·r̂ over fluid neighbours (upwind shielding), e = 1 − that, f = min(1, n/n_face),
 * C_D = (1 − f) C_sphere(Re) + f, A = e ((1 − f) π L² + f dp²), a += ½ ρ_a C_D A |w| w / m; the
 * new |a|² raises the pass's largest (stats[0], the time step's). HALF: the stage at the step's
 * middle (start + dt/2), else start + dt (see the clock above).
 */
export const AIR_DRAG_SHADER = /* wgsl */ `${PARAMS}
override HALF: bool = false;
@group(0) @binding(1) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read> posm: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> acc: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> stats: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read> air: array<f32>;

var<workgroup> wgA2: array<f32, ${WORKGROUP}>;

// C_D of a sphere at Reynolds number re (airDrag.ts sphereDragCoefficient)
fn sphereDragCoefficient(re: f32) -> f32 {
  if (re > 1000.0) { return 0.424; }
  let r = select(0.1, re, re > 0.1);
  return (24.0 / r) * (1.0 + pow(r * r, 1.0 / 3.0) / 6.0);
}

// the air's velocity at x and time t (airDragField.ts locateTime, uniformAirVelocity, and
// airDrag.ts gridVelocity): linear between rows, held at the end rows; a grid's cell clamped
fn airVelocity(x: vec3<f32>, t: f32) -> vec3<f32> {
  let rows = P.airDims.w;
  let last = rows - 1u;
  var r = 0u;
  var w = 0.0;
  if (last > 0u && t > air[${CLOCK}u]) {
    if (t >= air[${CLOCK}u + last]) {
      r = last;
    } else {
      // the last row at or before t (times increase)
      var hi = last;
      loop {
        if (hi - r <= 1u) { break; }
        let mid = (r + hi) / 2u;
        if (air[${CLOCK}u + mid] <= t) { r = mid; } else { hi = mid; }
      }
      let t0 = air[${CLOCK}u + r];
      w = (t - t0) / (air[${CLOCK + 1}u + r] - t0);
    }
  }
  let values = ${CLOCK}u + rows;
  var o = values + 3u * r;
  var next = 3u;
  if (P.airMax.w > 0.0) {
    let q = floor((x - P.airMin.xyz) * P.airMax.w);
    let c = vec3<u32>(clamp(q, vec3<f32>(0.0), vec3<f32>(P.airDims.xyz - vec3<u32>(1u))));
    let cells = P.airDims.x * P.airDims.y * P.airDims.z;
    o = values + 3u * (r * cells + c.x + P.airDims.x * (c.y + P.airDims.y * c.z));
    next = 3u * cells;
  }
  let a = vec3<f32>(air[o], air[o + 1u], air[o + 2u]);
  if (w == 0.0) { return a; }
  return a + w * (vec3<f32>(air[o + next], air[o + next + 1u], air[o + next + 2u]) - a);
}

// the drag on particle i: its new |a|², 0 where none acts
fn drag(i: u32) -> f32 {
  if (i >= P.codes.x) { return 0.0; }
  let m = info[i];
  if ((m.z & (WALL_FLAG | DELETED_FLAG)) != 0u) { return 0.0; }
  let xi = rec0[i].xyz;
  if (any(xi < P.airMin.xyz) || any(xi > P.airMax.xyz)) { return 0.0; }
  let t = air[0] + select(1.0, 0.5, HALF) * air[1];
  let wind = airVelocity(xi, t) - rec1[i].xyz;
  let speed = sqrt(dot(wind, wind));
  if (!(speed > 1e-9)) { return 0.0; }
  let u = wind * (1.0 / speed);
  let support2 = P.k0.y;
  let minR2 = 1e-24 * support2;
  var neighbours = 0u;
  var upwind = 0.0;
  let c = unpackCell(m.w);
${neighbourLoop(/* wgsl */ `
        let d = xr - rec0[j].xyz;
        let r2 = dot(d, d);
        if (r2 >= support2 || r2 < minR2) { continue; }
        neighbours = neighbours + 1u;
        // only fluid shields: a wall beside the particle is not in the wind's way
        if (!(rec1[j].w > 0.0)) { continue; }
        upwind = max(upwind, dot(u, d) / sqrt(r2));
`)}
  let exposure = select(1.0 - upwind, 0.0, upwind >= 1.0);
  if (exposure == 0.0) { return 0.0; }
  let f = min(f32(neighbours) * P.airMin.w, 1.0);
  let cd = (1.0 - f) * sphereDragCoefficient(P.airK.y * speed) + f;
  let area = exposure * ((1.0 - f) * P.airK.z + f * P.airK.w);
  let s = (P.airK.x * cd * area * speed) / posm[i].w;
  let a = acc[i];
  let total = a.xyz + s * wind;
  acc[i] = vec4<f32>(total, a.w);
  return dot(total, total);
}

@compute @workgroup_size(${WORKGROUP})
fn main(
  @builtin(global_invocation_id) gid: vec3<u32>,
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(num_workgroups) groups: vec3<u32>,
) {
  wgA2[lid.x] = drag(particleIndex(gid, groups));
  workgroupBarrier();
  var s = ${WORKGROUP / 2}u;
  loop {
    if (s == 0u) { break; }
    if (lid.x < s) { wgA2[lid.x] = max(wgA2[lid.x], wgA2[lid.x + s]); }
    workgroupBarrier();
    s = s / 2u;
  }
  if (lid.x == 0u && wgA2[0] > 0.0) { atomicMax(&stats[0], bitcast<u32>(wgA2[0])); }
}
`
