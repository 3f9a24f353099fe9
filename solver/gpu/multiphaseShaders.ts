/**
 * Multiphase and surface tension on the GPU (solver/sph multiphase.ts and surfaceTension.ts in
 * float32; NUMERICS.md, 'Multiphase and surface tension'): the colour gradient pass and the
 * multiphase force pass. Each fluid particle's phase rides in its flags (phaseOf), its material's
 * ρ0, B, γ and μ in the uniform block's phase rows; the pressure pass (interactShaders.ts) takes
 * its own material's Tait equation. The colour normal (n̂, |∇C|) of a fluid particle goes into
 * its entry of the wall buffer (unused by fluid particles in a multiphase run: the viscosity
 * tables, which write ν there, and the fluid's wall normal are refused with multiphase), so the
 * force pass keeps WebGPU's 8 storage buffers and the feature adds no memory.
 */
import { COLOUR_GRADIENT_THRESHOLD } from '../sph/surfaceTension.ts'
import { LEVEL_FULL, LEVEL_NONE } from '../sph/multiphase.ts'
import {
  FORCE_BINDINGS,
  FORCE_PARTICLE,
  FORCE_REDUCTION,
  FORCE_RESULT,
  forcePairSums,
  RIEMANN_WALL_PAIR,
  RIEMANN_WALL_TERM,
} from './interactShaders.ts'
import { neighbourLoop, PARAMS, PARTICLE_MAIN } from './shaderCommon.ts'

/**
 * The colour gradient (surfaceTension.ts computeColourGradients), after the wall pass: for each
 * fluid particle ∇C_i = Σ_j V_j (C_j − C_i) ∇W_ij over fluid neighbours (C = 1 in phase 1, else
 * 0), its unit vector and |∇C| into wall[i] where |∇C| > 0.01/h, else zeros.
 */
export const COLOUR_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read_write> wall: array<vec4<f32>>;

fn colour(flags: u32) -> f32 {
  return select(0.0, 1.0, phaseOf(flags) == 1u);
}

${PARTICLE_MAIN}
  if (!(rec1[i].w > 0.0)) { return; }
  let m = info[i];
  let xi = rec0[i].xyz;
  let ci = colour(m.z);
  let support2 = P.k0.y;
  let minR2 = 1e-24 * support2;
  let c = unpackCell(m.w);
  var g = vec3<f32>(0.0);
${neighbourLoop(/* wgsl */ `
        let vj = rec1[j].w;
        if (!(vj > 0.0)) { continue; }
        let dc = colour(info[j].z) - ci;
        if (dc == 0.0) { continue; }
        let d = xr - rec0[j].xyz;
        let r2 = dot(d, d);
        if (r2 >= support2 || r2 < minR2) { continue; }
        g = g + (vj * dc * gradFactor(sqrt(r2))) * d;
`)}
  let norm = sqrt(dot(g, g));
  if (norm > ${COLOUR_GRADIENT_THRESHOLD} / P.k0.x) {
    wall[i] = vec4<f32>(g * (1.0 / norm), norm);
  } else {
    wall[i] = vec4<f32>(0.0);
  }
}
`

/**
 * The multiphase force pass (multiphase.ts computeMultiphaseForces) for fluid particles, with the
 * force shader's buffers: the pair terms of forces.ts with 2 p_b in every pair's pressure term
 * (walls too, before a wall's push-never-pull test), density diffusion only between particles of
 * the same phase with i's own 1/c_i², laminar viscosity μ/ρ_i with the harmonic mean of the
 * dynamic viscosities across phases, the local minimum pressure reference (weighted by the level
 * against the support's pressure variation), the Riemann wall along the wall's geometry, and
 * surface tension's CSF force σ κ ∇C/ρ_i with the tangential curvature normalisation; as the
 * single-phase pass, a rotating frame's Coriolis and centrifugal terms (the centrifugal one in the
 * hydrostatic correction too) and free-slip walls mirrored into the viscous sums with
 * freeSlipViscosity 'mirror'.
 */
export const MULTIPHASE_FORCE_SHADER = /* wgsl */ `${FORCE_BINDINGS}

// the local minimum reference's weight (multiphase.ts levelWeight)
fn levelWeight(level: f32, variation: f32) -> f32 {
  if (level >= ${LEVEL_FULL}.0 * variation) { return 1.0; }
  if (level <= ${LEVEL_NONE}.0 * variation) { return 0.0; }
  return (level - ${LEVEL_NONE}.0 * variation) / (${LEVEL_FULL - LEVEL_NONE}.0 * variation);
}

