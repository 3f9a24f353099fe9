/**
 * The time step and the Runge–Kutta stages on the GPU (see shaderCommon.ts for the buffers).
 */
import { CONTROL, HISTORY_STRIDE, PARAMS, PARTICLE_MAIN } from './shaderCommon.ts'

/**
 * The time step on the GPU (timeStep.ts variableTimeStep): CFL · min(√(h/|a|max),
 * h/(c0 + max h|v·r|/(r²+η²))) with the acoustic Courant number of the integrator, the fixed
 * limits (0.125 h²/ν, surface tension's capillary limit: timeStep.ts fixedTimeStepLimit), the floor; a fixed step when dynamicTimeStep is off; never past the batch's target time.
 * One thread; records the step in the batch's history and moves air drag's clock.
 */
export const DT_SHADER = /* wgsl */ `${PARAMS}${CONTROL}
@group(0) @binding(1) var<storage, read> stats: array<u32>;
@group(0) @binding(2) var<storage, read_write> control: Control;
@group(0) @binding(3) var<storage, read_write> history: array<f32>;
// air drag's clock (airDrag.ts): past the previous step, this step's dt (a dummy without air drag)
@group(0) @binding(4) var<storage, read_write> air: array<f32>;

@compute @workgroup_size(1)
fn main() {
  let h = P.k0.x;
  var dt = P.k5.y;
  if (dt == 0.0) {
    let amax = sqrt(bitcast<f32>(stats[0]));
    let visc = bitcast<f32>(stats[1]);
    var dtForce = 3.0e38;
    if (amax > 0.0) { dtForce = P.k4.y * sqrt(h / amax); }
    let dtSound = P.k4.z * h / (P.k2.w + visc);
    dt = min(min(dtForce, dtSound), P.k4.w);
    if (!(dt > P.k5.x)) { dt = P.k5.x; }
  }
  let remaining = control.remaining;
  // a remainder below 1e-4 of a step is float32 rounding of the target: this step takes it
  if (dt * (1.0 + 1e-4) >= remaining) { dt = max(remaining, 0.0); }
  control.remaining = remaining - dt;
  control.dt = dt;
  air[0] = air[0] + air[1];
  air[1] = dt;
  // slot: dt, then the step's pair count and deletions (the finish shader)
  history[${HISTORY_STRIDE}u * control.index] = dt;
  control.index = control.index + 1u;
}
`

/**
 * The integrators' shared head: their overrides (STAGE, DYNAMIC: dynamic boundary particles
 * integrate their density) and first four buffers, after PARAMS and CONTROL.
 */
const INTEGRATOR_BINDINGS = /* wgsl */ `${PARAMS}${CONTROL}
override STAGE: u32 = 1u;
override DYNAMIC: bool = false;
@group(0) @binding(1) var<storage, read_write> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> velr: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> acc: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> info: array<vec4<u32>>;`

/**
 * The integrators' particle i (each binds `control` after its own buffers): nothing for a deleted
 * particle nor, without DYNAMIC, for a wall; its flags, `wall`, and the step dt.
 */
const INTEGRATOR_PARTICLE = /* wgsl */ `${PARTICLE_MAIN}
  let flags = info[i].z;
  if ((flags & DELETED_FLAG) != 0u) { return; }
  let wall = (flags & WALL_FLAG) != 0u;
  if (wall && !DYNAMIC) { return; }
  let dt = control.dt;`

/**
 * Classical RK4 on (x, v, ρ) of fluid particles (integration.ts updateRungeKutta), stage STAGE:
 * first: start ← y, sum ← k1, y ← start + dt/2 k1; second: sum += 2k2, y ← start + dt/2 k2;
 * third: sum += 2k3, y ← start + dt k3; fourth: y ← start + dt/6 (sum + k4). Density within the
 * limiter's bounds; with DYNAMIC walls (dynamic boundary particles) their density by the same
 * stages, never below ρ0.
 */
