/**
 * The rotational periodic boundary on the GPU (periodicRotation.ts and rotationalSlice.ts of
 * solver/sph): the count pass wraps a fluid particle that left the slice back into it, turned by
 * whole slice angles (position and velocity), and every neighbour loop runs once more for each
 * turn k whose images can reach the particle: the stencil around the particle's position turned
 * back by k·angle, each neighbour j found there taken at its image, position, velocity and wall
 * velocity turned by k·angle. The images are the CPU's (the same filters: j within reach of a cut
 * face, its image outside the slice and within reach of it), read in place rather than copied,
 * so they carry their sources' current state as the CPU's refreshed images do.
 */
import type { RotationalSlice } from '../sph/rotationalSlice.ts'
import type { PackedParticles } from './hostState.ts'
import {
  angleFromBisector,
  distanceToFaces,
  distanceToWedge,
  sliceCount,
} from '../sph/rotationalSlice.ts'

/** A cut face's reach (periodicRotation.ts: the support and a margin for a step's motion). */
const REACH_PER_SUPPORT = 1.2
/** Where the image turns sit in a particle's flags (info.z), 12 bits each (imageTurns in SLICE_WGSL). */
const TURNS_UP_SHIFT = 8
const TURNS_DOWN_SHIFT = 20

/** The slice's uniform lanes (Params.slice0 … slice3); zeros without one. */
export function sliceParams(slice: RotationalSlice | null | undefined, support: number): number[] {
  if (!slice) return new Array<number>(16).fill(0)
  return [
    ...slice.center,
    slice.angle,
    ...slice.e1,
    // the bisector's angle from e1: ψ is measured from it
    slice.start + 0.5 * slice.angle,
    ...slice.e2,
    sliceCount(slice),
    ...slice.axis,
    REACH_PER_SUPPORT * support,
  ]
}

/**
 * The turns of the images the CPU's sort makes of a particle at (x, y, z) (periodicRotation.ts
 * beforeSort, imageTurns below): k = 1 … up and k = N − down … N − 1; both 0 for none.
 */
export function imageTurnsAt(
  slice: RotationalSlice,
  support: number,
  x: number,
  y: number,
  z: number,
): { up: number; down: number } {
  const half = 0.5 * slice.angle
  const reach = REACH_PER_SUPPORT * support
  const n = sliceCount(slice)
  const { psi, radius } = angleFromBisector(slice, x, y, z)
  if (distanceToFaces(half, psi, radius) >= reach) return { up: 0, down: 0 }
  const lands = (k: number) => {
    let turned = psi + k * slice.angle
    turned -= 2 * Math.PI * Math.floor((turned + Math.PI) / (2 * Math.PI))
    if (Math.abs(turned) - half <= 0 && radius > 0) return false
    return distanceToWedge(half, turned, radius) < reach
  }
  let up = 0
  while (up + 1 < n && lands(up + 1)) up++
  let down = 0
  while (n - down - 1 > up && lands(n - down - 1)) down++
  return { up, down }
}

/**
 * The image turns of the uploaded particles into their flags, as the count pass computes them at
 * each step's sort (imageTurns below), here with the CPU's functions: a force pass measured before
 * any step (forcePass) sees the CPU's images.
 */
export function addImageTurns(
  packed: Pick<PackedParticles, 'info' | 'posm' | 'kept'>,
  slice: RotationalSlice,
  support: number,
): void {
  const { info, posm, kept: count } = packed
  for (let i = 0; i < count; i++) {
    const o = 4 * i
    const { up, down } = imageTurnsAt(slice, support, posm[o]!, posm[o + 1]!, posm[o + 2]!)
    info[o + 2] = info[o + 2]! | (up << TURNS_UP_SHIFT) | (down << TURNS_DOWN_SHIFT)
  }
}

