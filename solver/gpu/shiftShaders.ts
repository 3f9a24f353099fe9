/**
 * Particle shifting on the GPU after a step (shifting.ts shiftParticles), on the neighbour records
 * of the new positions: the fastest fluid particle first (an atomic maximum), then
 *   δr_i = −scale · Σ_j V_j (1 + R (W_ij/W(dp))⁴) ∇W_ij,   scale = 4 h U_max dt,
 * near the free surface (∇·r < 2.9) without its outward normal part (sun17: without any normal
 * part), no shift of splashes (lyu21, ∇·r < 1.5), |δr| ≤ 0.1 dp.
 */
import { SHIFT_NEAR_SURFACE_DIVERGENCE, SHIFT_SPLASH_DIVERGENCE } from '../sph/shifting.ts'
import { CONTROL, PARAMS, PARTICLE_MAIN, turnedNeighbourLoop, WORKGROUP } from './shaderCommon.ts'

/** The largest fluid speed² into stats[4] (float bits; the finish shader zeroed it). */
export const SPEED_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> velr: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> stats: array<atomic<u32>>;

var<workgroup> wgMax: array<f32, ${WORKGROUP}>;

@compute @workgroup_size(${WORKGROUP})
fn main(
  @builtin(global_invocation_id) gid: vec3<u32>,
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(num_workgroups) groups: vec3<u32>,
) {
  let i = particleIndex(gid, groups);
  var v2 = 0.0;
  if (i < P.codes.x && (info[i].z & (WALL_FLAG | DELETED_FLAG)) == 0u) {
    let v = velr[i].xyz;
    v2 = dot(v, v);
  }
  wgMax[lid.x] = v2;
  workgroupBarrier();
  var s = ${WORKGROUP / 2}u;
  loop {
    if (s == 0u) { break; }
    if (lid.x < s) { wgMax[lid.x] = max(wgMax[lid.x], wgMax[lid.x + s]); }
    workgroupBarrier();
    s = s / 2u;
  }
  if (lid.x == 0u) { atomicMax(&stats[4], bitcast<u32>(wgMax[0])); }
}
`

export const SHIFT_SHADER = /* wgsl */ `${PARAMS}${CONTROL}
@group(0) @binding(1) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read_write> posm: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> control: Control;
@group(0) @binding(7) var<storage, read> stats: array<u32>;

// R of the tensile term (shifting.ts SHIFT_R) and the free-surface thresholds on ∇·r
const SHIFT_R = 0.2;
const NEAR_SURFACE = ${SHIFT_NEAR_SURFACE_DIVERGENCE};
const SPLASH = ${SHIFT_SPLASH_DIVERGENCE};

${PARTICLE_MAIN}
  let m = info[i];
  // walls, and an open boundary's buffer particles (64: their lattice moves with their velocity)
  if ((m.z & (WALL_FLAG | DELETED_FLAG | 64u)) != 0u) { return; }
  let scale = 4.0 * P.k0.x * sqrt(bitcast<f32>(stats[4])) * control.dt;
  let lyu = P.k6.y == 2.0;
  let support2 = P.k0.y;
  let minR2 = 1e-24 * support2;
  let xi = rec0[i].xyz;
  var g = vec3<f32>(0.0);
  var sh = vec3<f32>(0.0);
  var divergence = 0.0;
  let home = unpackCell(m.w);
${turnedNeighbourLoop(/* wgsl */ `
          let d = xr - imagePoint(rec0[j].xyz, k, t);
          let r2 = dot(d, d);
          if (r2 >= support2 || r2 < minR2) { continue; }
          if (k > 0 && !imageMade(info[j].z, k)) { continue; }
          let rr = sqrt(r2);
          let vf = abs(rec1[j].w) * gradFactor(rr);
          g = g + vf * d;
          let ratio = kernelW(rr) * P.k6.x;
          let r4 = ratio * ratio * ratio * ratio;
          sh = sh + (vf * (1.0 + SHIFT_R * r4)) * d;
          divergence = divergence - vf * r2;
`)}
  if (lyu && divergence < SPLASH) { return; }
  var dr = -scale * sh;
  if (divergence < NEAR_SURFACE) {
    let gl = length(g);
    if (gl > 0.0) {
      let n = -g / gl;
      let normal = dot(dr, n);
      // sun17 removes the normal part; lyu21 keeps it when it points into the fluid
      var removed = normal;
      if (lyu && normal < 0.0) { removed = 0.0; }
      dr = dr - removed * n;
    }
  }
  let d2 = dot(dr, dr);
  let maxShift = P.k6.z;
  if (d2 > maxShift * maxShift) { dr = dr * (maxShift / sqrt(d2)); }
  let p = posm[i];
  posm[i] = vec4<f32>(p.xyz + dr, p.w);
}
`
