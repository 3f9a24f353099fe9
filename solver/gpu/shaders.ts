/**
 * The WGSL compute shaders of the GPU backend. Each reproduces one pass of solver/sph in float32
 * (the formulas, their order and the names follow forces.ts, walls.ts and integration.ts; see
 * NUMERICS.md): binning by cell (count, scan, scatter), pressures, the generalized-wall
 * extrapolation, the force pass, the time step and the four Runge–Kutta stages.
 *
 * Buffers (one entry per particle in cell order after each sort):
 *   posm  vec4 (x, y, z, mass)           velr  vec4 (vx, vy, vz, ρ)
 *   info  vec4<u32> (id, part index, flags: kind | noSlip << 1, cell)
 *   rec0  vec4 (x, y, z, p)              rec1  vec4 (vx, vy, vz, ±V), V = m/ρ, walls −m/ρ0
 *   wall  vec4 (viscous velocity 2 v_w − ṽ_f, noSlip)
 *   acc   vec4 (ax, ay, az, dρ/dt)       start, sum: 2 vec4 per particle (RK4)
 */

export const WORKGROUP = 64
export const SCAN_WORKGROUP = 256

/** The uniform block every shader reads; filled by packParams (GpuSolver.ts). */
const PARAMS = /* wgsl */ `
struct Params {
  origin: vec4<f32>,   // grid origin xyz, 1 / cell size
  dims: vec4<u32>,     // nx, ny, nz, cells
  codes: vec4<u32>,    // particles, kernel (0 Wendland, 1 cubic), riemannWall (0 or 2), hydrostatic
  k0: vec4<f32>,       // h, support², η², kernel gradient factor
  k1: vec4<f32>,       // kernel α, ρ0, B, γ
  k2: vec4<f32>,       // gravity xyz, c0
  k3: vec4<f32>,       // artificial α, ν, 2δhc0, ρ min
  k4: vec4<f32>,       // ρ max, cfl, acoustic cfl, viscous limit 0.125 h²/ν
  k5: vec4<f32>,       // dt floor, fixed dt (0: variable), scan elements per thread, scan blocks
}
@group(0) @binding(0) var<uniform> P: Params;

fn cellCoords(p: vec3<f32>) -> vec3<u32> {
  let q = floor((p - P.origin.xyz) * P.origin.w);
  let hi = vec3<f32>(P.dims.xyz - vec3<u32>(1u));
  let c = clamp(q, vec3<f32>(0.0), hi);
  return min(vec3<u32>(c), P.dims.xyz - vec3<u32>(1u));
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

// the first and last cell of the stencil row (dy, dz) around a cell, or none
fn rowRange(c: vec3<u32>, dy: i32, dz: i32) -> vec2<u32> {
  let y = i32(c.y) + dy;
  let z = i32(c.z) + dz;
  if (y < 0 || z < 0 || y >= i32(P.dims.y) || z >= i32(P.dims.z)) { return vec2<u32>(0u, 0u); }
  let x0 = select(c.x - 1u, 0u, c.x == 0u);
  let x1 = min(c.x + 1u, P.dims.x - 1u);
  let first = x0 + P.dims.x * (u32(y) + P.dims.y * u32(z));
  return vec2<u32>(first, first + (x1 - x0) + 1u);
}
`

/** Counting sort, first pass: each particle's cell and its rank among the particles of that cell. */
export const COUNT_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> info: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> cellCount: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> rank: array<u32>;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= P.codes.x) { return; }
  let cell = cellIndex(cellCoords(posm[i].xyz));
  info[i].w = cell;
  rank[i] = atomicAdd(&cellCount[cell], 1u);
}
`

/**
 * Exclusive scan of the cell counts into cellStart (cells + 1 entries) in three passes: block
 * totals, a scan of the block totals in one workgroup, and each block's scan from its offset.
 * Each thread of a block takes `per` consecutive cells (k5.z); blocks k5.w.
 */
const SCAN_COMMON = /* wgsl */ `
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

