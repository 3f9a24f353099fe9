/**
 * Snapshots of the GPU backend: its state buffers, copied back in cell order, the particles kept
 * (not deleted) ordered by particle id like the CPU's snapshot.
 */
import type { SphConstants } from '../sph/config.ts'
import { BOUNDARY_CODE } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { SolverSnapshot } from '../sph/solverTypes.ts'
import { DELETED, OPEN } from './hostState.ts'
import { OPEN_BOUNDARY_KIND } from '../sph/snapshot.ts'
import { temperatureAt } from './thermal.ts'
import { PHASE_SHIFT } from './shaderCommon.ts'

const FLUID = PARTICLE_KIND.fluid

/** The GPU's state buffers, four lanes per particle (see shaderCommon.ts). */
export interface GpuState {
  posm: Float32Array
  velr: Float32Array
  info: Uint32Array
  rec0: Float32Array
  /** Temperatures and ν (heatShaders.ts), or null without the therm buffer. */
  therm: Float32Array | null
}

/**
 * The snapshot of the kept ones of `count` particles in the buffers (ids below `capacity`):
 * fluid pressure from the density (Tait, in double precision like the CPU's snapshot), walls' the
 * last extrapolation's (dynamic boundary particles': from their density, as the fluid's); with
 * multiphase each fluid particle's own material (its phase, from its flags). The state is read
 * once, in its order (it may be mapped GPU memory, slow to read at random), each particle
 * written to the slot its id's rank among the kept ids gives.
 * With heat conduction the fluid's temperature (T_ref + θ, `at.referenceT`), with a viscosity
 * table its ν, walls NaN in both (heat.ts withHeatFields).
 */
export function buildGpuSnapshot(
  state: GpuState,
  count: number,
  k: SphConstants,
  at: {
    timeS: number
    step: number
    partIds: readonly number[]
    materialId: number
    capacity: number
    referenceT: number
  },
): SolverSnapshot {
  const { posm, velr, info, rec0, therm } = state
  // slot of each id: ids are unique and below the capacity, the snapshot is ordered by id
  const slotOfId = new Int32Array(Math.max(at.capacity, 1))
  for (let i = 0; i < count; i++) if (!(info[4 * i + 2]! & DELETED)) slotOfId[info[4 * i]!] = 1
  let n = 0
  for (let id = 0; id < slotOfId.length; id++) {
    const kept = slotOfId[id]!
    slotOfId[id] = n
    n += kept
  }
  const snapshot: SolverSnapshot = {
    timeS: at.timeS,
    step: at.step,
    count: n,
    particleIds: new Int32Array(n),
    positions: new Float64Array(3 * n),
    velocities: new Float64Array(3 * n),
    pressure: new Float64Array(n),
    density: new Float64Array(n),
    mass: new Float64Array(n),
    kind: new Uint8Array(n),
    partId: new Int32Array(n),
    materialId: new Int32Array(n),
  }
  const { particleIds, positions, velocities, pressure, density, mass, partId, materialId } =
    snapshot
  const kinds = snapshot.kind
  const partIds = Int32Array.from(at.partIds)
  // each phase's Tait parameters and material (one fluid: the constants' and at.materialId)
  const phases = k.phases
  const stiffness = phases?.stiffness ?? [k.stiffness]
  const referenceDensity = phases?.referenceDensity ?? [k.referenceDensity]
  const gamma = phases?.gamma ?? [k.gamma]
  const materialIds = phases?.materialIds ?? [at.materialId]
  // dynamic boundary particles: walls' pressures from their own density too (walls.ts; phase 0)
  const dynamic = k.boundaryCode === BOUNDARY_CODE.dynamic
  const temperature = therm && k.heat.conduction > 0 ? new Float64Array(n) : null
  const thermBits = therm ? new Uint32Array(therm.buffer, therm.byteOffset, therm.length) : null
  const viscosity = therm && k.heat.viscosityModel !== 0 ? new Float64Array(n) : null
  for (let i = 0; i < count; i++) {
    const o = 4 * i
    const flags = info[o + 2]!
    if (flags & DELETED) continue
    const id = info[o]!
    const s = slotOfId[id]!
    const kind = flags & 1
    const rho = velr[o + 3]!
    particleIds[s] = id
    positions[3 * s] = posm[o]!
    positions[3 * s + 1] = posm[o + 1]!
    positions[3 * s + 2] = posm[o + 2]!
    velocities[3 * s] = velr[o]!
    velocities[3 * s + 1] = velr[o + 1]!
    velocities[3 * s + 2] = velr[o + 2]!
    const phase = (flags >> PHASE_SHIFT) & 7
    pressure[s] =
      kind === FLUID || dynamic
        ? stiffness[phase]! * ((rho / referenceDensity[phase]!) ** gamma[phase]! - 1)
        : rec0[o + 3]!
    density[s] = rho
    mass[s] = posm[o + 3]!
    kinds[s] = flags & OPEN ? OPEN_BOUNDARY_KIND : kind
    partId[s] = partIds[info[o + 1]!]!
    materialId[s] = kind === FLUID ? materialIds[phase]! : -1
    if (temperature)
      temperature[s] = kind === FLUID ? temperatureAt(thermBits!, o, at.referenceT) : NaN
    if (viscosity) viscosity[s] = kind === FLUID ? therm![o + 3]! : NaN
  }
  if (temperature) snapshot.temperature = temperature
  if (viscosity) snapshot.kinematicViscosity = viscosity
  return snapshot
}
