/**
 * Open boundaries on the GPU (solver/sph/openBoundary.ts and openBoundaryExtrapolation.ts, in
 * float32): the shaders. openBoundaries.ts holds the host's side and the buffers:
 *
 *   open       f32: a head (zones, 0, 0, 0); per zone ZONE_VEC4 vec4: (origin, thickness),
 *              (normal into the fluid, 0 inflow / 1 outflow), (t1, u min), (t2, u max),
 *              (w min, w max, buffer part index, fluid part index), (first row, rows, 0, 0);
 *              then the profile's rows, ROW_F32 each: (t relative to the batch's start, vx, vy,
 *              vz), (p, 0, 0, 0)
 *   openCount  i32 atomics: OPEN_COUNT lanes (below)
 *   openHistory  per step slot: OPEN_RECORD i32 (injected, inflow, outflow, buffers, overflow)
 *
 * A buffer particle is a fluid particle with OPEN_FLAG (64, bit 6) in its flags and its zone's buffer
 * part index. Particles enter through unused slots: with open boundaries the buffers hold the
 * capacity, the slots without a particle flagged deleted; each sort puts the deleted after every
 * kept particle, from cellStart[cells] on, so that a particle made before the next sort takes
 * the slot cellStart[cells] + k (k counted atomically) and keeps the slot's particle id.
 */
import { CONTROL, neighbourLoop, PARAMS, PARTICLE_MAIN } from './shaderCommon.ts'

export const ZONE_VEC4 = 6
export const ROW_F32 = 8
/** i32 per step in the open history. */
export const OPEN_RECORD = 8
/** openCount's lanes. */
export const OPEN_COUNT = {
  /** Particles made since the last sort (the slot offset). */
  made: 0,
  injected: 1,
  /** Particles turned fluid at inlets less fluid turned back into them (the mass: × m). */
  inflow: 2,
  /** Fluid turned buffer at outlets less buffer particles turned fluid there. */
  outflow: 3,
  /** Particles an inlet could not make: no unused slot left. */
  overflow: 4,
  /** Buffer particles at the last sort. */
  buffers: 5,
  lanes: 8,
} as const

const OPEN_COMMON = /* wgsl */ `
const OPEN_FLAG = 64u;
const ZONE_VEC4 = ${ZONE_VEC4}u;

fn zoneCount() -> u32 { return u32(open[0]); }
fn zoneVec(z: u32, k: u32) -> vec4<f32> {
  let o = 4u + 4u * (ZONE_VEC4 * z + k);
  return vec4<f32>(open[o], open[o + 1u], open[o + 2u], open[o + 3u]);
}
// the zone whose buffer part index is part, or zoneCount()
fn bufferZone(part: u32) -> u32 {
  for (var z = 0u; z < zoneCount(); z++) {
    if (u32(zoneVec(z, 4u).z) == part) { return z; }
  }
  return zoneCount();
}
// signed distance from the zone's plane along its normal (openBoundary.ts #depth)
fn zoneDepth(z: u32, x: vec3<f32>) -> f32 {
  let o = zoneVec(z, 0u);
  return dot(x - o.xyz, zoneVec(z, 1u).xyz);
}
`

/**
 * Before the count pass of a step that is taken (openBoundary.ts beforeSort, line by line): a
 * buffer particle past its plane turns fluid (at an inlet a copy of it is made one buffer depth
 * behind, into an unused slot), one beyond the buffer's back leaves (deleted, counted outside); a
 * fluid particle within a buffer's lateral extent and depth turns buffer.
 */