export const SCAN_REDUCE_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> cellCount: array<u32>;
@group(0) @binding(2) var<storage, read_write> blockSums: array<u32>;
${SCAN_COMMON}
@compute @workgroup_size(${SCAN_WORKGROUP})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let per = u32(P.k5.z);
  let cells = P.dims.w;
  let begin = (wid.x * ${SCAN_WORKGROUP}u + lid.x) * per;
  var total = 0u;
  for (var k = 0u; k < per; k = k + 1u) {
    let c = begin + k;
    if (c < cells) { total = total + cellCount[c]; }
  }
  let inclusive = workgroupScan(lid.x, total);
  if (lid.x == ${SCAN_WORKGROUP - 1}u) { blockSums[wid.x] = inclusive; }
}
`

export const SCAN_BLOCKS_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read_write> blockSums: array<u32>;
${SCAN_COMMON}
@compute @workgroup_size(${SCAN_WORKGROUP})
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
  let blocks = u32(P.k5.w);
  let per = (blocks + ${SCAN_WORKGROUP - 1}u) / ${SCAN_WORKGROUP}u;
  let begin = lid.x * per;
  var total = 0u;
  for (var k = 0u; k < per; k = k + 1u) {
    if (begin + k < blocks) { total = total + blockSums[begin + k]; }
  }
  let inclusive = workgroupScan(lid.x, total);
  var running = inclusive - total;
  for (var k = 0u; k < per; k = k + 1u) {
    if (begin + k < blocks) {
      let v = blockSums[begin + k];
      blockSums[begin + k] = running;
      running = running + v;
    }
  }
}
`

export const SCAN_DOWN_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> cellCount: array<u32>;
@group(0) @binding(2) var<storage, read> blockSums: array<u32>;
@group(0) @binding(3) var<storage, read_write> cellStart: array<u32>;
${SCAN_COMMON}
@compute @workgroup_size(${SCAN_WORKGROUP})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let per = u32(P.k5.z);
  let cells = P.dims.w;
  let begin = (wid.x * ${SCAN_WORKGROUP}u + lid.x) * per;
  var total = 0u;
  for (var k = 0u; k < per; k = k + 1u) {
    let c = begin + k;
    if (c < cells) { total = total + cellCount[c]; }
  }
  let inclusive = workgroupScan(lid.x, total);
  var running = blockSums[wid.x] + inclusive - total;
  for (var k = 0u; k < per; k = k + 1u) {
    let c = begin + k;
    if (c < cells) {
      cellStart[c] = running;
      running = running + cellCount[c];
    }
    if (c == cells) { cellStart[c] = running; }
  }
}
`

/** Counting sort, last pass: each particle to cellStart[cell] + rank, into the record buffers. */
export const SCATTER_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> velr: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> rank: array<u32>;
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> outPosm: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> outVelr: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read_write> outMeta: array<vec4<u32>>;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= P.codes.x) { return; }
  let m = info[i];
  let dest = cellStart[m.w] + rank[i];
  outPosm[dest] = posm[i];
  outVelr[dest] = velr[i];
  outMeta[dest] = m;
}
`

/**
 * Tait pressure and the neighbour records (walls.ts computePressures): fluid (p, V = m/ρ), walls
 * (0, −m/ρ0); the wall extrapolation writes the walls' pressure next.
 */
