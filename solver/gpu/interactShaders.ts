/**
 * The interaction passes on the GPU: Tait pressures and neighbour records, the force pass (see
 * shaderCommon.ts for the buffers; wallShaders.ts: the generalized-wall extrapolation between them).
 */
import { KAPPA, LOG_B, Y_PLUS_SUBLAYER } from '../sph/wallFunction.ts'
import { PARAMS, PARTICLE_MAIN, turnedNeighbourLoop, WORKGROUP } from './shaderCommon.ts'

/**
 * Tait pressure and the neighbour records (walls.ts computePressures; with multiphase each fluid
 * particle's own material, multiphase.ts computeMultiphasePressures): fluid (p, V = m/ρ), walls
 * (their last pressure, −m/ρ0); the wall extrapolation writes the walls' pressure next.
 */
export const PRESSURE_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> velr: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> rec0: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> rec1: array<vec4<f32>>;

${PARTICLE_MAIN}
  let flags = info[i].z;
  if ((flags & DELETED_FLAG) != 0u) {
    // neither fluid (V > 0) nor wall (V < 0): the force pass skips it
    rec1[i] = vec4<f32>(0.0);
    return;
  }
  let pm = posm[i];
  let vr = velr[i];
  if ((flags & WALL_FLAG) != 0u) {
    // the wall's pressure stays the last extrapolation's (snapshots read it; the extrapolation
    // rewrites it before any force pass)
    rec0[i] = vec4<f32>(pm.xyz, rec0[i].w);
    rec1[i] = vec4<f32>(vr.xyz, -pm.w / P.k1.y);
    return;
  }
  // the fluid's own material (multiphase.ts computeMultiphasePressures; one fluid: phase 0)
  let tait = P.phases[phaseOf(flags)];
  rec0[i] = vec4<f32>(pm.xyz, taitPressure(vr.w, tait.x, tait.y, tait.z));
  rec1[i] = vec4<f32>(vr.xyz, pm.w / vr.w);
}
`

/**
 * The log law's u_τ² (wallFunction.ts wallShearVelocity2, its κ, B and sublayer y+): the laminar
 * sublayer's ν u_t/y below y+ = 11.06, else Newton's method from u_t/20 as the CPU; the CPU stops
 * at a step of 1e-10 u, which float32 does not resolve: here at 4 float32 epsilons (Newton's
 * iterates then stay within rounding of the root), at most 30 steps like the CPU.
 */
const WALL_SHEAR = /* wgsl */ `
fn wallShearVelocity2(ut: f32, y: f32, nu: f32) -> f32 {
  let laminar = (nu * ut) / y;
  if ((y * sqrt(laminar)) / nu < ${Y_PLUS_SUBLAYER}) { return laminar; }
  let c = y / nu;
  var u = ut / 20.0;
  for (var k = 0; k < 30; k = k + 1) {
    let l = log(c * u) / ${KAPPA} + ${LOG_B};
    let next = u - (u * l - ut) / (l + 1.0 / ${KAPPA});
    if (abs(next - u) <= 4.8e-7 * u) {
      u = next;
      break;
    }
    u = next;
  }
  return u * u;
}
`

/**
 * A force pass's entry point over `forces(i)` (its Result: |a|², the viscous rate, the pairs): per
 * workgroup the largest |a|² and viscous rate and the pair count into stats (maxima as float
 * bits, which order as u32 for non-negative floats).
 */
export const FORCE_REDUCTION = /* wgsl */ `
struct Result { a2: f32, visc: f32, count: u32 }
var<workgroup> wgA2: array<f32, ${WORKGROUP}>;
var<workgroup> wgVisc: array<f32, ${WORKGROUP}>;
var<workgroup> wgCount: array<u32, ${WORKGROUP}>;

@compute @workgroup_size(${WORKGROUP})
fn main(
  @builtin(global_invocation_id) gid: vec3<u32>,
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(num_workgroups) groups: vec3<u32>,
) {
  let r = forces(particleIndex(gid, groups));
  wgA2[lid.x] = r.a2;
  wgVisc[lid.x] = r.visc;
  wgCount[lid.x] = r.count;
  workgroupBarrier();
  var s = ${WORKGROUP / 2}u;
  loop {
    if (s == 0u) { break; }
    if (lid.x < s) {
      wgA2[lid.x] = max(wgA2[lid.x], wgA2[lid.x + s]);
      wgVisc[lid.x] = max(wgVisc[lid.x], wgVisc[lid.x + s]);
      wgCount[lid.x] = wgCount[lid.x] + wgCount[lid.x + s];
    }
    workgroupBarrier();
    s = s / 2u;
  }
  if (lid.x == 0u) {
    atomicMax(&stats[0], bitcast<u32>(wgA2[0]));
    atomicMax(&stats[1], bitcast<u32>(wgVisc[0]));
    let n = wgCount[0];
    let old = atomicAdd(&stats[2], n);
    if (old + n < old) { atomicAdd(&stats[3], 1u); }
  }
}
`

/** The force passes' buffers (forceShader, multiphaseShaders.ts), with PARAMS. */
export const FORCE_BINDINGS = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> wall: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> acc: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> stats: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read> velr: array<vec4<f32>>;
`

