/**
 * Particle storage: one SharedArrayBuffer per field (structure of arrays), so that worker threads
 * see the same memory. Everything numeric is Float64: JavaScript computes in doubles anyway, so
 * Float32 would only add conversions in the force loop, and positions need double precision in
 * long runs where a displacement of 1e-4·dp is added to coordinates of a few metres.
 */

export const PARTICLE_KIND = { fluid: 0, wall: 1 } as const
export type ParticleKind = (typeof PARTICLE_KIND)[keyof typeof PARTICLE_KIND]

/** Float64 fields. The comment after each says when it is meaningful. */
export const FLOAT_FIELDS = [
  'posX', // all
  'posY',
  'posZ',
  'velX', // fluid: velocity; wall: prescribed wall velocity
  'velY',
  'velZ',
  'rho', // fluid: density; wall: extrapolated (generalized) or evolved (dynamic) density
  'press',
  'invRho', // 1/ρ, set with the pressure (saves divisions in the force loop)
  'mass',
  'hsml', // all: smoothing length h_i (variable resolution: refinement zones; else the run's h)
  'accX', // fluid: acceleration incl. gravity; wall: prescribed wall acceleration
  'accY',
  'accZ',
  'drho', // dρ/dt
  'temp', // fluid: temperature, K (thermodynamics); wall: its part's set temperature, NaN adiabatic
  'dtemp', // fluid: dT/dt; wall: the temperature it shows the fluid (heat.ts)
  'visc', // fluid: kinematic viscosity of a temperature or shear-rate model (viscosityModels.ts)
  'startX', // state at the start of a step (integrators)
  'startY',
  'startZ',
  'startVX',
  'startVY',
  'startVZ',
  'startRho',
  'sumX', // weighted sum of stage derivatives (Runge–Kutta)
  'sumY',
  'sumZ',
  'sumVX',
  'sumVY',
  'sumVZ',
  'sumRho',
  'refX', // wall: position at rest (before its part's motion)
  'refY',
  'refZ',
  'viscVX', // wall: velocity used in the viscous terms (no-slip: 2 v_w − extrapolated fluid velocity)
  'viscVY',
  'viscVZ',
  'normalX', // wall, Riemann wall only: unit normal towards the fluid (from the extrapolation)
  'normalY',
  'normalZ',
  'colourX', // fluid, surface tension only: unit normal of the colour gradient (0: no interface)
  'colourY',
  'colourZ',
  'colourNorm', // |∇C| of the colour function (see surfaceTension.ts)
] as const
export type FloatField = (typeof FLOAT_FIELDS)[number]

export const INT_FIELDS = [
  'particleId', // stable id (index in the creation input), kept through sorting
  'partIndex', // dense index into the solver's part table
  'cell', // scratch: cell index during a sort
] as const
export type IntField = (typeof INT_FIELDS)[number]

export const BYTE_FIELDS = [
  'kind', // PARTICLE_KIND
  'noSlip', // wall: 1 when the viscous terms see the wall (no-slip), 0 for a free-slip wall
  'phase', // fluid: index of its material in the phase table (phaseTable.ts); 0 with one fluid
] as const
export type ByteField = (typeof BYTE_FIELDS)[number]

/** Fields that carry state from one step to the next: the sort permutes these, checkpoints save them. */
export const PERSISTENT_FLOAT_FIELDS = [
  'posX',
  'posY',
  'posZ',
  'velX',
  'velY',
  'velZ',
  'rho',
  'temp',
  'mass',
  'hsml',
  'refX',
  'refY',
  'refZ',
] as const satisfies readonly FloatField[]
export const PERSISTENT_INT_FIELDS = [
  'particleId',
  'partIndex',
] as const satisfies readonly IntField[]
export const PERSISTENT_BYTE_FIELDS = [
  'kind',
  'noSlip',
  'phase',
] as const satisfies readonly ByteField[]

/**
 * The neighbour record the force loop reads, PACK_STRIDE doubles per particle (one cache line):
 * position, velocity, pressure and ±1/ρ (negative for wall particles). One array instead of ten
 * keeps the loop's base pointers in registers.
 */
export const PACK = { x: 0, y: 1, z: 2, vx: 3, vy: 4, vz: 5, pressure: 6, signedInvRho: 7 } as const
export const PACK_STRIDE = 8

export type ParticleBuffers = {
  capacity: number
  packed: SharedArrayBuffer
  float: Record<FloatField, SharedArrayBuffer>
  int: Record<IntField, SharedArrayBuffer>
  byte: Record<ByteField, SharedArrayBuffer>
}

export type ParticleArrays = Record<FloatField, Float64Array> &
  Record<IntField, Int32Array> &
  Record<ByteField, Uint8Array> & { capacity: number; packed: Float64Array }

/** Fields only the Runge–Kutta integrator uses. */
const RUNGE_KUTTA_FIELDS: ReadonlySet<FloatField> = new Set([
  'sumX',
  'sumY',
  'sumZ',
  'sumVX',
  'sumVY',
  'sumVZ',
  'sumRho',
])

/** Fields only the Riemann wall uses. */
const RIEMANN_WALL_FIELDS: ReadonlySet<FloatField> = new Set(['normalX', 'normalY', 'normalZ'])

/** Fields only surface tension uses. */
const SURFACE_TENSION_FIELDS: ReadonlySet<FloatField> = new Set([
  'colourX',
  'colourY',
  'colourZ',
  'colourNorm',
])

/**
 * Shared buffers for `capacity` particles. Without `rungeKutta` the integrator's sum fields get a
 * single element (56 bytes per particle saved; nothing else reads them), likewise the wall normals
 * without `riemannWall` and the colour gradient without `surfaceTension`.
 */
export function allocateParticleBuffers(
  capacity: number,
  {
    rungeKutta = true,
    riemannWall = true,
    surfaceTension = false,
  }: { rungeKutta?: boolean; riemannWall?: boolean; surfaceTension?: boolean } = {},
): ParticleBuffers {
  const size = Math.max(capacity, 1)
  const float = {} as Record<FloatField, SharedArrayBuffer>
  for (const field of FLOAT_FIELDS) {
    const used =
      (rungeKutta || !RUNGE_KUTTA_FIELDS.has(field)) &&
      (riemannWall || !RIEMANN_WALL_FIELDS.has(field)) &&
      (surfaceTension || !SURFACE_TENSION_FIELDS.has(field))
    float[field] = new SharedArrayBuffer((used ? size : 1) * 8)
  }
  const int = {} as Record<IntField, SharedArrayBuffer>
  for (const field of INT_FIELDS) int[field] = new SharedArrayBuffer(size * 4)
  const byte = {} as Record<ByteField, SharedArrayBuffer>
  for (const field of BYTE_FIELDS) byte[field] = new SharedArrayBuffer(size)
  return { capacity, packed: new SharedArrayBuffer(size * PACK_STRIDE * 8), float, int, byte }
}

/** Typed-array views on the shared buffers (each thread makes its own). */
export function viewParticleArrays(buffers: ParticleBuffers): ParticleArrays {
  const arrays = {
    capacity: buffers.capacity,
    packed: new Float64Array(buffers.packed),
  } as ParticleArrays
  for (const field of FLOAT_FIELDS) arrays[field] = new Float64Array(buffers.float[field])
  for (const field of INT_FIELDS) arrays[field] = new Int32Array(buffers.int[field])
  for (const field of BYTE_FIELDS) arrays[field] = new Uint8Array(buffers.byte[field])
  return arrays
}