export const PRESSURE_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> velr: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> rec0: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> rec1: array<vec4<f32>>;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= P.codes.x) { return; }
  let pm = posm[i];
  let vr = velr[i];
  if ((info[i].z & 1u) != 0u) {
    rec0[i] = vec4<f32>(pm.xyz, 0.0);
    rec1[i] = vec4<f32>(vr.xyz, -pm.w / P.k1.y);
    return;
  }
  let ratio = vr.w / P.k1.y;
  var power: f32;
  if (P.k1.w == 7.0) {
    let r2 = ratio * ratio;
    power = r2 * r2 * r2 * ratio;
  } else {
    power = pow(ratio, P.k1.w);
  }
  rec0[i] = vec4<f32>(pm.xyz, P.k1.z * (power - 1.0));
  rec1[i] = vec4<f32>(vr.xyz, pm.w / vr.w);
}
`

/**
 * Generalized wall (walls.ts extrapolateWalls, walls at rest: a_w = 0): p_w = max(0, (Σ p_f W +
 * g·Σ ρ_f r_wf W)/Σ W), ρ_w from the inverse equation of state, viscous velocity 2 v_w − ṽ_f.
 */
export const WALL_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read_write> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> velr: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> wall: array<vec4<f32>>;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= P.codes.x) { return; }
  let m = info[i];
  if ((m.z & 1u) == 0u) { return; }
  let noSlip = f32((m.z >> 1u) & 1u);
  let xi = rec0[i].xyz;
  let vw = rec1[i].xyz;
  let c = unpackCell(m.w);
  var sumW = 0.0;
  var sumP = 0.0;
  var sumR = vec3<f32>(0.0);
  var sumV = vec3<f32>(0.0);
  for (var dz = -1; dz <= 1; dz = dz + 1) {
    for (var dy = -1; dy <= 1; dy = dy + 1) {
      let row = rowRange(c, dy, dz);
      let jEnd = cellStart[row.y];
      for (var j = cellStart[row.x]; j < jEnd; j = j + 1u) {
        let bj = rec1[j];
        if (!(bj.w > 0.0)) { continue; }
        let aj = rec0[j];
        let d = xi - aj.xyz;
        let r2 = dot(d, d);
        if (r2 >= P.k0.y) { continue; }
        let w = kernelW(sqrt(r2));
        sumW = sumW + w;
        sumP = sumP + aj.w * w;
        sumR = sumR + (velr[j].w * w) * d;
        sumV = sumV + bj.xyz * w;
      }
    }
  }
  if (sumW > 0.0) {
    let invW = 1.0 / sumW;
    var p = (sumP + dot(P.k2.xyz, sumR)) * invW;
    if (p < 0.0) { p = 0.0; }
    let density = clamp(P.k1.y * pow(p / P.k1.z + 1.0, 1.0 / P.k1.w), P.k3.w, P.k4.x);
    rec0[i].w = p;
    velr[i].w = density;
    wall[i] = vec4<f32>(2.0 * vw - sumV * invW, noSlip);
  } else {
    rec0[i].w = 0.0;
    velr[i].w = P.k1.y;
    wall[i] = vec4<f32>(vw, noSlip);
  }
}
`

/**
 * The force pass (forces.ts computeForces) for fluid particles: momentum with the symmetric
 * pressure term, artificial and laminar viscosity, gravity; continuity with density diffusion;
 * wall pairs push, never pull; the Riemann wall along the wall's own kernel gradient
 * (riemannWall 2). Per workgroup: the largest |a|² and viscous rate, and the pair count, into
 * stats (maxima as float bits, which order as u32 for non-negative floats).
 */
