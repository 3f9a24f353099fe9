/**
 * Heat conduction and the viscosity models on the GPU (solver/sph heat.ts and viscosityModels.ts
 * in float32; NUMERICS.md, 'Heat conduction and viscosity models'). One more state buffer, sorted
 * with the others, only when a run has thermodynamics or a viscosity table, vec4<u32> per
 * particle (f32 lanes as their bits):
 *   fluid (θ in 2⁻⁸ K as i32, θ's remainder in 2⁻⁴⁰ K as u32, dθ/dt f32, ν f32)
 *   wall  (θ set f32, θ shown f32, shown valid f32 0/1, set temperature f32 0/1)
 * with θ = T − T_ref (P.heat.y). The fluid's θ is fixed point, added to exactly: a step's change
 * of T is often below float32's resolution (water by a hot wall at dt = 3e-4 s: 1e-5 K, a third
 * of an ulp at 300 K) and a float32 temperature would not move; a float32 pair (two-sum) is not
 * kept by shader compilers, which fold its error term away (measured on lavapipe: the pair moved
 * by whole ulps of its high part, as a single float32). Viscosity tables in `table` (x, ν),
 * P.heat.z rows.
 */
import { CONTROL, neighbourLoop, PARAMS, PARTICLE_MAIN } from './shaderCommon.ts'

/** A fluid particle's θ as float32 from its fixed-point parts (see the module comment). */
const THETA = /* wgsl */ `
const HIGH_UNIT = 0.00390625; // 2⁻⁸ K
const LOW_UNIT = 9.094947017729282e-13; // 2⁻⁴⁰ K
fn thetaOf(t: vec4<u32>) -> f32 {
  return f32(bitcast<i32>(t.x)) * HIGH_UNIT + f32(t.y) * LOW_UNIT;
}
`

/** ν from the viscosity table (bound as `table`, P.heat.z rows). */
const THERM_COMMON = /* wgsl */ `
// ν at x (viscosityModels.ts interpolateViscosity): linear between rows, the end rows beyond
fn viscosityAt(at: f32) -> f32 {
  let n = u32(P.heat.z);
  let first = table[0];
  if (!(at > first.x)) { return first.y; }
  let last = table[n - 1u];
  if (at >= last.x) { return last.y; }
  var lo = 0u;
  var hi = n - 1u;
  loop {
    if (hi - lo <= 1u) { break; }
    let mid = (lo + hi) >> 1u;
    if (table[mid].x <= at) { lo = mid; } else { hi = mid; }
  }
  let a = table[lo];
  let b = table[hi];
  let t = (at - a.x) / (b.x - a.x);
  return a.y + t * (b.y - a.y);
}
`

/**
 * Each fluid particle's ν (viscosityModels.ts computeViscosities) into therm.w (outputs) and
 * wall.x (the force pass; a fluid particle's wall entry is free): ν(T) from the
 * temperature table, or with `shearRate` ν(γ̇) from the shear-rate table, γ̇ = √(2 D:D) of
 * L_ab = Σ_j V_j (v_j − v_i)_a (∇_i W_ij)_b over fluid and no-slip wall neighbours (a no-slip wall
 * with its viscous velocity 2 v_w − ṽ_f of the wall pass; a free-slip wall adds nothing).
 */
export function viscosityShader(shearRate: boolean): string {
  const rate = /* wgsl */ `
  let xi = rec0[i].xyz;
  let vi = rec1[i].xyz;
  let minR2 = 1e-24 * P.k0.y;
  var l = mat3x3<f32>(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0));
  let c = unpackCell(m.w);
${neighbourLoop(/* wgsl */ `
        let d = xr - rec0[j].xyz;
        let r2 = dot(d, d);
        if (r2 >= P.k0.y || r2 < minR2) { continue; }
        let bj = rec1[j];
        var vj = bj.w;
        var u: vec3<f32>;
        if (vj > 0.0) {
          u = bj.xyz - vi;
        } else {
          let w = wall[j];
          if (w.w == 0.0) { continue; }
          vj = -vj;
          u = w.xyz - vi;
        }
        let g = (vj * gradFactor(sqrt(r2))) * d;
        // column b of L is u times g_b: L_ab = u_a g_b
        l = l + mat3x3<f32>(u * g.x, u * g.y, u * g.z);
`)}
  // 2 D:D = 2 (Dxx² + Dyy² + Dzz²) + 4 (Dxy² + Dxz² + Dyz²), D_ab = (L_ab + L_ba)/2
  let dxy = 0.5 * (l[1].x + l[0].y);
  let dxz = 0.5 * (l[2].x + l[0].z);
  let dyz = 0.5 * (l[2].y + l[1].z);
  let diagonal = l[0].x * l[0].x + l[1].y * l[1].y + l[2].z * l[2].z;
  let at = sqrt(2.0 * diagonal + 4.0 * (dxy * dxy + dxz * dxz + dyz * dyz));`
  const temperature = /* wgsl */ `
  let at = P.heat.y + thetaOf(therm[i]);`
  const bindings = shearRate
    ? /* wgsl */ `
@group(0) @binding(1) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> wall: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> therm: array<vec4<u32>>;
@group(0) @binding(7) var<storage, read> table: array<vec2<f32>>;`
    : /* wgsl */ `
@group(0) @binding(1) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> therm: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> table: array<vec2<f32>>;
@group(0) @binding(4) var<storage, read_write> wall: array<vec4<f32>>;`
  return /* wgsl */ `${PARAMS}${bindings}
${THETA}
${THERM_COMMON}
${PARTICLE_MAIN}
  let m = info[i];
  if ((m.z & (WALL_FLAG | DELETED_FLAG)) != 0u) { return; }
  ${shearRate ? rate : temperature}
  let nu = viscosityAt(at);
  therm[i].w = bitcast<u32>(nu);
  // the force pass reads it from a fluid particle's unused wall entry (no ninth storage buffer)
  wall[i] = vec4<f32>(nu, 0.0, 0.0, 0.0);
}
`
}