export const LIFECYCLE_SHADER = /* wgsl */ `${PARAMS}${CONTROL}
@group(0) @binding(1) var<storage, read_write> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> velr: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read> control: Control;
@group(0) @binding(6) var<storage, read_write> deleted: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read> open: array<f32>;
@group(0) @binding(8) var<storage, read_write> openCount: array<atomic<i32>>;
${OPEN_COMMON}
${PARTICLE_MAIN}
  // the unused slots lie from the last sort's end of the cells on (new particles go there)
  let unused = cellStart[P.dims.w];
  if (i >= unused || control.remaining <= 0.0) { return; }
  let m = info[i];
  if ((m.z & (WALL_FLAG | DELETED_FLAG)) != 0u) { return; }
  let x = posm[i].xyz;
  let own = bufferZone(m.y);
  if (own < zoneCount()) {
    let s = zoneDepth(own, x);
    let o = zoneVec(own, 0u);
    let n = zoneVec(own, 1u);
    let inflow = n.w == 0.0;
    if (s >= 0.0) {
      info[i] = vec4<u32>(m.x, u32(zoneVec(own, 4u).w), m.z & ~OPEN_FLAG, m.w);
      if (inflow) {
        atomicAdd(&openCount[${OPEN_COUNT.inflow}], 1);
        atomicAdd(&openCount[${OPEN_COUNT.injected}], 1);
        let slot = unused + u32(atomicAdd(&openCount[${OPEN_COUNT.made}], 1));
        if (slot >= P.codes.x) {
          atomicAdd(&openCount[${OPEN_COUNT.overflow}], 1);
          return;
        }
        posm[slot] = vec4<f32>(x - o.w * n.xyz, posm[i].w);
        velr[slot] = velr[i];
        // the source's index in the cell lane (the count pass rewrites it): THERM_COPY_SHADER
        info[slot] = vec4<u32>(info[slot].x, m.y, m.z | OPEN_FLAG, i);
      } else {
        atomicAdd(&openCount[${OPEN_COUNT.outflow}], -1);
      }
    } else if (s < -o.w) {
      if (inflow) { atomicAdd(&openCount[${OPEN_COUNT.inflow}], -1); }
      info[i] = vec4<u32>(m.x, m.y, m.z | DELETED_FLAG, m.w);
      atomicAdd(&deleted[0], 1u);
      atomicAdd(&deleted[2], 1u);
    }
    return;
  }
  for (var z = 0u; z < zoneCount(); z++) {
    let o = zoneVec(z, 0u);
    let r = x - o.xyz;
    let a = zoneVec(z, 2u);
    let b = zoneVec(z, 3u);
    let c = zoneVec(z, 4u);
    let u = dot(r, a.xyz);
    let w = dot(r, b.xyz);
    if (u < a.w || u > b.w || w < c.x || w > c.y) { continue; }
    let s = zoneDepth(z, x);
    if (s >= 0.0 || s < -o.w) { continue; }
    // back into the buffer (at an inlet: shifted or pushed back; it enters again)
    info[i] = vec4<u32>(m.x, u32(c.z), m.z | OPEN_FLAG, m.w);
    if (zoneVec(z, 1u).w == 0.0) {
      atomicAdd(&openCount[${OPEN_COUNT.inflow}], -1);
    } else {
      atomicAdd(&openCount[${OPEN_COUNT.outflow}], 1);
    }
    break;
  }
}
`

/**
 * After the sort (openBoundary.ts afterSort): each buffer particle's values at the step's start
 * (the clock, airDrag.ts: air[0] + air[1]): inflow, the profile's velocity and the density from
 * the fluid; outflow, the density of the profile's pressure (inverse Tait) and the velocity from
 * the fluid. "From the fluid": the corrected interpolation (openBoundaryExtrapolation.ts) at the
 * node h inside the plane in front of the particle, over the fluid that is not buffer. Not in a
 * step past the batch's target (dt 0: the CPU takes no such step).
 */
