/**
 * The counting sort by cell on the GPU: counts with atomics, a three-pass exclusive scan of the
 * counts into cell starts, and the scatter into cell order (see shaderCommon.ts for the buffers).
 */
import { CONTROL, PARAMS, PARTICLE_MAIN, SCAN_COMMON, SCAN_WORKGROUP } from './shaderCommon.ts'

/**
 * Counting sort, first pass: each particle's cell and its rank among the particles of that cell;
 * periodic along y, a particle that left the period first comes back through the other side; with a
 * rotational periodic slice, a fluid particle that left it comes back turned (rotationalSlice.ts).
 * Deletion as the CPU's sort (grid.ts CellSorter): a particle with a coordinate that is not
 * finite, and a fluid particle outside the calculation domain, is flagged deleted and counted
 * (deleted: outside, not finite, fluid among them) in a step that is taken (time left to the
 * batch's target); deleted particles go to the bucket after the
 * last cell, so that the scatter puts them after every kept particle and no stencil reaches them.
 */
export const COUNT_SHADER = /* wgsl */ `${PARAMS}${CONTROL}
@group(0) @binding(1) var<storage, read_write> posm: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> info: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> cellCount: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> rank: array<u32>;
@group(0) @binding(5) var<storage, read_write> deleted: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read> control: Control;
@group(0) @binding(7) var<storage, read_write> velr: array<vec4<f32>>;

const EXPONENT = 0x7f800000u;
const IMAGE_KEEP = 0xffu;

${PARTICLE_MAIN}
  let m = info[i];
  var flags = m.z;
  var cell = P.dims.w;
  // a step after the batch's target time is not taken: nothing is deleted there
  let deleting = control.remaining > 0.0;
  if ((flags & DELETED_FLAG) == 0u) {
    var p = posm[i].xyz;
    let period = P.gridY.y;
    // periodic along y: back into the period, as the CPU's sort
    if (period > 0.0 && (p.y < P.origin.y || p.y >= P.origin.y + period)) {
      p.y = wrapPeriodY(p.y);
      posm[i] = vec4<f32>(p, posm[i].w);
    }
    let fluid = (flags & WALL_FLAG) == 0u;
    // a rotational periodic slice: fluid that left it back in, turned (position and velocity),
    // in a step that is taken (the CPU's sort wraps once per step)
    let turn = wrapTurn(p);
    if (deleting && fluid && turn.y != 0.0) {
      p = turnPoint(p, turn);
      posm[i] = vec4<f32>(p, posm[i].w);
      let v = velr[i];
      velr[i] = vec4<f32>(turnVector(v.xyz, turn), v.w);
    }
    // a coordinate is not finite when its exponent bits are all set (no NaN compare in WGSL)
    let bits = bitcast<vec3<u32>>(p) & vec3<u32>(EXPONENT);
    if (deleting && any(bits == vec3<u32>(EXPONENT))) {
      flags = flags | DELETED_FLAG;
      atomicAdd(&deleted[1], 1u);
      if (fluid) { atomicAdd(&deleted[2], 1u); }
    } else if (deleting && fluid && (any(p < P.domainMin.xyz) || any(p > P.domainMax.xyz))) {
      flags = flags | DELETED_FLAG;
      atomicAdd(&deleted[0], 1u);
      atomicAdd(&deleted[2], 1u);
    } else {
      cell = cellIndex(cellCoords(p));
      // the turns of its images across the slice's cuts (kept past the batch's target)
      if (deleting) { flags = (flags & IMAGE_KEEP) | imageTurns(p); }
    }
  }
  info[i] = vec4<u32>(m.x, m.y, flags, cell);
  rank[i] = atomicAdd(&cellCount[cell], 1u);
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

${PARTICLE_MAIN}
  let m = info[i];
  let dest = cellStart[m.w] + rank[i];
  outPosm[dest] = posm[i];
  outVelr[dest] = velr[i];
  outMeta[dest] = m;
}
`
