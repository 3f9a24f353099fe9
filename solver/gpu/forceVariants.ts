/**
 * Variants of the force pass (issue 21 item 4: the pass at the speed of the card), selectable for
 * the bench (bench/solver/gpuForceVariants.ts) until a card says which is fastest. Each computes
 * what FORCE_SHADER computes (interactShaders.ts: the same pairs, terms and per-workgroup stats,
 * the same bindings), so the agreement tests hold for each:
 *
 * - `base`: FORCE_SHADER itself (the default).
 * - `lean`: the same loop, a leaner pair body: the kernel, the Riemann wall and the hydrostatic
 *   diffusion term chosen by pipeline constants (no per-pair branch on uniforms), 1/h hoisted, no
 *   `viscous` factor on fluid pairs (a free-slip wall zeroes u instead: the same sums),
 *   ¼αc0(μ − |μ|) as ½αc0 min(μ, 0) (equal in float32).
 * - `list`: the pair body run over a compacted list: each stencil row (3 contiguous cells) is
 *   scanned for neighbours within 2h first (position loads and r² only), their indices go to a
 *   per-thread list in workgroup memory, then the body runs over the list. In the base loop a
 *   warp runs the body for every candidate that any of its lanes has within 2h (nearly all of
 *   them: 27 cells of 2h hold ~6 × the neighbours); here it runs about max-over-lanes of the
 *   neighbours per row. The pair order is the base loop's (a full list is flushed mid-row).
 * - `listLean`: both.
 */
import type { SphConstants } from '../sph/config.ts'
import { PARAMS, WORKGROUP } from './shaderCommon.ts'
import { FORCE_SHADER } from './interactShaders.ts'

export const FORCE_VARIANTS = ['base', 'lean', 'list', 'listLean'] as const
export type ForceVariant = (typeof FORCE_VARIANTS)[number]
export const DEFAULT_FORCE_VARIANT: ForceVariant = 'base'

/**
 * Neighbour indices per thread in the list variants (12 KiB per workgroup of WebGPU's 16 KiB): a
 * stencil row holds ~40 % of the ~100 neighbours of a particle at its cell's centre.
 */
export const LIST_CAP = 48

export function isForceVariant(name: string): name is ForceVariant {
  return (FORCE_VARIANTS as readonly string[]).includes(name)
}

/** What the lean body's pipeline constants specialize (from the solver's constants). */
export interface ForceSpecialization {
  kernelCode: number
  riemannWall: number
  hydrostatic: boolean
}

/** The specialization of a solver's constants (as params.ts writes codes.y, codes.z, codes.w). */
export function forceSpecialization(k: SphConstants): ForceSpecialization {
  return {
    kernelCode: k.kernelCode,
    riemannWall: k.riemannWall,
    hydrostatic: k.hydrostaticDensityGradient.some((v) => v !== 0),
  }
}

const HEAD = /* wgsl */ `${PARAMS}
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
`

/** The per-particle set-up of FORCE_SHADER (the lean body reads the same names). */
const PROLOGUE = /* wgsl */ `
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
`

/** FORCE_SHADER's pair body, given j, aj = rec0[j], d = xi − xj and r2 (a neighbour). */
const BASE_BODY = /* wgsl */ `
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
`

/** Pipeline constants of the lean body and the per-particle values it hoists. */
const LEAN_DECLS = /* wgsl */ `
override KERNEL: u32 = 0u;
override RIEMANN_GEOMETRIC: bool = false;
override HYDROSTATIC: bool = false;

// F = (dW/dr)/r with the kernel a pipeline constant (gradFactor of shaderCommon.ts)
fn leanGradFactor(rr: f32, invH: f32) -> f32 {
  if (KERNEL == 0u) {
    let t = 1.0 - 0.5 * rr * invH;
    return P.k0.w * t * t * t;
  }
  let q = rr * invH;
  if (q < 1.0) { return P.k0.w * (-3.0 + 2.25 * q); }
  let t = 2.0 - q;
  return (P.k0.w * (-0.75 * t * t)) / q;
}
`

const LEAN_PROLOGUE = /* wgsl */ `
  let invH = 1.0 / h;
  let halfAlphaC0 = 2.0 * quarterAlphaC0;
`

/** The base body with the uniform choices as constants and no factor that is always one. */
const LEAN_BODY = /* wgsl */ `
        count = count + 1u;
        let bj = rec1[j];
        let f = leanGradFactor(sqrt(r2), invH);
        let dv = veli - bj.xyz;
        var pj = aj.w;
        var vj = bj.w;
        let invR2 = 1.0 / (r2 + eta2);
        let fr = f * r2 * invR2;
        var u = dv;
        if (vj > 0.0) {
          var dp = pj - pi;
          if (HYDROSTATIC) { dp = dp + rhoi * dot(hg, d); }
          diff = diff + vj * dp * fr;
        } else {
          vj = -vj;
          if (RIEMANN_GEOMETRIC) {
            let wf = vj * f;
            wg = wg + wf * d;
            wsum = wsum + wf;
            wv = wv + wf * bj.xyz;
          }
          if (pi + pj < 0.0) { pj = -pi; }
          let w = wall[j];
          // a free-slip wall: no viscous term (u = 0 gives μ = 0 and no laminar term)
          u = select(veli - w.xyz, vec3<f32>(0.0), w.w == 0.0);
        }
        arp = arp + f * vj * dot(dv, d);
        let mu = h * dot(u, d) * invR2;
        let sumV = vi + vj;
        let coef = -(pi + pj) * invRhoi * vj + halfAlphaC0 * min(mu, 0.0) * sumV;
        l = l + (nu * sumV * fr) * u;
        maxVisc = max(maxVisc, abs(mu));
        a = a + (coef * f) * d;
`