/**
 * The force passes' particle i, in `forces(i)`: nothing but a fluid particle (V > 0); its record
 * (x, v, p, V, ρ), the kernel's constants, c0, and the sums: a (pressure, artificial viscosity),
 * l (laminar), arp and diff (continuity, diffusion), wg, wsum, wv (the Riemann wall's G, Σ V_w W'
 * and weighted velocity), and the Result's maxVisc and count.
 */
export const FORCE_PARTICLE = /* wgsl */ `  var out = Result(0.0, 0.0, 0u);
  if (i >= P.codes.x) { return out; }
  let bi = rec1[i];
  if (!(bi.w > 0.0)) { return out; }
  let ai = rec0[i];
  let xi = ai.xyz;
  let veli = bi.xyz;
  let pi = ai.w;
  let vi = bi.w;
  let rhoi = velr[i].w;
  let invRhoi = 1.0 / rhoi;
  let h = P.k0.x;
  let support2 = P.k0.y;
  let eta2 = P.k0.z;
  let minR2 = 1e-24 * support2;
  let c0 = P.k2.w;
  let quarterAlphaC0 = 0.25 * P.k3.x * c0;
  var a = vec3<f32>(0.0);
  var l = vec3<f32>(0.0);
  var arp = 0.0;
  var diff = 0.0;
  var wg = vec3<f32>(0.0);
  var wsum = 0.0;
  var wv = vec3<f32>(0.0);
  var maxVisc = 0.0;
  var count = 0u;`

/**
 * A wall pair's part of the Riemann wall along the walls' kernel gradient (riemannWall 2): G,
 * Σ V_w F and the weighted wall velocity, for RIEMANN_WALL_TERM (after its vj, f, d and bj).
 */
export const RIEMANN_WALL_PAIR = /* wgsl */ `let wf = vj * f;
              wg = wg + wf * d;
              wsum = wsum + wf;
              wv = wv + wf * bj.xyz;`

/** The Riemann wall along the walls' kernel gradient (riemannWall 2), after the pairs' loop. */
export const RIEMANN_WALL_TERM = /* wgsl */ `  if (wsum != 0.0) {
    // the Riemann problem along n = −G/|G|, G = Σ_w V_w ∇W_iw: −2βU G
    let g = length(wg);
    if (g > 0.0) {
      let approach = dot(veli - wv / wsum, wg) / g;
      if (approach > 0.0) {
        let beta = min(6.0 * approach, c0);
        a = a + (-2.0 * beta * approach) * wg;
      }
    }
  }`

/**
 * A force pass's end, after its 1/c_i² (invC2i): a = the sums + gravity + a rotating frame's
 * accelerations, acc[i] = (a, ρ_i arp − 2δhc0/c_i² diff), and the Result.
 */
export const FORCE_RESULT = /* wgsl */ `  let total = a + l + P.k2.xyz + frameAcceleration(xi, veli, true);
  acc[i] = vec4<f32>(total, rhoi * arp - P.k3.z * invC2i * diff);
  out.a2 = dot(total, total);
  out.visc = maxVisc;
  out.count = count;
  return out;`

/**
 * A force pair's sums, last in the pairs' loop (after its f, dv, d, u, viscous, pj and vj): the
 * continuity term, the pressure and artificial viscosity terms, and the laminar term with `nu`
 * (the pair's kinematic viscosity), the pair's |μ| into maxVisc.
 */
export function forcePairSums(nu: string): string {
  return /* wgsl */ `arp = arp + f * vj * dot(dv, d);
          let mu = h * dot(u, d) * viscous * invR2;
          let muAbs = abs(mu);
          let sumV = vi + vj;
          let coef = -(pi + pj) * invRhoi * vj + quarterAlphaC0 * (mu - muAbs) * sumV;
          l = l + (${nu} * sumV * fr * viscous) * u;
          maxVisc = max(maxVisc, muAbs);
          a = a + (coef * f) * d;`
}

/**
 * The force pass (forces.ts computeForces) for fluid particles: momentum with the symmetric
 * pressure term, artificial and laminar viscosity, gravity; continuity with density diffusion;
 * wall pairs push, never pull; the Riemann wall along each wall particle's normal (riemannWall
 * 1, the wall pass's) or the wall's own kernel gradient (2); free-slip walls in the viscous sums
 * with their mirrored velocity (wallK.z); the log-law wall function on no-slip walls in place of
 * their pair viscosity (wallK.x = ν > 0); in a rotating frame its Coriolis and centrifugal
 * accelerations; its stats as FORCE_REDUCTION's. With `variableNu` (a
 * viscosity table, heatShaders.ts) each fluid particle's ν from wall.x (the viscosity pass puts
 * it there: no ninth storage buffer), a fluid pair taking the harmonic mean 2 ν_i ν_j/(ν_i + ν_j),
 * a wall pair the fluid particle's own (forces.ts).
 */
