/**
 * The open boundaries of a run (solver/sph/openBoundary.ts) from the setup's open-boundary parts
 * and the discretizer's buffer particles: the plane (solver/discretizer/openBoundaries.ts
 * openBoundaryPlane), the buffer depth and the imposed profile.
 * - Inflow: ioVelocity is the speed along the normal into the fluid; a 'field' profile reads the
 *   table's vel_x, vel_y, vel_z (m/s) over its time column (s).
 * - Outflow: ioPressure, Pa; a 'field' profile reads the table's prs over time.
 * A table's rows are ordered by time; pos_x/pos_y/pos_z, where given, must be one point (a
 * profile over space is not implemented).
 */
import type { OpenBoundaryComponent } from '../../domain/partComponent.ts'
import type { Vec3 } from '../../domain/vector.ts'
import { OPEN_BOUNDARY_LAYERS, openBoundaryPlane } from '../discretizer/openBoundaries.ts'
import type { SolverOpenBoundary } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { RunSetup } from '../setup.ts'
import type { RunSimulationOptions } from './types.ts'

type Profile = SolverOpenBoundary['profile']

/** The profile of a part over time, or why it cannot be used. */
function profileOf(
  name: string,
  c: OpenBoundaryComponent,
  normal: Vec3,
  datatables: RunSetup['datatables'],
): Profile | string {
  const inflow = c.ioDirection === 'inflow'
  if (c.ioProfileKind === 'constant') {
    if (inflow) {
      const u = c.ioVelocity ?? NaN
      if (!Number.isFinite(u)) return `Open boundary "${name}" needs its velocity.`
      return {
        timesS: [0],
        velocities: [[u * normal[0], u * normal[1], u * normal[2]]],
        pressures: [0],
      }
    }
    const p = c.ioPressure ?? NaN
    if (!Number.isFinite(p)) return `Open boundary "${name}" needs its pressure.`
    return { timesS: [0], velocities: [[0, 0, 0]], pressures: [p] }
  }
  const table = c.ioTableId === null ? undefined : datatables?.[c.ioTableId]
  if (!table) return `Open boundary "${name}" needs its profile table.`
  const column = (key: string) => table.table[key] ?? []
  const times = column('time')
  const wanted = inflow ? ['vel_x', 'vel_y', 'vel_z'] : ['prs']
  const rows: { t: number; v: Vec3; p: number }[] = []
  for (let r = 0; r < times.length; r++) {
    const t = times[r]
    if (t === null || t === undefined) continue
    const values = wanted.map((key) => column(key)[r] ?? (inflow ? 0 : NaN))
    if (![t, ...values].every(Number.isFinite))
      return `The profile table of open boundary "${name}" has a row without a number.`
    rows.push({ t, v: inflow ? (values as Vec3) : [0, 0, 0], p: inflow ? 0 : values[0]! })
  }
  for (const key of ['pos_x', 'pos_y', 'pos_z']) {
    const values = new Set(column(key).filter((v) => v !== null))
    if (values.size > 1)
      return `The profile table of open boundary "${name}" varies over space (pos_x, pos_y, pos_z): only a profile over time is implemented.`
  }
  if (rows.length < 2) return `The profile table of open boundary "${name}" needs at least 2 rows.`
  rows.sort((a, b) => a.t - b.t)
  if (rows.some((row, k) => k > 0 && row.t === rows[k - 1]!.t))
    return `The profile table of open boundary "${name}" has two rows at one time.`
  return {
    timesS: rows.map((r) => r.t),
    velocities: rows.map((r) => r.v),
    pressures: rows.map((r) => r.p),
  }
}

/** The run's open boundaries, and the problems that keep it from starting (none: it can). */
export function openBoundariesOf(options: RunSimulationOptions): {
  zones: SolverOpenBoundary[]
  problems: string[]
} {
  const { setup, particles } = options
  const dp = setup.settings.particleDiameter ?? NaN
  const zones: SolverOpenBoundary[] = []
  const problems: string[] = []
  for (const part of setup.parts) {
    const c = part.component
    if (c.type !== 'openboundary') continue
    const indices: number[] = []
    for (let i = 0; i < particles.kinds.length; i++)
      if (particles.partIds[i] === part.id && particles.kinds[i] === PARTICLE_KIND.fluid)
        indices.push(i)
    const plane = openBoundaryPlane(
      part,
      setup.meshes,
      { positions: particles.positions, indices },
      dp,
    )
    if (!plane) {
      problems.push(
        `Open boundary "${part.name}" has no buffer particles: discretize the setup again.`,
      )
      continue
    }
    const profile = profileOf(part.name, c, plane.normal, setup.datatables)
    if (typeof profile === 'string') {
      problems.push(profile)
      continue
    }
    zones.push({
      partId: part.id,
      direction: c.ioDirection,
      ...plane,
      thickness: OPEN_BOUNDARY_LAYERS * dp,
      profile,
    })
  }
  return { zones, problems }
}
