/**
 * The Input Validation checklist of the Setup view (spec/setup.md §5): every rule of settings,
 * materials, parts, movements, meshes, air drag and the periodic boundary, with the coupled
 * ones, in one call. Discretize is blocked while the result has errors or info items.
 */
import { checkAirDragDomain, type AirDragDomain } from './airDrag.ts'
import type { DatatableInfo } from './datatable.ts'
import { checkMaterial, type Material } from './materials.ts'
import {
  checkRefinement,
  checkSensor,
  checkVolumeClip,
  type Refinement,
  type Sensor,
  type VolumeClip,
} from './meshes.ts'
import { checkMovement, type Movement } from './movements.ts'
import { checkPart, isPointcloudPart, type Part } from './parts.ts'
import { checkPeriodicBoundary, type PeriodicBoundary } from './periodic.ts'
import { NAME_USED_MESSAGE } from './projects.ts'
import type { SimulationSettings } from './settings.ts'
import { checkSettings, checkSettingsCoupling, type RuleProfile } from './settingsRules.ts'
import { issue, type Issue } from './validation.ts'

/** Shown when the scene has no parts yet. */
export const EMPTY_SETUP_MESSAGE = 'Add your first object'

/** Shown while air drag is on but no air drag domain exists. */
export const AIR_DRAG_DOMAIN_REQUIRED = 'Air drag domain is required'

/** Everything the checklist looks at. Lists default to empty. */
export interface SetupInput {
  settings: SimulationSettings
  materials?: readonly Material[]
  parts?: readonly Part[]
  movements?: readonly Movement[]
  refinements?: readonly Refinement[]
  sensors?: readonly Sensor[]
  volumeClips?: readonly VolumeClip[]
  /** Checked only while settings.airDrag is on. */
  airDrag?: AirDragDomain | null
  periodics?: readonly PeriodicBoundary[]
  /**
   * Every datatable of the simulation. Given, a part or material naming a table not in it is an
   * error ('Table does not exist.'); absent, tables are not checked for rows or headers.
   */
  datatables?: readonly DatatableInfo[]
  /** Outputs of the air drag reference simulation, when loaded. */
  airDragReferenceOutputCount?: number
}

/** Names used more than once among parts, refinements, sensors and volume clips. */
function checkUniqueNames(input: SetupInput): Issue[] {
  const named: { field: string; name: string }[] = [
    ...(input.parts ?? []).map((o) => ({ field: `parts.${o.id}.name`, name: o.name })),
    ...(input.refinements ?? []).map((o) => ({ field: `refinements.${o.id}.name`, name: o.name })),
    ...(input.sensors ?? []).map((o) => ({ field: `sensors.${o.id}.name`, name: o.name })),
    ...(input.volumeClips ?? []).map((o) => ({ field: `volumeClips.${o.id}.name`, name: o.name })),
  ]
  const counts = new Map<string, number>()
  for (const { name } of named) counts.set(name.trim(), (counts.get(name.trim()) ?? 0) + 1)
  return named
    .filter(({ name }) => (counts.get(name.trim()) ?? 0) > 1)
    .map(({ field }) => issue('error', field, NAME_USED_MESSAGE))
}

/**
 * Every issue of the setup. Fields are dotted paths by entity and id: 'settings.endTime',
 * 'materials.0.density', 'parts.12.component.ioPressure', 'movements.3.start', 'airDrag.size.0',
 * 'periodics.1.sliceAngle'.
 */
export function validateSetup(input: SetupInput, options: { profile?: RuleProfile } = {}): Issue[] {
  const profile = options.profile ?? 'standard'
  const { settings } = input
  const materials = input.materials ?? []
  const parts = input.parts ?? []
  const refinements = input.refinements ?? []
  const tables = new Map((input.datatables ?? []).map((t) => [t.id, t]))
  const findDatatable = (id: number) => tables.get(id)
  const tableRowCount = (id: number) => tables.get(id)?.resultCount
  const datatablesComplete = input.datatables !== undefined

  const issues: Issue[] = []
  if (parts.length === 0) issues.push(issue('info', 'parts', EMPTY_SETUP_MESSAGE))
  issues.push(
    ...checkSettings(settings, { profile, hasPointcloudPart: parts.some(isPointcloudPart) }),
    ...checkSettingsCoupling(settings, {
      materialCount: materials.length,
      refinementCount: refinements.length,
    }),
  )
  for (const material of materials)
    issues.push(
      ...checkMaterial(
        material,
        { profile, thermodynamics: settings.thermodynamics, tableRowCount, datatablesComplete },
        `materials.${material.id}`,
      ),
    )
  const partContext = {
    profile,
    thermodynamics: settings.thermodynamics,
    multiphase: settings.multiphase,
    surfaceTension: settings.surfaceTension,
    materialIds: materials.map((m) => m.id),
    findDatatable,
    datatablesComplete,
  }
  for (const part of parts) issues.push(...checkPart(part, partContext, `parts.${part.id}`))
  for (const movement of input.movements ?? [])
    issues.push(
      ...checkMovement(movement, { endTime: settings.endTime }, `movements.${movement.id}`),
    )
  for (const refinement of refinements)
    issues.push(...checkRefinement(refinement, `refinements.${refinement.id}`))
  for (const sensor of input.sensors ?? [])
    issues.push(...checkSensor(sensor, `sensors.${sensor.id}`))
  for (const clip of input.volumeClips ?? [])
    issues.push(...checkVolumeClip(clip, `volumeClips.${clip.id}`))
  if (settings.airDrag && input.airDrag)
    issues.push(
      ...checkAirDragDomain(input.airDrag, {
        tableRowCount,
        referenceOutputCount: input.airDragReferenceOutputCount,
      }),
    )
  else if (settings.airDrag) issues.push(issue('info', 'airDrag', AIR_DRAG_DOMAIN_REQUIRED))
  for (const periodic of input.periodics ?? [])
    issues.push(...checkPeriodicBoundary(periodic, `periodics.${periodic.id}`))
  issues.push(...checkUniqueNames(input))
  return issues
}
