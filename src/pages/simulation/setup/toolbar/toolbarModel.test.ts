import { describe, expect, it } from 'vitest'
import { SENSORS_LOCKED_MESSAGE } from '../../../../../domain/rest/sensorRoutes.ts'
import { SETTINGS_MESSAGES } from '../../../../../domain/settingsMessages.ts'
import { SETUP_MESSAGES } from '../../../../../domain/setupMessages.ts'
import {
  INITIAL_PRESET_SET,
  POINTCLOUD_NOT_EDITABLE,
  SINGLE_PART_ONLY,
} from '../forms/part/partSelection.ts'
import { makePart } from '../viewport/setupTestKit.tsx'
import {
  ADD_DISABLED_REASONS,
  BOUNDARY_CONDITIONS_ONLY,
  DEFAULT_DOMAIN_BOX,
  MATERIAL_FLUIDS_ONLY,
  addMenuEntries,
  domainBoxAround,
  folderStates,
  formOfAddEntry,
  type AddMenuContext,
} from './toolbarModel.ts'

const EDITABLE: AddMenuContext = {
  setup: { editable: true, reason: null },
  state: 'not started',
  settings: { multiphase: false, airDrag: false },
  calcDomainActive: false,
}

const reasons = (context: AddMenuContext) =>
  Object.fromEntries(addMenuEntries(context).map((e) => [e.key, e.disabledReason]))

describe('Add menu', () => {
  it('lists the entries of spec §2 in order, Physics and Settings last', () => {
    expect(addMenuEntries(EDITABLE).map((e) => e.label)).toEqual([
      'Solid',
      'Fluid',
      'Inlet Outlet',
      'Refinement Zone',
      'Sensor',
      'Volume Clip',
      'Domain Boundary',
      'Air drag domain',
      'Periodic Boundary',
      'Physics',
      'Settings',
    ])
  })

  it('enables parts, sensors, clips and the domain boundary of an editable setup', () => {
    expect(reasons(EDITABLE)).toMatchObject({
      solid: null,
      fluid: null,
      inlet_outlet: null,
      sensor: null,
      volume_clip: null,
      domain_boundary: null,
      physics: null,
      settings: null,
    })
  })

  it('enables refinement zones, air drag and the periodic boundary until one exists', () => {
    expect(reasons(EDITABLE)).toMatchObject({ refinement: null, air_drag: null, periodic: null })
    expect(reasons({ ...EDITABLE, periodicExists: true }).periodic).toBe(
      ADD_DISABLED_REASONS.periodicExists,
    )
  })

  it('disables refinement zones and air drag with multiphase on', () => {
    const multiphase = { ...EDITABLE, settings: { multiphase: true, airDrag: false } }
    expect(reasons(multiphase).refinement).toBe(SETTINGS_MESSAGES.multiphaseRefinement)
    expect(reasons(multiphase).air_drag).toBe(SETTINGS_MESSAGES.multiphaseAirDrag)
  })

  it('disables air drag when it is already active', () => {
    const active = { ...EDITABLE, settings: { multiphase: false, airDrag: true } }
    expect(reasons(active).air_drag).toBe(ADD_DISABLED_REASONS.airDragActive)
  })

  it('disables the domain boundary when a calculation domain exists', () => {
    expect(reasons({ ...EDITABLE, calcDomainActive: true }).domain_boundary).toBe(
      ADD_DISABLED_REASONS.domainBoundaryExists,
    )
  })

  it('disables sensors and volume clips while the simulation runs or is scheduled', () => {
    for (const state of ['running', 'scheduled'] as const) {
      const r = reasons({ ...EDITABLE, state })
      expect(r.sensor).toBe(SENSORS_LOCKED_MESSAGE)
      expect(r.volume_clip).toBe(SENSORS_LOCKED_MESSAGE)
      expect(r.solid).toBeNull()
    }
    expect(reasons({ ...EDITABLE, state: 'completed' }).sensor).toBeNull()
  })

  it('disables every addition of a locked setup with the Edit Setup hint, but not Physics and Settings', () => {
    const locked = reasons({
      ...EDITABLE,
      setup: { editable: false, reason: SETUP_MESSAGES.lockedHint },
    })
    for (const key of [
      'solid',
      'fluid',
      'inlet_outlet',
      'refinement',
      'sensor',
      'volume_clip',
      'domain_boundary',
      'air_drag',
      'periodic',
    ])
      expect(locked[key]).toBe(SETUP_MESSAGES.lockedHint)
    expect(locked.physics).toBeNull()
    expect(locked.settings).toBeNull()
  })

  it('opens the addPart form with the component of Solid, Fluid and Inlet Outlet', () => {
    expect(formOfAddEntry('solid')).toEqual({ kind: 'addPart', component: 'rigid' })
    expect(formOfAddEntry('fluid')).toEqual({ kind: 'addPart', component: 'filling' })
    expect(formOfAddEntry('inlet_outlet')).toEqual({ kind: 'addPart', component: 'openboundary' })
    expect(formOfAddEntry('physics')).toEqual({ kind: 'physics' })
    expect(formOfAddEntry('settings')).toEqual({ kind: 'settings' })
    expect(formOfAddEntry('sensor')).toBeNull()
  })
})