/** WGSL of the slice (after Params in PARAMS). */
export const SLICE_WGSL = /* wgsl */ `
const PI = 3.14159265358979;
const TAU = 6.28318530717959;

// turns of the full circle (360° / angle), 0 without a rotational periodic boundary
fn sliceTurns() -> i32 {
  return i32(P.slice2.w);
}

fn wrapAngle(a: f32) -> f32 {
  return a - TAU * floor((a + PI) / TAU);
}

// ψ from the slice's bisector in [−π, π) and the distance from the axis (angleFromBisector)
fn slicePolar(x: vec3<f32>) -> vec2<f32> {
  let r = x - P.slice0.xyz;
  let u = dot(r, P.slice1.xyz);
  let w = dot(r, P.slice2.xyz);
  return vec2<f32>(wrapAngle(atan2(w, u) - P.slice1.w), sqrt(u * u + w * w));
}

// distance from (ψ, radius) to the wedge, 0 inside it (distanceToWedge)
fn wedgeDistance(psi: f32, radius: f32) -> f32 {
  let outside = abs(psi) - 0.5 * P.slice0.w;
  if (outside <= 0.0) { return 0.0; }
  if (outside >= 0.5 * PI) { return radius; }
  return radius * sin(outside);
}

// distance from (ψ, radius) inside the wedge to its cut faces (distanceToFaces)
fn faceDistance(psi: f32, radius: f32) -> f32 {
  let inside = 0.5 * P.slice0.w - abs(psi);
  if (inside >= 0.5 * PI) { return radius; }
  return radius * sin(max(inside, 0.0));
}

// cos and sin of k slice angles
fn turnOf(k: i32) -> vec2<f32> {
  let a = f32(k) * P.slice0.w;
  return vec2<f32>(cos(a), sin(a));
}

// v turned about the axis (rotationMatrix, Rodrigues)
fn turnVector(v: vec3<f32>, t: vec2<f32>) -> vec3<f32> {
  let a = P.slice3.xyz;
  return v * t.x + cross(a, v) * t.y + a * (dot(a, v) * (1.0 - t.x));
}

fn turnPoint(x: vec3<f32>, t: vec2<f32>) -> vec3<f32> {
  return P.slice0.xyz + turnVector(x - P.slice0.xyz, t);
}

// a neighbour's point and vectors at its image of turn k (itself at turn 0)
fn imagePoint(x: vec3<f32>, k: i32, t: vec2<f32>) -> vec3<f32> {
  if (k == 0) { return x; }
  return turnPoint(x, t);
}

fn imageVector(v: vec3<f32>, k: i32, t: vec2<f32>) -> vec3<f32> {
  if (k == 0) { return v; }
  return turnVector(v, t);
}

// turn k can hold images near x: x turned back by k lies within a face's reach of the wedge
fn turnReaches(x: vec3<f32>, k: i32) -> bool {
  let polar = slicePolar(x);
  return wedgeDistance(wrapAngle(polar.x - f32(k) * P.slice0.w), polar.y) < P.slice3.w;
}

// the turns of a particle's images as the CPU makes them at each sort (periodicRotation.ts
// beforeSort: within reach of a cut face, the image within reach of the wedge and not inside the
// slice, a second copy where the angle does not divide 360°), into flag bits: k = 1 … up and
// k = N − down … N − 1 (the turns that land near the wedge run from either end)
const TURNS_UP_SHIFT = ${TURNS_UP_SHIFT}u;
const TURNS_DOWN_SHIFT = ${TURNS_DOWN_SHIFT}u;
const TURNS_MASK = 0xfffu;

fn imageTurns(x: vec3<f32>) -> u32 {
  let n = sliceTurns();
  if (n == 0) { return 0u; }
  let polar = slicePolar(x);
  let reach = P.slice3.w;
  if (faceDistance(polar.x, polar.y) >= reach) { return 0u; }
  var up = 0;
  for (var k = 1; k < n; k = k + 1) {
    if (!imageLands(polar, k)) { break; }
    up = k;
  }
  var down = 0;
  for (var k = n - 1; k > up; k = k - 1) {
    if (!imageLands(polar, k)) { break; }
    down = n - k;
  }
  return (u32(up) << TURNS_UP_SHIFT) | (u32(down) << TURNS_DOWN_SHIFT);
}

fn imageLands(polar: vec2<f32>, k: i32) -> bool {
  let turned = wrapAngle(polar.x + f32(k) * P.slice0.w);
  if (abs(turned) - 0.5 * P.slice0.w <= 0.0 && polar.y > 0.0) { return false; }
  return wedgeDistance(turned, polar.y) < P.slice3.w;
}

// particle j (its flags) has an image of turn k
fn imageMade(flags: u32, k: i32) -> bool {
  let up = i32((flags >> TURNS_UP_SHIFT) & TURNS_MASK);
  let down = i32((flags >> TURNS_DOWN_SHIFT) & TURNS_MASK);
  return k <= up || k >= sliceTurns() - down;
}

// the cell whose stencil holds the sources of turn k's images around x
fn turnedCell(x: vec3<f32>, k: i32) -> vec3<u32> {
  return cellCoords(turnPoint(x, turnOf(-k)));
}

// a fluid particle that left the slice, back into it turned by whole angles (wrapIntoSlice):
// the turn to apply (cos, sin), (1, 0) when it is inside
fn wrapTurn(x: vec3<f32>) -> vec2<f32> {
  if (sliceTurns() == 0) { return vec2<f32>(1.0, 0.0); }
  let polar = slicePolar(x);
  let halfAngle = 0.5 * P.slice0.w;
  if (polar.y == 0.0 || (polar.x >= -halfAngle && polar.x < halfAngle)) { return vec2<f32>(1.0, 0.0); }
  return turnOf(-i32(floor((polar.x + halfAngle) / P.slice0.w)));
}
`
