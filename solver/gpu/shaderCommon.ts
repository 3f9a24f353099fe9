/**
 * The WGSL compute shaders of the GPU backend (this file: what they share; sortShaders.ts,
 * interactShaders.ts and stepShaders.ts: the passes). Each reproduces one pass of solver/sph in float32
 * (the formulas, their order and the names follow forces.ts, walls.ts and integration.ts; see
 * NUMERICS.md): binning by cell (count, scan, scatter), pressures, the generalized-wall
 * extrapolation, the force pass, the time step and the four Runge–Kutta stages.
 *
 * Buffers (one entry per particle in cell order after each sort):
 *   posm  vec4 (x, y, z, mass)           velr  vec4 (vx, vy, vz, ρ)
 *   info  vec4<u32> (id, part index, flags: kind | noSlip << 1 | deleted << 2 | phase << 3 |
 *         open boundary buffer << 6 (openShaders.ts) | image turns << 8 (rotationalSlice.ts), cell)
 *   rec0  vec4 (x, y, z, p)              rec1  vec4 (vx, vy, vz, ±V), V = m/ρ, walls −m/ρ0
 *   wall  vec4 (viscous velocity 2 v_w − ṽ_f, noSlip); a fluid particle with a viscosity table
 *         (ν, …), with surface tension its colour normal (n̂, |∇C|) (multiphaseShaders.ts); with
 *         riemannWallNormal 'fluid' a second half: each wall particle's normal (n, 0)
 *   acc   vec4 (ax, ay, az, dρ/dt)       start, sum: 2 vec4 per particle (RK4)
 *   therm (thermodynamics or a viscosity table only) temperatures and ν: see heatShaders.ts
 *   air   (air drag only) the clock and the air's velocity over time: see airDrag.ts
 */
import { MAX_PHASES } from '../sph/phaseTable.ts'
import { SLICE_WGSL } from './rotationalSlice.ts'

export const WORKGROUP = 64
/**
 * u32 per history slot: dt bits, the step's interactions (low, high), then the particles deleted
 * since the upload (outside the domain, not finite, fluid among them) at the step's end.
 */
export const HISTORY_STRIDE = 6
export const SCAN_WORKGROUP = 256
/** Where a fluid particle's phase sits in its flags (info.z; phaseOf), 3 bits. */
export const PHASE_SHIFT = 3