fn forces(i: u32) -> Result {
${FORCE_PARTICLE}
  let m = info[i];
  let phi = phaseOf(m.z);
  let tait = P.phases[phi];
  let invC2i = rhoi / (tait.z * (pi + tait.y));
  let mui = tait.w;
  let twoPb = P.multi.y;
  let localMinimum = P.multi.z != 0.0;
  let sigma = P.multi.w;
  // Fourtakas' hydrostatic term along gravity (off for Molteni), with a rotating frame's
  // centrifugal acceleration at i (forces.ts)
  var hg = vec3<f32>(0.0);
  if (P.codes.w != 0u) { hg = P.k2.xyz + frameAcceleration(xi, vec3<f32>(0.0), false); }
  let mirror = P.wallK.z != 0.0;
  let riemannGeometric = P.codes.z == 2u;
  // surface tension: i on the interface (its colour normal set) takes the curvature
  var ni = vec4<f32>(0.0);
  if (sigma > 0.0) { ni = wall[i]; }
  let onInterface = ni.w > 0.0;
  var curvatureSum = 0.0;
  var curvatureWeight = 0.0;
  // the local minimum reference: min and max p over i and its neighbours, and Σ V_j ∇W_ij
  var pMin = pi;
  var pMax = pi;
  var gv = vec3<f32>(0.0);
  let c = unpackCell(m.w);
${neighbourLoop(/* wgsl */ `
        let aj = rec0[j];
        let d = xr - aj.xyz;
        let r2 = dot(d, d);
        if (r2 >= support2 || r2 < minR2) { continue; }
        count = count + 1u;
        let bj = rec1[j];
        let f = gradFactor(sqrt(r2));
        let dv = veli - bj.xyz;
        var pj = aj.w;
        var vj = bj.w;
        if (localMinimum) {
          pMin = min(pMin, pj);
          pMax = max(pMax, pj);
          gv = gv + (abs(vj) * f) * d;
        }
        let invR2 = 1.0 / (r2 + eta2);
        let fr = f * r2 * invR2;
        var u = dv;
        var viscous = 1.0;
        var muij = mui;
        if (vj > 0.0) {
          let phj = phaseOf(info[j].z);
          if (phj == phi) {
            diff = diff + vj * (pj - pi + rhoi * dot(hg, d)) * fr;
          } else {
            let muj = P.phases[phj].w;
            muij = 0.0;
            if (mui + muj > 0.0) { muij = (2.0 * mui * muj) / (mui + muj); }
          }
          pj = pj + twoPb;
          if (onInterface) {
            // Σ V_j (n̂_i − n̂_j)·∇W over neighbours with a normal, and its tangential moment
            let nj = wall[j];
            if (nj.w > 0.0) {
              let vf = vj * f;
              let rn = dot(ni.xyz, d);
              curvatureSum = curvatureSum + vf * dot(ni.xyz - nj.xyz, d);
              curvatureWeight = curvatureWeight - vf * (r2 - rn * rn);
            }
          }
        } else {
          vj = -vj;
          pj = pj + twoPb;
          if (riemannGeometric) {
            ${RIEMANN_WALL_PAIR}
          }
          // a wall pushes, never pulls
          if (pi + pj < 0.0) { pj = -pi; }
          let w = wall[j];
          if (w.w == 0.0 && !mirror) { viscous = 0.0; } else { u = veli - w.xyz; }
        }
        ${forcePairSums('muij * invRhoi')}
`)}
  if (localMinimum) {
    // the sum less the weighted reference 2 w (p_min + p_b) Σ V_j ∇W_ij / ρ_i
    let level = pMin + 0.5 * twoPb;
    a = a + (2.0 * level * levelWeight(level, pMax - pMin) * invRhoi) * gv;
  }
${RIEMANN_WALL_TERM}
  if (curvatureWeight > 0.0) {
    // CSF: σ κ ∇C/ρ_i, κ = 2 Σ V_j (n̂_i − n̂_j)·∇W / Σ V_j |r_t|²|∇W|/|r|
    let kappa = (2.0 * curvatureSum) / curvatureWeight;
    a = a + (sigma * kappa * ni.w * invRhoi) * ni.xyz;
  }
${FORCE_RESULT}
}

${FORCE_REDUCTION}
`
