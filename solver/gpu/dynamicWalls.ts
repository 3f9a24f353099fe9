/**
 * Dynamic boundary particles on the GPU (options.boundary 'dynamic'; NUMERICS.md 'Walls'): walls
 * that evolve their density by continuity from their fluid neighbours, never below ρ0 (the
 * integrators of stepShaders.ts, DYNAMIC), and act on the fluid like fluid particles: their
 * records carry the Tait pressure of their own density and the volume m/ρ_w (walls.ts
 * computePressures), and the viscous sums see their own velocity (no extrapolation: the CPU's
 * viscous velocity of a wall is its part's velocity, wallPlacement.ts). No buffer of their own:
 * the density is velr.w, its rate acc.w.
 */
import { PARAMS, PARTICLE_MAIN, turnedNeighbourLoop, WORKGROUP } from './shaderCommon.ts'

/**
 * The walls' records after the pressure pass (which gives walls −m/ρ0 and their last extrapolated
 * pressure): p_w = B((ρ_w/ρ0)^γ − 1), V_w = −m/ρ_w, and the wall buffer (v_w, noSlip), which the
 * sort's scratch use (moving parts) leaves stale.
 */
export const DYNAMIC_RECORDS_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> velr: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> rec0: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> rec1: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> wall: array<vec4<f32>>;

${PARTICLE_MAIN}
  let flags = info[i].z;
  if ((flags & (WALL_FLAG | DELETED_FLAG)) != WALL_FLAG) { return; }
  let vr = velr[i];
  rec0[i].w = taitPressure(vr.w, P.k1.y, P.k1.z, P.k1.w);
  rec1[i].w = -posm[i].w / vr.w;
  wall[i] = vec4<f32>(vr.xyz, f32((flags >> 1u) & 1u));
}
`

/**
 * The dynamic walls' continuity (forces.ts computeForces, its wall branch): dρ_w/dt = ρ_w Σ_f V_f
 * (v_w − v_f)·∇W over fluid neighbours only, no diffusion, into acc.w (acc.xyz keeps a moving
 * wall's acceleration). The pairs join the step's count (stats, as the force pass).
 */
export const DYNAMIC_CONTINUITY_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> velr: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> acc: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> stats: array<atomic<u32>>;

var<workgroup> wgCount: array<u32, ${WORKGROUP}>;

fn continuity(i: u32) -> u32 {
  if (i >= P.codes.x) { return 0u; }
  let m = info[i];
  if ((m.z & (WALL_FLAG | DELETED_FLAG)) != WALL_FLAG) { return 0u; }
  let xi = rec0[i].xyz;
  let veli = rec1[i].xyz;
  let support2 = P.k0.y;
  var arp = 0.0;
  var count = 0u;
  let home = unpackCell(m.w);
${turnedNeighbourLoop(/* wgsl */ `
          let bj = rec1[j];
          if (!(bj.w > 0.0)) { continue; }
          let d = xr - imagePoint(rec0[j].xyz, k, t);
          let r2 = dot(d, d);
          if (r2 >= support2) { continue; }
          if (k > 0 && !imageMade(info[j].z, k)) { continue; }
          count = count + 1u;
          let f = gradFactor(sqrt(r2));
          arp = arp + bj.w * f * dot(veli - imageVector(bj.xyz, k, t), d);
`)}
  acc[i] = vec4<f32>(acc[i].xyz, velr[i].w * arp);
  return count;
}

@compute @workgroup_size(${WORKGROUP})
fn main(
  @builtin(global_invocation_id) gid: vec3<u32>,
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(num_workgroups) groups: vec3<u32>,
) {
  wgCount[lid.x] = continuity(particleIndex(gid, groups));
  workgroupBarrier();
  var s = ${WORKGROUP / 2}u;
  loop {
    if (s == 0u) { break; }
    if (lid.x < s) { wgCount[lid.x] = wgCount[lid.x] + wgCount[lid.x + s]; }
    workgroupBarrier();
    s = s / 2u;
  }
  if (lid.x == 0u) {
    let n = wgCount[0];
    let old = atomicAdd(&stats[2], n);
    if (old + n < old) { atomicAdd(&stats[3], 1u); }
  }
}
`