export function forceShader(variableNu: boolean): string {
  return /* wgsl */ `${FORCE_BINDINGS}
${WALL_SHEAR}

fn forces(i: u32) -> Result {
${FORCE_PARTICLE}
  let nu = ${variableNu ? 'wall[i].x' : 'P.k3.y'};
  // 1/c_i² = ρ_i/(γ (p_i + B)); Fourtakas' hydrostatic term along gravity (off for Molteni)
  let invC2i = rhoi / (P.k1.w * (pi + P.k1.z));
  // in a rotating frame the centrifugal acceleration at i joins gravity there (forces.ts)
  var hg = vec3<f32>(0.0);
  if (P.codes.w != 0u) { hg = P.k2.xyz + frameAcceleration(xi, vec3<f32>(0.0), false); }
  let riemannFluid = P.codes.z == 1u;
  let riemannGeometric = P.codes.z == 2u;
  let normals = arrayLength(&wall) / 2u;
  let mirror = P.wallK.z != 0.0;
  let wallNu = P.wallK.x;
  let wallFunction = wallNu > 0.0;
  // the no-slip walls' kernel gradient, weighted velocity and nearest particle (wall function)
  var sg = vec3<f32>(0.0);
  var ssum = 0.0;
  var sv = vec3<f32>(0.0);
  var nearR2 = support2;
  var near = vec3<f32>(0.0);
  let home = unpackCell(info[i].w);
${turnedNeighbourLoop(/* wgsl */ `
          let aj = rec0[j];
          let d = xr - imagePoint(aj.xyz, k, t);
          let r2 = dot(d, d);
          if (r2 >= support2 || r2 < minR2) { continue; }
          if (k > 0 && !imageMade(info[j].z, k)) { continue; }
          count = count + 1u;
          let rj = rec1[j];
          let bj = vec4<f32>(imageVector(rj.xyz, k, t), rj.w);
          let f = gradFactor(sqrt(r2));
          let dv = veli - bj.xyz;
          var pj = aj.w;
          var vj = bj.w;
          let invR2 = 1.0 / (r2 + eta2);
          let fr = f * r2 * invR2;
          var u = dv;
          var viscous = 1.0;
          var nuij = nu;
          if (vj > 0.0) {
            ${variableNu ? 'let nuj = wall[j].x;\n          nuij = (2.0 * nu * nuj) / (nu + nuj);' : ''}
            diff = diff + vj * (pj - pi + rhoi * dot(hg, d)) * fr;
          } else {
            vj = -vj;
            if (riemannFluid) {
              // one-sided Riemann problem along the wall particle's normal: 2P* = p_i + p_w + 2ρ_iβU
              let approach = -dot(dv, imageVector(wall[normals + j].xyz, k, t));
              if (approach > 0.0) {
                let beta = min(6.0 * approach, c0);
                pj = pj + 2.0 * rhoi * beta * approach;
              }
            } else if (riemannGeometric) {
              ${RIEMANN_WALL_PAIR}
            }
            // a wall pushes, never pulls
            if (pi + pj < 0.0) { pj = -pi; }
            let w = wall[j];
            if (w.w == 0.0) {
              if (mirror) { u = veli - imageVector(w.xyz, k, t); } else { viscous = 0.0; }
            } else if (wallFunction) {
              // the wall function replaces the wall's pair viscosity
              viscous = 0.0;
              let wf = vj * f;
              sg = sg + wf * d;
              ssum = ssum + wf;
              sv = sv + wf * bj.xyz;
              if (r2 < nearR2) {
                nearR2 = r2;
                near = d;
              }
            } else {
              u = veli - imageVector(w.xyz, k, t);
            }
          }
          ${forcePairSums('nuij')}
`)}
${RIEMANN_WALL_TERM}
  if (ssum != 0.0) {
    // log-law wall function: n = −G/|G| (into the fluid), y = the nearest wall particle's
    // distance along n less half a particle, u_t the velocity relative to the wall along it
    let g = length(sg);
    if (g > 0.0) {
      let n = -sg / g;
      let uw = veli - sv * (1.0 / ssum);
      let t = uw - dot(uw, n) * n;
      let ut = length(t);
      if (ut > 0.0) {
        let halfDp = P.wallK.y;
        let y = max(dot(near, n) - halfDp, 0.25 * halfDp);
        // −u_τ² · 2|G| along the tangential velocity
        a = a + ((-2.0 * wallShearVelocity2(ut, y, wallNu) * g) / ut) * t;
      }
    }
  }
${FORCE_RESULT}
}

${FORCE_REDUCTION}
`
}

/** The force pass with one ν for every pair (forceShader). */
export const FORCE_SHADER = forceShader(false)