export const EXTRAPOLATE_SHADER = /* wgsl */ `${PARAMS}${CONTROL}
@group(0) @binding(1) var<storage, read> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> velr: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read> open: array<f32>;
@group(0) @binding(6) var<storage, read_write> openCount: array<atomic<i32>>;
@group(0) @binding(7) var<storage, read> air: array<f32>;
@group(0) @binding(8) var<storage, read> control: Control;
${OPEN_COMMON}
// the zone's profile at time t (openBoundaryZone.ts interpolateProfile): (vx, vy, vz, p)
fn profileAt(z: u32, t: f32) -> vec4<f32> {
  let rows = zoneVec(z, 5u);
  let first = 4u + 4u * ZONE_VEC4 * zoneCount() + ${ROW_F32}u * u32(rows.x);
  let last = u32(rows.y) - 1u;
  var k = 0u;
  var f = 0.0;
  if (last > 0u && t > open[first]) {
    if (t >= open[first + ${ROW_F32}u * last]) {
      k = last;
    } else {
      k = 1u;
      loop {
        if (open[first + ${ROW_F32}u * k] >= t) { break; }
        k++;
      }
      let t0 = open[first + ${ROW_F32}u * (k - 1u)];
      f = (t - t0) / (open[first + ${ROW_F32}u * k] - t0);
      k = k - 1u;
    }
  }
  let a = first + ${ROW_F32}u * k;
  let v0 = vec4<f32>(open[a + 1u], open[a + 2u], open[a + 3u], open[a + 4u]);
  if (f == 0.0) { return v0; }
  let b = a + ${ROW_F32}u;
  let v1 = vec4<f32>(open[b + 1u], open[b + 2u], open[b + 3u], open[b + 4u]);
  return v0 + f * (v1 - v0);
}

// Gaussian elimination with partial pivoting of the scaled 4 × 4 system, four right-hand sides
// (openBoundaryExtrapolation.ts solveFirstOrder): false where |det| / m00⁴ < 1e-3
fn solveFirstOrder(m: ptr<function, array<f32, 16>>, r: ptr<function, array<f32, 16>>) -> bool {
  let scale = (*m)[0];
  var det = 1.0;
  for (var col = 0u; col < 4u; col++) {
    var pivot = col;
    for (var q = col + 1u; q < 4u; q++) {
      if (abs((*m)[4u * q + col]) > abs((*m)[4u * pivot + col])) { pivot = q; }
    }
    if (pivot != col) {
      det = -det;
      for (var c = 0u; c < 4u; c++) {
        let t = (*m)[4u * col + c];
        (*m)[4u * col + c] = (*m)[4u * pivot + c];
        (*m)[4u * pivot + c] = t;
        let u = (*r)[4u * col + c];
        (*r)[4u * col + c] = (*r)[4u * pivot + c];
        (*r)[4u * pivot + c] = u;
      }
    }
    let diag = (*m)[4u * col + col];
    det = det * (diag / scale);
    if (diag == 0.0) { return false; }
    for (var q = col + 1u; q < 4u; q++) {
      let f = (*m)[4u * q + col] / diag;
      if (f == 0.0) { continue; }
      for (var c = col; c < 4u; c++) { (*m)[4u * q + c] = (*m)[4u * q + c] - f * (*m)[4u * col + c]; }
      for (var c = 0u; c < 4u; c++) { (*r)[4u * q + c] = (*r)[4u * q + c] - f * (*r)[4u * col + c]; }
    }
  }
  if (!(abs(det) >= 1e-3)) { return false; }
  for (var cc = 0; cc < 4; cc++) {
    let col = u32(3 - cc);
    let diag = (*m)[4u * col + col];
    for (var c = 0u; c < 4u; c++) {
      var sum = (*r)[4u * col + c];
      for (var q = col + 1u; q < 4u; q++) { sum = sum - (*m)[4u * col + q] * (*r)[4u * q + c]; }
      (*r)[4u * col + c] = sum / diag;
    }
  }
  return true;
}

${PARTICLE_MAIN}
  let flags = info[i].z;
  if ((flags & (OPEN_FLAG | DELETED_FLAG)) != OPEN_FLAG) { return; }
  atomicAdd(&openCount[${OPEN_COUNT.buffers}], 1);
  // a step after the batch's target is not taken: the values stay those of the last one taken
  if (control.remaining <= 0.0) { return; }
  let zone = bufferZone(info[i].y);
  let n = zoneVec(zone, 1u);
  let x = posm[i].xyz;
  let h = P.k0.x;
  let invH = 1.0 / h;
  var xi = x + (h - zoneDepth(zone, x)) * n.xyz;
  if (P.gridY.y > 0.0) { xi.y = wrapPeriodY(xi.y); }
  let c = cellCoords(xi);
  var m: array<f32, 16>;
  var r: array<f32, 16>;
  var neighbours = 0u;
  let alpha = P.k1.x;
${neighbourLoop(/* wgsl */ `
        let fj = info[j].z;
        if ((fj & (WALL_FLAG | DELETED_FLAG | OPEN_FLAG)) != 0u) { continue; }
        // x_j − x_g in units of h
        let d = (posm[j].xyz - xr) * invH;
        let q2 = dot(d, d);
        if (q2 >= 4.0) { continue; }
        let q = sqrt(q2);
        var w: f32;
        var dwdq: f32;
        if (P.codes.y == 0u) {
          let t = 1.0 - 0.5 * q;
          w = alpha * t * t * t * t * (2.0 * q + 1.0);
          dwdq = -5.0 * alpha * q * t * t * t;
        } else if (q < 1.0) {
          w = alpha * (1.0 - 1.5 * q * q + 0.75 * q * q * q);
          dwdq = alpha * (-3.0 * q + 2.25 * q * q);
        } else {
          let t = 2.0 - q;
          w = alpha * 0.25 * t * t * t;
          dwdq = -0.75 * alpha * t * t;
        }
        neighbours++;
        let vr = velr[j];
        let volume = posm[j].w / vr.w;
        var g = 0.0;
        if (q > 0.0) { g = (-dwdq / q) * volume; }
        var weights = array<f32, 4>(w * volume, g * d.x, g * d.y, g * d.z);
        var values = array<f32, 4>(vr.w, vr.x, vr.y, vr.z);
        for (var row = 0u; row < 4u; row++) {
          let wr = weights[row];
          m[4u * row] += wr;
          m[4u * row + 1u] += wr * d.x;
          m[4u * row + 2u] += wr * d.y;
          m[4u * row + 3u] += wr * d.z;
          for (var col = 0u; col < 4u; col++) { r[4u * row + col] += wr * values[col]; }
        }