/** The uniform block every shader reads; filled by GpuSolver.ts (#writeParams). */
export const PARAMS = /* wgsl */ `
struct Params {
  origin: vec4<f32>,   // grid origin xyz, 1 / cell size
  dims: vec4<u32>,     // nx, ny, nz, cells
  codes: vec4<u32>,    // particles, kernel (0 Wendland, 1 cubic), riemannWall (0-2), hydrostatic
  k0: vec4<f32>,       // h, support², η², kernel gradient factor
  k1: vec4<f32>,       // kernel α, ρ0, B, γ
  k2: vec4<f32>,       // gravity xyz, c0
  k3: vec4<f32>,       // artificial α, ν, 2δhc0, ρ min
  k4: vec4<f32>,       // ρ max, cfl, acoustic cfl, the fixed limit (viscous 0.125 h²/ν, capillary)
  k5: vec4<f32>,       // dt floor, fixed dt (0: variable), scan elements per thread, scan blocks
  k6: vec4<f32>,       // 1/W(dp), shifting (0 none, 1 sun17, 2 lyu21), largest shift, 0
  domainMin: vec4<f32>, // calculation domain (calcDomainActive): fluid outside it is deleted
  domainMax: vec4<f32>, // (±3.4e38 without one)
  gridY: vec4<f32>,    // 1 / cell size along y, period along y (0: none), stencil reach along y
  frameOmega: vec4<f32>, // rotating frame: Ω (rad/s), 1 when on (else 0)
  frameCenter: vec4<f32>, // a point of its axis
  heat: vec4<f32>,     // conduction 2k/c_p (0: off), T_ref (K), viscosity table rows, 0
  airMin: vec4<f32>,   // air drag domain's lower corner, 1 / neighbours on a flat face (airDrag.ts)
  airMax: vec4<f32>,   // its upper corner, 1 / the grid's cell size (0: a uniform velocity)
  airK: vec4<f32>,     // ½ ρ_a, Re per m/s (ρ_a 2L/μ_a), π L², dp²
  airDims: vec4<u32>,  // the grid's nx, ny, nz, the rows (times) of the air's velocity
  wallK: vec4<f32>,    // log law's ν (0: off), dp/2, free-slip walls in the viscous sums (1), 0
  slice0: vec4<f32>,   // rotational periodic slice (rotationalSlice.ts): centre, angle (rad)
  slice1: vec4<f32>,   // e1, the bisector's angle from e1
  slice2: vec4<f32>,   // e2, turns of the full circle (0: no slice)
  slice3: vec4<f32>,   // axis, a cut face's reach
  multi: vec4<f32>,    // multiphase (multiphase.ts): phases (0: off), 2 p_b, local minimum (1), σ
  phases: array<vec4<f32>, ${MAX_PHASES}>, // each phase's ρ0, B, γ, μ (one fluid: ρ0, B, γ, 0)
}
@group(0) @binding(0) var<uniform> P: Params;
${SLICE_WGSL}

// flags of info.z: a wall particle (else fluid), a particle deleted (left the calculation domain,
// or a coordinate not finite: it sits after the last cell, every pass skips it)
const WALL_FLAG = 1u;
const DELETED_FLAG = 4u;

// a fluid particle's phase (its material's index in the phase table) in bits 3-5 of its flags
fn phaseOf(flags: u32) -> u32 {
  return (flags >> ${PHASE_SHIFT}u) & 7u;
}

fn cellCoords(p: vec3<f32>) -> vec3<u32> {
  let scale = vec3<f32>(P.origin.w, P.gridY.x, P.origin.w);
  let q = floor((p - P.origin.xyz) * scale);
  let hi = vec3<f32>(P.dims.xyz - vec3<u32>(1u));
  let c = clamp(q, vec3<f32>(0.0), hi);
  return min(vec3<u32>(c), P.dims.xyz - vec3<u32>(1u));
}

// a rotating frame's acceleration at x moving at v (rotatingFrame.ts addFrameAcceleration):
// centrifugal |Ω|² r − Ω (Ω·r), and with coriolis also −2 Ω × v; zero without a frame
fn frameAcceleration(x: vec3<f32>, v: vec3<f32>, coriolis: bool) -> vec3<f32> {
  if (P.frameOmega.w == 0.0) { return vec3<f32>(0.0); }
  let w = P.frameOmega.xyz;
  let r = x - P.frameCenter.xyz;
  var a = dot(w, w) * r - w * dot(w, r);
  if (coriolis) { a = a - 2.0 * cross(w, v); }
  return a;
}

// Tait's p = B((ρ/ρ0)^γ − 1), γ = 7 by multiplication (equationOfState.ts pressureFromDensity)
fn taitPressure(rho: f32, rho0: f32, b: f32, gamma: f32) -> f32 {
  let ratio = rho / rho0;
  var power: f32;
  if (gamma == 7.0) {
    let r2 = ratio * ratio;
    power = r2 * r2 * r2 * ratio;
  } else {
    power = pow(ratio, gamma);
  }
  return b * (power - 1.0);
}

// a particle's index: dispatches over 65,535 workgroups go in rows along y (passes.ts)
fn particleIndex(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
  return gid.x + gid.y * groups.x * ${WORKGROUP}u;
}

fn cellIndex(c: vec3<u32>) -> u32 {
  return c.x + P.dims.x * (c.y + P.dims.y * c.z);
}

fn unpackCell(cell: u32) -> vec3<u32> {
  let nx = P.dims.x;
  let ny = P.dims.y;
  return vec3<u32>(cell % nx, (cell / nx) % ny, cell / (nx * ny));
}

// F = (dW/dr)/r (kernels.ts kernelGradientFactor)
fn gradFactor(rr: f32) -> f32 {
  let invH = 1.0 / P.k0.x;
  if (P.codes.y == 0u) {
    let t = 1.0 - 0.5 * rr * invH;
    return P.k0.w * t * t * t;
  }
  let q = rr * invH;
  if (q < 1.0) { return P.k0.w * (-3.0 + 2.25 * q); }
  let t = 2.0 - q;
  return (P.k0.w * (-0.75 * t * t)) / q;
}

// W (kernels.ts kernelValue)
fn kernelW(rr: f32) -> f32 {
  let q = rr / P.k0.x;
  let alpha = P.k1.x;
  if (P.codes.y == 0u) {
    let t = 1.0 - 0.5 * q;
    let t2 = t * t;
    return alpha * t2 * t2 * (2.0 * q + 1.0);
  }
  if (q < 1.0) { return alpha * (1.0 - 1.5 * q * q + 0.75 * q * q * q); }
  let t = 2.0 - q;
  return alpha * 0.25 * t * t * t;
}

// periodic along y: y back into [min, min + period) (the CPU's cellKeys.ts wrap; rounding can
// land exactly on the end)
fn wrapPeriodY(y: f32) -> f32 {
  let period = P.gridY.y;
  var wrapped = y - period * floor((y - P.origin.y) / period);
  if (wrapped >= P.origin.y + period) { wrapped = wrapped - period; }
  return wrapped;
}

// the stencil reaches this many cells each way along y (more than 1 only through a narrow period)
fn reachY() -> i32 {
  return i32(P.gridY.z);
}

// a stencil row: its first cell, one past its last, and the y shift of the image it stands for
// (a neighbour j of the row stands at y_j + shift: callers subtract it from y_i once per row)
struct Row { first: u32, end: u32, shift: f32 }

// the stencil row (dy, dz) around a cell, empty past the grid's edges; periodic along y, the row
// of the period's cell that (c.y + dy) wraps to, with its image's shift
fn stencilRow(c: vec3<u32>, dy: i32, dz: i32) -> Row {
  return stencilRowWide(c, dy, dz, 1u);
}

// stencilRow reaching rx cells each way along x (the sensors' probe: a margin of a cell)
fn stencilRowWide(c: vec3<u32>, dy: i32, dz: i32, rx: u32) -> Row {
  var y = i32(c.y) + dy;
  let z = i32(c.z) + dz;
  let ny = i32(P.dims.y);
  var shift = 0.0;
  if (P.gridY.y > 0.0) {
    let wrapped = ((y % ny) + ny) % ny;
    shift = f32((y - wrapped) / ny) * P.gridY.y;
    y = wrapped;
  }
  if (y < 0 || z < 0 || y >= ny || z >= i32(P.dims.z)) { return Row(0u, 0u, 0.0); }
  let x0 = select(c.x - rx, 0u, c.x < rx);
  let x1 = min(c.x + rx, P.dims.x - 1u);
  let first = x0 + P.dims.x * (u32(y) + P.dims.y * u32(z));
  return Row(first, first + (x1 - x0) + 1u, shift);
}
`

