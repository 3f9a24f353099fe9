/**
 * The generalized-wall extrapolation on the GPU, between the pressures and the force pass of
 * interactShaders.ts (see shaderCommon.ts for the buffers).
 */
import { PARAMS, PARTICLE_MAIN, turnedNeighbourLoop } from './shaderCommon.ts'

/**
 * Generalized wall (walls.ts extrapolateWalls; a_w = 0 unless MOVING): p_w = max(0, (Σ p_f W +
 * g·Σ ρ_f r_wf W)/Σ W), ρ_w from the inverse equation of state, viscous velocity 2 v_w − ṽ_f (a
 * free-slip wall with freeSlipViscosity 'mirror': ṽ_f + 2((v_w − ṽ_f)·n)n, walls.ts
 * setWallViscousVelocity); with riemannWallNormal 'fluid' the wall's normal n = −Σ ρ_f W r_wf/|…|
 * into the wall buffer's second half.
 */
export const WALL_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read_write> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> velr: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> wall: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read> acc: array<vec4<f32>>;
// moving parts: the wall's acceleration a_w (acc.xyz, wallMotion.ts PLACE_SHADER) enters as g − a_w
override MOVING: bool = false;

${PARTICLE_MAIN}
  let m = info[i];
  if ((m.z & (WALL_FLAG | DELETED_FLAG)) != WALL_FLAG) { return; }
  let noSlip = f32((m.z >> 1u) & 1u);
  let xi = rec0[i].xyz;
  let vw = rec1[i].xyz;
  let home = unpackCell(m.w);
  var sumW = 0.0;
  var sumP = 0.0;
  var sumR = vec3<f32>(0.0);
  var sumV = vec3<f32>(0.0);
${turnedNeighbourLoop(/* wgsl */ `
          let bj = rec1[j];
          if (!(bj.w > 0.0)) { continue; }
          let aj = rec0[j];
          let d = xr - imagePoint(aj.xyz, k, t);
          let r2 = dot(d, d);
          if (r2 >= P.k0.y) { continue; }
          if (k > 0 && !imageMade(info[j].z, k)) { continue; }
          let w = kernelW(sqrt(r2));
          sumW = sumW + w;
          sumP = sumP + aj.w * w;
          sumR = sumR + (velr[j].w * w) * d;
          sumV = sumV + imageVector(bj.xyz, k, t) * w;
`)}
  if (sumW > 0.0) {
    let invW = 1.0 / sumW;
    var g = P.k2.xyz;
    if (MOVING) { g = g - acc[i].xyz; }
    // in a rotating frame the wall feels the centrifugal acceleration too (walls.ts)
    g = g + frameAcceleration(xi, vec3<f32>(0.0), false);
    var p = (sumP + dot(g, sumR)) * invW;
    if (p < 0.0) { p = 0.0; }
    let density = clamp(P.k1.y * pow(p / P.k1.z + 1.0, 1.0 / P.k1.w), P.k3.w, P.k4.x);
    rec0[i].w = p;
    velr[i].w = density;
    let f = sumV * invW;
    // Σ ρ_f W (r_w − r_f) points from the fluid into the wall: its opposite is the normal
    let sumRLength = length(sumR);
    var n = vec3<f32>(0.0);
    if (sumRLength > 0.0) { n = -sumR / sumRLength; }
    if (noSlip == 0.0 && P.wallK.z != 0.0 && sumRLength > 0.0) {
      wall[i] = vec4<f32>(f + (2.0 * dot(vw - f, n)) * n, noSlip);
    } else {
      wall[i] = vec4<f32>(2.0 * vw - f, noSlip);
    }
    if (P.codes.z == 1u) { wall[arrayLength(&wall) / 2u + i] = vec4<f32>(n, 0.0); }
  } else {
    rec0[i].w = 0.0;
    velr[i].w = P.k1.y;
    wall[i] = vec4<f32>(vw, noSlip);
    if (P.codes.z == 1u) { wall[arrayLength(&wall) / 2u + i] = vec4<f32>(0.0); }
  }
}
`