/** The base loop: 9 rows of 3 contiguous cells, the body for each neighbour. */
function directLoop(body: string): string {
  return /* wgsl */ `
  for (var dz = -1; dz <= 1; dz = dz + 1) {
    for (var dy = -1; dy <= 1; dy = dy + 1) {
      let row = rowRange(c, dy, dz);
      let jEnd = cellStart[row.y];
      for (var j = cellStart[row.x]; j < jEnd; j = j + 1u) {
        let aj = rec0[j];
        let d = xi - aj.xyz;
        let r2 = dot(d, d);
        if (r2 >= support2 || r2 < minR2) { continue; }
        ${body}
      }
    }
  }`
}

/**
 * Each row scanned into the thread's list (lane-interleaved: no bank conflicts), the body over
 * the list; a full list is run and emptied mid-row, so the pair order is the direct loop's.
 */
function listLoop(body: string, cap: number): string {
  return /* wgsl */ `
  for (var dz = -1; dz <= 1; dz = dz + 1) {
    for (var dy = -1; dy <= 1; dy = dy + 1) {
      let row = rowRange(c, dy, dz);
      let jEnd = cellStart[row.y];
      var next = cellStart[row.x];
      loop {
        var n = 0u;
        for (; next < jEnd && n < ${cap}u; next = next + 1u) {
          let d = xi - rec0[next].xyz;
          let r2 = dot(d, d);
          if (r2 >= support2 || r2 < minR2) { continue; }
          neighbours[n * ${WORKGROUP}u + lane] = next;
          n = n + 1u;
        }
        for (var k = 0u; k < n; k = k + 1u) {
          let j = neighbours[k * ${WORKGROUP}u + lane];
          let aj = rec0[j];
          let d = xi - aj.xyz;
          let r2 = dot(d, d);
          ${body}
        }
        if (next >= jEnd) { break; }
      }
    }
  }`
}

const EPILOGUE = /* wgsl */ `
  if (wsum != 0.0) {
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
`

/** FORCE_SHADER's entry point: the workgroup's maxima and pair count into stats. */
const MAIN = /* wgsl */ `
@compute @workgroup_size(${WORKGROUP})
fn main(
  @builtin(global_invocation_id) gid: vec3<u32>,
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(num_workgroups) groups: vec3<u32>,
) {
  let r = forces(particleIndex(gid, groups), lid.x);
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

/** The WGSL of a variant (`base` is FORCE_SHADER itself). */
export function forceVariantShader(variant: ForceVariant, listCap = LIST_CAP): string {
  if (variant === 'base') return FORCE_SHADER
  const lean = variant === 'lean' || variant === 'listLean'
  const listed = variant === 'list' || variant === 'listLean'
  const body = lean ? LEAN_BODY : BASE_BODY
  return [
    HEAD,
    lean ? LEAN_DECLS : '',
    listed ? `var<workgroup> neighbours: array<u32, ${listCap * WORKGROUP}>;\n` : '',
    'fn forces(i: u32, lane: u32) -> Result {',
    PROLOGUE,
    lean ? LEAN_PROLOGUE : '',
    listed ? listLoop(body, listCap) : directLoop(body),
    EPILOGUE,
    MAIN,
  ].join('\n')
}

/** The pipeline constants of a variant (the lean body's specialization). */
export function forceVariantConstants(
  variant: ForceVariant,
  s: ForceSpecialization,
): Record<string, number> | undefined {
  if (variant !== 'lean' && variant !== 'listLean') return undefined
  return {
    KERNEL: s.kernelCode,
    RIEMANN_GEOMETRIC: s.riemannWall === 2 ? 1 : 0,
    HYDROSTATIC: s.hydrostatic ? 1 : 0,
  }
}

const pipelinesOf = new WeakMap<GPUDevice, Map<string, GPUComputePipeline>>()

/** A variant's pipeline for a specialization (and list size), compiled once per device. */
export function forceVariantPipeline(
  device: GPUDevice,
  variant: ForceVariant,
  s: ForceSpecialization,
  listCap = LIST_CAP,
): GPUComputePipeline {
  let known = pipelinesOf.get(device)
  if (!known) pipelinesOf.set(device, (known = new Map<string, GPUComputePipeline>()))
  const constants = forceVariantConstants(variant, s)
  const key = `${variant} ${listCap} ${JSON.stringify(constants ?? {})}`
  let pipeline = known.get(key)
  if (!pipeline) {
    pipeline = device.createComputePipeline({
      layout: 'auto',
      compute: {
        module: device.createShaderModule({ code: forceVariantShader(variant, listCap) }),
        entryPoint: 'main',
        ...(constants ? { constants } : {}),
      },
    })
    known.set(key, pipeline)
  }
  return pipeline
}