/**
 * The head of a per-particle pass (after PARAMS): the entry point, the particle i, returning past
 * the count.
 */
export const PARTICLE_MAIN = /* wgsl */ `@compute @workgroup_size(${WORKGROUP})
fn main(
  @builtin(global_invocation_id) gid: vec3<u32>,
  @builtin(num_workgroups) groups: vec3<u32>,
) {
  let i = particleIndex(gid, groups);
  if (i >= P.codes.x) { return; }`

/**
 * Exclusive scan of the cell counts into cellStart (cells + 1 entries) in three passes: block
 * totals, a scan of the block totals in one workgroup, and each block's scan from its offset.
 * Each thread of a block takes `per` consecutive cells (k5.z); blocks k5.w.
 */
export const SCAN_COMMON = /* wgsl */ `
var<workgroup> scratch: array<u32, ${SCAN_WORKGROUP}>;

// inclusive scan of one value per thread across the workgroup (Hillis–Steele)
fn workgroupScan(t: u32, value: u32) -> u32 {
  scratch[t] = value;
  workgroupBarrier();
  var offset = 1u;
  loop {
    if (offset >= ${SCAN_WORKGROUP}u) { break; }
    var add = 0u;
    if (t >= offset) { add = scratch[t - offset]; }
    workgroupBarrier();
    scratch[t] = scratch[t] + add;
    workgroupBarrier();
    offset = offset * 2u;
  }
  return scratch[t];
}
`

export const CONTROL = /* wgsl */ `
struct Control {
  dt: f32,
  // time left to the target of the batch (0: the steps after it do nothing)
  remaining: f32,
  // steps taken in this batch (the next history slot)
  index: u32,
  pad: u32,
}
`

/**
 * The WGSL loop over particle i's neighbour candidates j: the stencil rows around cell `c`, with xi
 * its position. `body` runs for each candidate, with j and xr (xi less the row's periodic y shift)
 * in scope; it makes its own distance test. `margin` cells more each way reach particles that
 * moved since the sort (the sensors' probe after a step).
 */
export function neighbourLoop(body: string, margin = 0): string {
  const row = margin === 0 ? 'stencilRow(c, dy, dz)' : `stencilRowWide(c, dy, dz, ${1 + margin}u)`
  return /* wgsl */ `
  let ry = reachY() + ${margin};
  for (var dz = -${1 + margin}; dz <= ${1 + margin}; dz = dz + 1) {
    for (var dy = -ry; dy <= ry; dy = dy + 1) {
      let row = ${row};
      let xr = vec3<f32>(xi.x, xi.y - row.shift, xi.z);
      let jEnd = cellStart[row.end];
      for (var j = cellStart[row.first]; j < jEnd; j = j + 1u) {
${body}      }
    }
  }
`
}

/**
 * neighbourLoop around cell `home` and, with a rotational periodic slice, again around xi turned
 * back for each image turn k that reaches it (k = 0: the particles themselves; rotationalSlice.ts),
 * with k and t (the turn) in scope as well; the body makes its own image test.
 */
export function turnedNeighbourLoop(body: string, margin = 0): string {
  return /* wgsl */ `
  for (var k = 0; k < max(sliceTurns(), 1); k = k + 1) {
    var c = home;
    let t = turnOf(k);
    if (k > 0) {
      if (!turnReaches(xi, k)) { continue; }
      c = turnedCell(xi, k);
    }
    ${neighbourLoop(body, margin)}
  }
`
}