export const FORCE_SHADER = /* wgsl */ `${PARAMS}
@group(0) @binding(1) var<storage, read> rec0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rec1: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> wall: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> acc: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> stats: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read> velr: array<vec4<f32>>;

var<workgroup> wgA2: array<f32, ${WORKGROUP}>;
var<workgroup> wgVisc: array<f32, ${WORKGROUP}>;
var<workgroup> wgCount: array<u32, ${WORKGROUP}>;

struct Result { a2: f32, visc: f32, count: u32 }

fn forces(i: u32) -> Result {
  var out = Result(0.0, 0.0, 0u);
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
  let nu = P.k3.y;
  // 1/c_i² = ρ_i/(γ (p_i + B)); Fourtakas' hydrostatic term along gravity (off for Molteni)
  let invC2i = rhoi / (P.k1.w * (pi + P.k1.z));
  let hg = select(vec3<f32>(0.0), P.k2.xyz, P.codes.w != 0u);
  let riemannGeometric = P.codes.z == 2u;
  var a = vec3<f32>(0.0);
  var l = vec3<f32>(0.0);
  var arp = 0.0;
  var diff = 0.0;
  var wg = vec3<f32>(0.0);
  var wsum = 0.0;
  var wv = vec3<f32>(0.0);
  var maxVisc = 0.0;
  var count = 0u;
  let c = unpackCell(info[i].w);
  for (var dz = -1; dz <= 1; dz = dz + 1) {
    for (var dy = -1; dy <= 1; dy = dy + 1) {
      let row = rowRange(c, dy, dz);
      let jEnd = cellStart[row.y];
      for (var j = cellStart[row.x]; j < jEnd; j = j + 1u) {
        let aj = rec0[j];
        let d = xi - aj.xyz;
        let r2 = dot(d, d);
        if (r2 >= support2 || r2 < minR2) { continue; }
        count = count + 1u;
        let bj = rec1[j];
        let f = gradFactor(sqrt(r2));
        let dv = veli - bj.xyz;
        var pj = aj.w;
        var vj = bj.w;
        let invR2 = 1.0 / (r2 + eta2);
        let fr = f * r2 * invR2;
        var u = dv;
        var viscous = 1.0;
        if (vj > 0.0) {
          diff = diff + vj * (pj - pi + rhoi * dot(hg, d)) * fr;
        } else {
          vj = -vj;
          if (riemannGeometric) {
            let wf = vj * f;
            wg = wg + wf * d;
            wsum = wsum + wf;
            wv = wv + wf * bj.xyz;
          }
          // a wall pushes, never pulls
          if (pi + pj < 0.0) { pj = -pi; }
          let w = wall[j];
          if (w.w == 0.0) { viscous = 0.0; } else { u = veli - w.xyz; }
        }
        arp = arp + f * vj * dot(dv, d);
        let mu = h * dot(u, d) * viscous * invR2;
        let muAbs = abs(mu);
        let sumV = vi + vj;
        let coef = -(pi + pj) * invRhoi * vj + quarterAlphaC0 * (mu - muAbs) * sumV;
        l = l + (nu * sumV * fr * viscous) * u;
        maxVisc = max(maxVisc, muAbs);
        a = a + (coef * f) * d;
      }
    }
  }
  if (wsum != 0.0) {
    // the Riemann problem along n = −G/|G|, G = Σ_w V_w ∇W_iw: −2βU G
    let g = length(wg);
    if (g > 0.0) {
      let approach = dot(veli - wv / wsum, wg) / g;
      if (approach > 0.0) {
        let beta = min(6.0 * approach, c0);
        a = a + (-2.0 * beta * approach) * wg;
      }
    }
  }
  let total = a + l + P.k2.xyz;
  acc[i] = vec4<f32>(total, rhoi * arp - P.k3.z * invC2i * diff);
  out.a2 = dot(total, total);
  out.visc = maxVisc;
  out.count = count;
  return out;
}

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let r = forces(gid.x);
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

const CONTROL = /* wgsl */ `
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
 * The time step on the GPU (timeStep.ts variableTimeStep): CFL · min(√(h/|a|max),
 * h/(c0 + max h|v·r|/(r²+η²))) with the acoustic Courant number of the integrator, 0.125 h²/ν,
 * the floor; a fixed step when dynamicTimeStep is off; never past the batch's target time.
 * One thread; records the step in the batch's history.
 */
export const DT_SHADER = /* wgsl */ `${PARAMS}${CONTROL}
@group(0) @binding(1) var<storage, read> stats: array<u32>;
@group(0) @binding(2) var<storage, read_write> control: Control;
@group(0) @binding(3) var<storage, read_write> history: array<f32>;

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
  if (dt >= remaining) { dt = max(remaining, 0.0); }
  control.remaining = remaining - dt;
  control.dt = dt;
  // slot: dt, then the step's pair count (HISTORY_STRIDE of passes.ts)
  history[3u * control.index] = dt;
  control.index = control.index + 1u;
}
`

/**
 * Classical RK4 on (x, v, ρ) of fluid particles (integration.ts updateRungeKutta), stage STAGE:
 * first: start ← y, sum ← k1, y ← start + dt/2 k1; second: sum += 2k2, y ← start + dt/2 k2;
 * third: sum += 2k3, y ← start + dt k3; fourth: y ← start + dt/6 (sum + k4). Density within the
 * limiter's bounds.
 */
export const RK_SHADER = /* wgsl */ `${PARAMS}${CONTROL}
override STAGE: u32 = 1u;
@group(0) @binding(1) var<storage, read_write> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> velr: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> acc: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> info: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read_write> start: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> sum: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read> control: Control;

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= P.codes.x) { return; }
  if ((info[i].z & 1u) != 0u) { return; }
  let dt = control.dt;
  var stepLength = 0.5 * dt;
  if (STAGE == 3u) { stepLength = dt; }
  if (STAGE == 4u) { stepLength = dt / 6.0; }
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