export const RK_SHADER = /* wgsl */ `${INTEGRATOR_BINDINGS}
@group(0) @binding(5) var<storage, read_write> start: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> sum: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read> control: Control;

${INTEGRATOR_PARTICLE}
  var stepLength = 0.5 * dt;
  if (STAGE == 3u) { stepLength = dt; }
  if (STAGE == 4u) { stepLength = dt / 6.0; }
  if (wall) {
    // a dynamic wall's density only, in the w lanes of its start and sum
    var rhoStart = velr[i].w;
    var dr = acc[i].w;
    if (STAGE == 1u) {
      start[2u * i] = vec4<f32>(0.0, 0.0, 0.0, rhoStart);
      sum[2u * i] = vec4<f32>(0.0, 0.0, 0.0, dr);
    } else {
      rhoStart = start[2u * i].w;
      let s = sum[2u * i].w + select(2.0, 1.0, STAGE == 4u) * dr;
      sum[2u * i] = vec4<f32>(0.0, 0.0, 0.0, s);
      if (STAGE == 4u) { dr = s; }
    }
    velr[i].w = clamp(rhoStart + stepLength * dr, P.k1.y, P.k4.x);
    return;
  }
  let pm = posm[i];
  let vr = velr[i];
  let da = acc[i];
  // derivatives of (x, ρ) and of v
  var kx = vec4<f32>(vr.xyz, da.w);
  var kv = da.xyz;
  var sx: vec4<f32>;
  var sv: vec3<f32>;
  if (STAGE == 1u) {
    sx = vec4<f32>(pm.xyz, vr.w);
    sv = vr.xyz;
    start[2u * i] = sx;
    start[2u * i + 1u] = vec4<f32>(sv, 0.0);
    sum[2u * i] = kx;
    sum[2u * i + 1u] = vec4<f32>(kv, 0.0);
  } else {
    sx = start[2u * i];
    sv = start[2u * i + 1u].xyz;
    let weight = select(2.0, 1.0, STAGE == 4u);
    let s0 = sum[2u * i] + weight * kx;
    let s1 = sum[2u * i + 1u].xyz + weight * kv;
    sum[2u * i] = s0;
    sum[2u * i + 1u] = vec4<f32>(s1, 0.0);
    if (STAGE == 4u) {
      kx = s0;
      kv = s1;
    }
  }
  let rho = clamp(sx.w + stepLength * kx.w, P.k3.w, P.k4.x);
  posm[i] = vec4<f32>(sx.xyz + stepLength * kx.xyz, pm.w);
  velr[i] = vec4<f32>(sv + stepLength * kv, rho);
}
`

/**
 * DualSPHysics' Symplectic scheme (integration.ts), STAGE 1 the predictor: start ← (x, v, ρ), then
 * x, v, ρ to t + dt/2 from the derivatives at t; STAGE 2 the corrector from the derivatives at
 * t + dt/2: v = v⁰ + dt a, ρ = ρ⁰ (2 − ε)/(2 + ε) with ε = −(dρ/dt)/ρ^{n+1/2} dt, x = x⁰ + dt/2
 * (v⁰ + v). Fluid density within the limiter's bounds; DYNAMIC walls (dynamic boundary
 * particles) integrate their density alike, never below ρ0.
 */
export const SYMPLECTIC_SHADER = /* wgsl */ `${INTEGRATOR_BINDINGS}
@group(0) @binding(5) var<storage, read_write> start: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> control: Control;

${INTEGRATOR_PARTICLE}
  let half = 0.5 * dt;
  let pm = posm[i];
  let vr = velr[i];
  let da = acc[i];
  // a dynamic wall keeps its position and velocity (its part's): ρ within [ρ0, ρ max]
  var rhoLow = P.k3.w;
  if (wall) { rhoLow = P.k1.y; }
  if (STAGE == 1u) {
    start[2u * i] = vec4<f32>(pm.xyz, vr.w);
    start[2u * i + 1u] = vec4<f32>(vr.xyz, 0.0);
    let rho = clamp(vr.w + half * da.w, rhoLow, P.k4.x);
    if (wall) {
      velr[i].w = rho;
      return;
    }
    posm[i] = vec4<f32>(pm.xyz + half * vr.xyz, pm.w);
    velr[i] = vec4<f32>(vr.xyz + half * da.xyz, rho);
    return;
  }
  let s0 = start[2u * i];
  // exact for a constant rate of dilatation
  let epsilon = (-da.w / vr.w) * dt;
  let rho = clamp((s0.w * (2.0 - epsilon)) / (2.0 + epsilon), rhoLow, P.k4.x);
  if (wall) {
    velr[i].w = rho;
    return;
  }
  let v0 = start[2u * i + 1u].xyz;
  let v = v0 + dt * da.xyz;
  velr[i] = vec4<f32>(v, rho);
  posm[i] = vec4<f32>(s0.xyz + half * (v + v0), pm.w);
}
`