`)}
  // (ρ, vx, vy, vz) at the node; the target is the node itself (d = 0): f, not its gradient
  var found = neighbours > 0u && m[0] > 0.0;
  var out = vec4<f32>(0.0);
  if (found) {
    let shepard = vec4<f32>(r[0], r[1], r[2], r[3]) / m[0];
    if (solveFirstOrder(&m, &r)) {
      out = vec4<f32>(r[0], r[1], r[2], r[3]);
    } else {
      out = shepard;
    }
  }
  let imposed = profileAt(zone, air[0] + air[1]);
  let rho0 = P.k1.y;
  var v = velr[i];
  if (n.w == 0.0) {
    v = vec4<f32>(imposed.xyz, rho0);
    if (found && out.x > 0.0) { v.w = out.x; }
  } else {
    // densityFromPressure (equationOfState.ts): ρ0 (1 + p/B)^(1/γ)
    v.w = rho0 * pow(1.0 + imposed.w / P.k1.z, 1.0 / P.k1.w);
    if (found) { v = vec4<f32>(out.yzw, v.w); }
  }
  velr[i] = v;
}
`

/**
 * With the therm buffer, after the lifecycle pass: each particle made takes its source's
 * temperature (and ν; openBoundary.ts #createBehind copies temp), the source's index in its cell
 * lane.
 */
export const THERM_COPY_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> cellStart: array<u32>;
@group(0) @binding(3) var<storage, read> openCount: array<i32>;
@group(0) @binding(4) var<storage, read_write> therm: array<vec4<u32>>;

${PARTICLE_MAIN}
  let unused = cellStart[P.dims.w];
  let made = u32(openCount[${OPEN_COUNT.made}]);
  if (i < unused || i >= unused + made) { return; }
  therm[i] = therm[info[i].w];
}
`

/** Discards buffer particles' accelerations and density rates (openBoundary.ts clearForces). */
export const CLEAR_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> acc: array<vec4<f32>>;
const OPEN_FLAG = 64u;

${PARTICLE_MAIN}
  if ((info[i].z & (OPEN_FLAG | DELETED_FLAG)) == OPEN_FLAG) { acc[i] = vec4<f32>(0.0); }
}
`

/** A step's end (one thread): the counters into the step's slot, the slot offset reset. */
export const RECORD_SHADER = /* wgsl */ `${CONTROL}
@group(0) @binding(0) var<storage, read_write> openCount: array<i32>;
@group(0) @binding(1) var<storage, read> control: Control;
@group(0) @binding(2) var<storage, read_write> openHistory: array<i32>;

@compute @workgroup_size(1)
fn main() {
  let o = ${OPEN_RECORD}u * (control.index - 1u);
  openHistory[o] = openCount[${OPEN_COUNT.injected}];
  openHistory[o + 1u] = openCount[${OPEN_COUNT.inflow}];
  openHistory[o + 2u] = openCount[${OPEN_COUNT.outflow}];
  openHistory[o + 3u] = openCount[${OPEN_COUNT.buffers}];
  openHistory[o + 4u] = openCount[${OPEN_COUNT.overflow}];
  openCount[${OPEN_COUNT.made}] = 0;
  openCount[${OPEN_COUNT.buffers}] = 0;
}
`