const state = (parts: Parameters<typeof folderStates>[0]) =>
  Object.fromEntries(folderStates(parts).map((f) => [f.folder, f.reason]))

describe('part folders', () => {
  const tank = makePart(1, 'Tank', 'rigid')
  const water = makePart(2, 'Water', 'filling')
  const inlet = makePart(3, 'Inlet', 'openboundary')

  it('opens every folder that fits a single solid, except Material', () => {
    expect(state([tank])).toEqual({
      geometry: null,
      material: MATERIAL_FLUIDS_ONLY,
      boundary_conditions: null,
      initial_conditions: null,
      motion: null,
      appearance: null,
      information: null,
    })
  })

  it('opens Material for fluids and inlets/outlets; Boundary Conditions not for fluids', () => {
    expect(state([water]).material).toBeNull()
    expect(state([inlet]).material).toBeNull()
    expect(state([water]).boundary_conditions).toBe(BOUNDARY_CONDITIONS_ONLY)
    expect(state([inlet]).boundary_conditions).toBeNull()
  })

  it('disables Motion and Information for a multi-selection', () => {
    const many = state([tank, makePart(4, 'Lid', 'rigid')])
    expect(many.motion).toBe(SINGLE_PART_ONLY)
    expect(many.information).toBe(SINGLE_PART_ONLY)
    expect(many.geometry).toBeNull()
    expect(many.boundary_conditions).toBeNull()
    expect(state([tank, inlet]).boundary_conditions).toBe(BOUNDARY_CONDITIONS_ONLY)
    expect(state([water, inlet]).material).toBeNull()
  })

  it('disables Geometry and Appearance for a point cloud part, Initial Conditions with a preset', () => {
    const cloud = makePart(5, 'Cloud', 'filling', {
      shape: {
        type: 'pointcloud',
        translation: [0, 0, 0],
        rotation: [0, 0, 0],
        scale: [1, 1, 1],
        flipNormals: false,
        refSimulationId: 3,
        refSimulationOutput: 10,
        splittingRatio: 1,
        info: null,
      },
    })
    expect(state([cloud]).geometry).toBe(POINTCLOUD_NOT_EDITABLE)
    expect(state([cloud]).appearance).toBe(POINTCLOUD_NOT_EDITABLE)
    const preset = makePart(6, 'Preset', 'filling', {
      component: { ...water.component, initialPreset: 'hydrostatic' },
    })
    expect(state([preset]).initial_conditions).toBe(INITIAL_PRESET_SET)
  })
})

describe('a new deletion boundary', () => {
  it('surrounds the parts with a tenth of their largest extent, rounded outwards to the millimetre', () => {
    const box = domainBoxAround([
      makePart(1, 'Tank', 'rigid', {}, [0.5, 0.5, 0.5]),
      makePart(2, 'Water', 'filling', {}, [1.5, 0.5, 0.5]),
    ])
    // Parts span x 0…2, y 0…1, z 0…1; margin 0.2 m.
    expect(box).toEqual({ min: [-0.2, -0.2, -0.2], max: [2.2, 1.2, 1.2] })
  })

  it('starts from the default box when no part has a size yet', () => {
    expect(domainBoxAround([])).toEqual(DEFAULT_DOMAIN_BOX)
  })
})