/**
 * The temperature each wall particle shows the fluid (heat.ts extrapolateWallTemperatures): the
 * Shepard average θ̃ of its fluid neighbours for an adiabatic wall, the mirror 2 θ_w − θ̃ for a
 * wall at a set temperature; shown valid 0 without fluid neighbours.
 */
export const HEAT_WALL_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read_write> therm: array<vec4<u32>>;
${THETA}
${PARTICLE_MAIN}
  let m = info[i];
  if ((m.z & (WALL_FLAG | DELETED_FLAG)) != WALL_FLAG) { return; }
  let xi = rec0[i].xyz;
  let c = unpackCell(m.w);
  var sumW = 0.0;
  var sumT = 0.0;
${neighbourLoop(/* wgsl */ `
        if (!(rec1[j].w > 0.0)) { continue; }
        let d = xr - rec0[j].xyz;
        let r2 = dot(d, d);
        if (r2 >= P.k0.y) { continue; }
        let w = kernelW(sqrt(r2));
        sumW = sumW + w;
        sumT = sumT + thetaOf(therm[j]) * w;
`)}
  let own = therm[i];
  if (sumW > 0.0) {
    let fluid = sumT / sumW;
    let setT = bitcast<f32>(own.x);
    let shown = select(fluid, 2.0 * setT - fluid, bitcast<f32>(own.w) != 0.0);
    therm[i] = vec4<u32>(own.x, bitcast<u32>(shown), bitcast<u32>(1.0), own.w);
  } else {
    therm[i] = vec4<u32>(own.x, 0u, 0u, own.w);
  }
}
`

/**
 * dθ/dt of each fluid particle (heat.ts computeHeat, Cleary & Monaghan): conduction/ρ_i Σ_j V_j
 * (θ_i − θ_j) (r·∇W)/(r² + η²), walls with the temperature they show; θ_i − θ_j of two fluid
 * particles from their fixed-point parts (whole − whole exact), so that it keeps their digits.
 */
export const HEAT_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read_write> therm: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read> velr: array<vec4<f32>>;
${THETA}
${PARTICLE_MAIN}
  let m = info[i];
  if ((m.z & (WALL_FLAG | DELETED_FLAG)) != 0u) { return; }
  let xi = rec0[i].xyz;
  let ti = therm[i];
  let thetaI = thetaOf(ti);
  let minR2 = 1e-24 * P.k0.y;
  let c = unpackCell(m.w);
  var sum = 0.0;
${neighbourLoop(/* wgsl */ `
        let d = xr - rec0[j].xyz;
        let r2 = dot(d, d);
        if (r2 >= P.k0.y || r2 < minR2) { continue; }
        var vj = rec1[j].w;
        let tj = therm[j];
        var difference: f32;
        if (vj > 0.0) {
          let high = f32(bitcast<i32>(ti.x) - bitcast<i32>(tj.x)) * HIGH_UNIT;
          difference = high + (f32(ti.y) - f32(tj.y)) * LOW_UNIT;
        } else {
          // a wall that sees no fluid (cannot happen within a fluid particle's support)
          if (tj.z == 0u) { continue; }
          vj = -vj;
          difference = thetaI - bitcast<f32>(tj.y);
        }
        let f = gradFactor(sqrt(r2));
        sum = sum + vj * difference * ((f * r2) / (r2 + P.k0.z));
`)}
  therm[i].z = bitcast<u32>((P.heat.x * sum) / velr[i].w);
}
`

/**
 * After the step (heat.ts updateTemperatures): θ += dt dθ/dt of each fluid particle, in fixed
 * point: |increment| in 2⁻⁸ K, its whole part and its fraction (exact in float32) rounded to
 * 2⁻⁴⁰ K, added or subtracted with carry (integer arithmetic, which no compiler reassociates).
 */
export const HEAT_UPDATE_SHADER = /* wgsl */ `${PARAMS}${CONTROL}
@group(0) @binding(1) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> therm: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> control: Control;
${PARTICLE_MAIN}
  if ((info[i].z & (WALL_FLAG | DELETED_FLAG)) != 0u) { return; }
  let t = therm[i];
  let increment = control.dt * bitcast<f32>(t.z);
  let units = abs(increment) * 256.0;
  let whole = floor(units);
  // below 2⁻⁸ K the fraction has all its float32 digits, above it is an integer in 2⁻⁴⁰ K
  let fraction = u32(round((units - whole) * 4294967296.0));
  var hi = bitcast<i32>(t.x);
  var lo = t.y;
  if (increment >= 0.0) {
    lo = t.y + fraction;
    hi = hi + i32(whole) + select(0i, 1i, lo < t.y);
  } else {
    lo = t.y - fraction;
    hi = hi - i32(whole) - select(0i, 1i, t.y < fraction);
  }
  therm[i] = vec4<u32>(bitcast<u32>(hi), lo, t.z, t.w);
}
`

/** The therm buffer through the sort: each particle to cellStart[cell] + rank (bits unchanged). */
export const SCATTER_THERM_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> therm: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> rank: array<u32>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read_write> outTherm: array<vec4<u32>>;
${PARTICLE_MAIN}
  outTherm[cellStart[info[i].w] + rank[i]] = therm[i];
}
`
