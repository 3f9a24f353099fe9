import { describe, expect, it } from 'vitest'
import { createDefaultMaterial } from './materials.ts'
import { PART_WITHOUT_FILES, defaultAppearance, defaultComponent, type Part } from './parts.ts'
import { defaultSettings, type SimulationSettings } from './settings.ts'
import {
  DEFAULT_OUTPUT_COUNT,
  SETTINGS_ADJUSTMENTS,
  SETTINGS_MESSAGES,
  applyMultiphase,
  applySurfaceTension,
  canAddDomainBoundary,
  canAddRefinement,
  canEnableAirDrag,
  canEnableSurfaceTension,
  checkCalcDomain,
  checkOutputCountInput,
  checkSettings,
  checkSettingsCoupling,
  defaultOutputCount,
  densityThresholdToPercent,
  isAccelerationFileAccepted,
  isParticleDiameterEditable,
  multiphaseBlockers,
  outputCount,
  outputIntervalFromCount,
  percentToDensityThreshold,
} from './settingsRules.ts'
import type { Issue } from './validation.ts'

/** Default settings with the deletion boundary on, so only the rule under test reports. */
function settings(patch: Partial<SimulationSettings> = {}): SimulationSettings {
  return { ...defaultSettings(), calcDomainActive: true, ...patch }
}
const at = (issues: Issue[], field: string) => issues.filter((i) => i.field === field)

function part(id: number, patch: Partial<Part> = {}): Part {
  return {
    id,
    simulationId: 1,
    name: `Part ${id}`,
    kind: 'fluid',
    createdAt: '',
    updatedAt: '',
    createdBy: null,
    organizationId: null,
    seedPoint: null,
    materialId: 1,
    component: defaultComponent('filling'),
    appearance: defaultAppearance(0),
    shape: {
      type: 'stl_cube',
      translation: [0, 0, 0],
      scale: [1, 1, 1],
      rotation: [0, 0, 0],
      flipNormals: false,
      dimensions: [1, 1, 1],
      info: null,
    },
    hasWarnings: false,
    warnings: [],
    ...PART_WITHOUT_FILES,
    ...patch,
  }
}

describe('checkSettings', () => {
  it('accepts the default settings with a deletion boundary', () => {
    expect(checkSettings(settings())).toEqual([])
  })

  it('reports an empty particle diameter as preliminary info', () => {
    expect(
      at(checkSettings(settings({ particleDiameter: null })), 'settings.particleDiameter'),
    ).toEqual([
      {
        level: 'info',
        field: 'settings.particleDiameter',
        message: 'Particle diameter is required',
      },
    ])
  })

  it('needs a particle diameter above 0 in the standard profile', () => {
    expect(
      at(checkSettings(settings({ particleDiameter: 0 })), 'settings.particleDiameter')[0],
    ).toMatchObject({
      level: 'error',
      message: 'Particle diameter must be greater than 0.',
    })
    expect(
      at(checkSettings(settings({ particleDiameter: 20 })), 'settings.particleDiameter'),
    ).toEqual([])
  })

  it('bounds the particle diameter to 1e-5 … 10 in the strict profile', () => {
    const check = (d: number) =>
      at(
        checkSettings(settings({ particleDiameter: d }), { profile: 'strict' }),
        'settings.particleDiameter',
      )
    expect(check(1e-5)).toEqual([])
    expect(check(10)).toEqual([])
    expect(check(9e-6)[0]?.message).toBe('Particle diameter must be at least 0.00001.')
    expect(check(10.01)[0]?.message).toBe('Particle diameter must be at most 10.')
  })

  it('skips the particle diameter while a pointcloud part fixes it', () => {
    expect(
      checkSettings(settings({ particleDiameter: null }), { hasPointcloudPart: true }),
    ).toEqual([])
  })

  it('needs an end time and output interval above 0', () => {
    const issues = checkSettings(settings({ endTime: 0, outputTimeInterval: -1 }))
    expect(at(issues, 'settings.endTime')[0]?.message).toBe('End time must be greater than 0.')
    expect(at(issues, 'settings.outputTimeInterval')[0]?.message).toBe(
      'Output time interval must be greater than 0.',
    )
  })

  it('bounds the output count to 5 … 10000 in the standard profile', () => {
    const check = (endTime: number, interval: number) =>
      at(
        checkSettings(settings({ endTime, outputTimeInterval: interval })),
        'settings.outputTimeInterval',
      )
    expect(check(1, 0.2)).toEqual([])
    expect(check(1, 0.0001)).toEqual([])
    expect(check(1, 0.25)).toEqual([
      {
        level: 'error',
        field: 'settings.outputTimeInterval',
        message: 'Total output number must be more than 5. Now is 4.',
      },
    ])
    expect(check(2, 0.0001)[0]?.message).toBe(
      'Total output number must be less than 10000. Now is 20000.',
    )
  })

  it('bounds the output count to 50 … 5000 in the strict profile', () => {
    const check = (endTime: number, interval: number) =>
      at(
        checkSettings(settings({ endTime, outputTimeInterval: interval }), { profile: 'strict' }),
        'settings.outputTimeInterval',
      )
    expect(check(1, 0.02)).toEqual([])
    expect(check(1, 0.0002)).toEqual([])
    expect(check(1, 0.025)[0]?.message).toBe('Total output number must be more than 50. Now is 40.')
    expect(check(1, 0.0001)[0]?.message).toBe(
      'Total output number must be less than 5000. Now is 10000.',
    )
  })

  it('bounds gravity components to ±1000, or ±300 in the strict profile', () => {
    expect(checkSettings(settings({ gravity: [0, 1000, -1000] }))).toEqual([])
    expect(
      at(checkSettings(settings({ gravity: [0, 0, -1000.5] })), 'settings.gravity.2')[0]?.message,
    ).toBe('Gravity must be at least -1000.')
    expect(
      at(
        checkSettings(settings({ gravity: [301, 0, 0] }), { profile: 'strict' }),
        'settings.gravity.0',
      )[0]?.message,
    ).toBe('Gravity must be at most 300.')
    expect(
      at(checkSettings(settings({ gravity: [0, null, 0] })), 'settings.gravity')[0],
    ).toMatchObject({
      level: 'info',
      message: 'This field requires a valid number.',
    })
  })

  it('requires shifting with surface tension', () => {
    const issues = checkSettings(settings({ surfaceTension: true, shifting: 'zero', sigma: 0.072 }))
    expect(issues).toEqual([
      {
        level: 'error',
        field: 'settings.shifting',
        message: 'When using surface tension, shifting must be enabled!',
      },
    ])
  })

  it('bounds sigma with surface tension only, per profile', () => {
    const check = (sigma: number | null, profile: 'standard' | 'strict' = 'standard') =>
      at(checkSettings(settings({ surfaceTension: true, sigma }), { profile }), 'settings.sigma')
    expect(check(0.0001)).toEqual([])
    expect(check(10)).toEqual([])
    expect(check(0.00009)[0]?.message).toBe('Sigma must be at least 0.0001.')
    expect(check(0.0009, 'strict')[0]?.message).toBe('Sigma must be at least 0.001.')
    expect(check(1.1, 'strict')[0]?.message).toBe('Sigma must be at most 1.')
    expect(check(null)[0]?.level).toBe('info')
    expect(checkSettings(settings({ surfaceTension: false, sigma: null }))).toEqual([])
  })

  it('checks the density threshold as percent 1 … 100 only with the limiter on', () => {
    const check = (fraction: number | null, densityLimiter = true) =>
      at(
        checkSettings(settings({ densityLimiter, densityThreshold: fraction })),
        'settings.densityThreshold',
      )
    expect(check(0.01)).toEqual([])
    expect(check(1)).toEqual([])
    expect(check(0.005)[0]?.message).toBe('Density threshold must be at least 1.')
    expect(check(1.01)[0]?.message).toBe('Density threshold must be at most 100.')
    expect(check(null)[0]?.level).toBe('info')
    expect(check(5, false)).toEqual([])
  })

  it('bounds the ambient temperature with thermodynamics, per profile', () => {
    const check = (t: number | null, profile: 'standard' | 'strict' = 'standard') =>
      at(
        checkSettings(settings({ thermodynamics: true, ambientTemperature: t }), { profile }),
        'settings.ambientTemperature',
      )
    expect(check(0)[0]?.message).toBe('Ambient temperature must be greater than 0.')
    expect(check(2000)).toEqual([])
    expect(check(2001)[0]?.message).toBe('Ambient temperature must be at most 2000.')
    expect(check(99, 'strict')[0]?.message).toBe('Ambient temperature must be at least 100.')
    expect(check(600, 'strict')).toEqual([])
    expect(check(601, 'strict')[0]?.message).toBe('Ambient temperature must be at most 600.')
    expect(checkSettings(settings({ thermodynamics: false, ambientTemperature: null }))).toEqual([])
  })

  it('needs velocity, a non-zero axis and a centre for a rotating system', () => {
    const issues = checkSettings(
      settings({
        rotatingSystem: true,
        rotationVelocity: null,
        rotationAxis: [0, 0, 0],
        rotationCenter: null,
      }),
    )
    expect(issues).toEqual([
      {
        level: 'info',
        field: 'settings.rotationVelocity',
        message: 'Rotation velocity is required',
      },
      {
        level: 'error',
        field: 'settings.rotationAxis',
        message: 'Rotation axis length cannot be equal to 0',
      },
      { level: 'info', field: 'settings.rotationCenter', message: 'Rotation center is required' },
    ])
    expect(
      checkSettings(
        settings({
          rotatingSystem: true,
          rotationVelocity: 2,
          rotationAxis: [0, 0, 1],
          rotationCenter: [0, 0, 0],
        }),
      ),
    ).toEqual([])
  })

  it('accepts only csv acceleration files', () => {
    expect(isAccelerationFileAccepted('motion.CSV')).toBe(true)
    expect(isAccelerationFileAccepted('motion.xlsx')).toBe(false)
    const issues = checkSettings(
      settings({ accelerationFile: { id: 3, name: 'a.txt' }, accelerationFileId: 3 }),
    )
    expect(issues).toEqual([
      {
        level: 'error',
        field: 'settings.accelerationFile',
        message: SETTINGS_MESSAGES.accelerationFileCsv,
      },
    ])
  })

  it('warns to add a deletion boundary while none is active', () => {
    expect(checkSettings(settings({ calcDomainActive: false }))).toEqual([
      {
        level: 'warning',
        field: 'settings.calcDomainActive',
        message: 'Add a deletion boundary to save on cost.',
      },
    ])
  })

  it('needs the deletion boundary minimum below its maximum', () => {
    expect(
      checkCalcDomain({
        calcDomainActive: true,
        calcDomainMin: [0, 0, 1],
        calcDomainMax: [1, 1, 1],
      })[0]?.message,
    ).toBe(SETTINGS_MESSAGES.calcDomainOrder)
  })
})

describe('output count helpers', () => {
  it('counts outputs without floating-point noise', () => {
    expect(outputCount({ endTime: 1, outputTimeInterval: 0.02 })).toBe(50)
    expect(outputCount({ endTime: 0.3, outputTimeInterval: 0.1 })).toBe(3)
    expect(outputCount({ endTime: null, outputTimeInterval: 0.1 })).toBeNull()
  })

  it('falls back to 200 outputs without end time or interval', () => {
    expect(defaultOutputCount({ endTime: 2, outputTimeInterval: 0.01 })).toBe(200)
    expect(defaultOutputCount({ endTime: 1, outputTimeInterval: 0.1 })).toBe(10)
    expect(defaultOutputCount({ endTime: null, outputTimeInterval: 0.1 })).toBe(
      DEFAULT_OUTPUT_COUNT,
    )
    expect(defaultOutputCount({ endTime: 1, outputTimeInterval: 0 })).toBe(DEFAULT_OUTPUT_COUNT)
  })

  it('asks for an end time before an output count', () => {
    expect(checkOutputCountInput(null, 100)).toEqual([
      { level: 'info', field: 'settings.outputCount', message: 'Set an end time first' },
    ])
    expect(checkOutputCountInput(1, 100)).toEqual([])
    expect(checkOutputCountInput(1, 4)[0]?.message).toBe(
      'Total output number must be more than 5. Now is 4.',
    )
    expect(checkOutputCountInput(1, 10.5)[0]?.message).toBe('Output count must be an integer.')
    expect(outputIntervalFromCount(2, 100)).toBe(0.02)
    expect(outputIntervalFromCount(null, 100)).toBeNull()
  })

  it('converts the density threshold between fraction and percent', () => {
    expect(densityThresholdToPercent(0.3)).toBe(30)
    expect(percentToDensityThreshold(30)).toBe(0.3)
  })
})

describe('checkSettingsCoupling', () => {
  const coupling = { materialCount: 2, refinementCount: 0 }

  it('refuses multiphase with refinements', () => {
    expect(
      checkSettingsCoupling(settings({ multiphase: true }), { ...coupling, refinementCount: 1 }),
    ).toEqual([
      {
        level: 'error',
        field: 'settings.multiphase',
        message: 'Multiphase cannot be used in combination with refinement.',
      },
    ])
    expect(checkSettingsCoupling(settings(), { ...coupling, refinementCount: 1 })).toEqual([])
  })

  it('refuses multiphase with air drag', () => {
    expect(
      checkSettingsCoupling(settings({ multiphase: true, airDrag: true }), coupling)[0]?.message,
    ).toBe(SETTINGS_MESSAGES.multiphaseAirDrag)
  })

  it('allows up to 5 materials with multiphase', () => {
    expect(
      checkSettingsCoupling(settings({ multiphase: true }), { ...coupling, materialCount: 5 }),
    ).toEqual([])
    expect(
      checkSettingsCoupling(settings({ multiphase: true }), { ...coupling, materialCount: 6 })[0]
        ?.message,
    ).toBe('Multiphase supports up to 5 materials.')
  })

  it('allows surface tension with up to 2 materials under multiphase', () => {
    const on = settings({ multiphase: true, surfaceTension: true })
    expect(checkSettingsCoupling(on, coupling)).toEqual([])
    expect(checkSettingsCoupling(on, { ...coupling, materialCount: 3 })).toEqual([
      {
        level: 'error',
        field: 'settings.surfaceTension',
        message: 'Surface tension supports up to 2 materials.',
      },
    ])
    expect(canEnableSurfaceTension(on, 3)).toBe(false)
    expect(canEnableSurfaceTension(settings(), 3)).toBe(true)
  })
})

describe('switch availability', () => {
  it('lists why multiphase cannot be switched on', () => {
    const heatFlux = part(1, {
      component: {
        ...(defaultComponent('rigid') as Extract<Part['component'], { type: 'rigid' }>),
        thermoKind: 'heat_flux',
      },
    })
    expect(multiphaseBlockers(settings(), { refinementCount: 0, parts: [heatFlux] })).toEqual([])
    expect(
      multiphaseBlockers(settings({ thermodynamics: true, airDrag: true }), {
        refinementCount: 2,
        parts: [heatFlux],
      }),
    ).toEqual([
      SETTINGS_MESSAGES.multiphaseRefinement,
      SETTINGS_MESSAGES.multiphaseAirDrag,
      SETTINGS_MESSAGES.multiphaseHeatBoundary,
    ])
  })

  it('disables air drag, refinements and the domain boundary as the spec says', () => {
    expect(canEnableAirDrag(settings({ multiphase: true }))).toBe(false)
    expect(canEnableAirDrag(settings({ airDrag: true }))).toBe(false)
    expect(canEnableAirDrag(settings())).toBe(true)
    expect(canAddRefinement(settings({ multiphase: true }))).toBe(false)
    expect(canAddDomainBoundary(settings({ calcDomainActive: true }))).toBe(false)
    expect(canAddDomainBoundary(settings({ calcDomainActive: false }))).toBe(true)
    expect(isParticleDiameterEditable([part(1)])).toBe(true)
    expect(
      isParticleDiameterEditable([
        part(1, {
          shape: {
            type: 'pointcloud',
            translation: [0, 0, 0],
            scale: [1, 1, 1],
            rotation: [0, 0, 0],
            flipNormals: false,
            refSimulationId: 1,
            refSimulationOutput: 0,
            splittingRatio: 1,
            info: null,
          },
        }),
      ]),
    ).toBe(false)
  })
})

describe('applyMultiphase', () => {
  const options = { simulationId: 1, nowIso: '2026-01-01T00:00:00Z' }
  const water = createDefaultMaterial(0, 1, options.nowIso)

  it('switches on: adjusts advanced settings, creates a second material, resets part materials', () => {
    const before = settings({ dynamicTimeStep: false, densityLimiter: true, noRiemannWall: false })
    const rigid = part(2, { component: defaultComponent('rigid'), materialId: null })
    const result = applyMultiphase(
      true,
      before,
      [water],
      [part(1, { materialId: 3 }), rigid],
      options,
    )
    expect(result.settings).toMatchObject({
      multiphase: true,
      dynamicTimeStep: true,
      densityLimiter: false,
      noRiemannWall: true,
    })
    expect(result.adjustments).toEqual([
      SETTINGS_ADJUSTMENTS.densityLimiterDisabled,
      SETTINGS_ADJUSTMENTS.staticTimestepDisabled,
      SETTINGS_ADJUSTMENTS.improvedWallPressureEnabled,
    ])
    expect(result.createdMaterials.map((m) => [m.id, m.name])).toEqual([[1, 'Fluid 2']])
    expect(result.materials.map((m) => m.id)).toEqual([0, 1])
    expect(result.parts.map((p) => p.materialId)).toEqual([0, null])
  })

  it('creates two materials when none exist and lists only settings that changed', () => {
    const before = settings({ dynamicTimeStep: true, densityLimiter: false, noRiemannWall: true })
    const result = applyMultiphase(true, before, [], [], options)
    expect(result.createdMaterials.map((m) => m.name)).toEqual(['Fluid 1', 'Fluid 2'])
    expect(result.adjustments).toEqual([])
  })

  it('keeps existing materials when there are already two or more', () => {
    const second = createDefaultMaterial(1, 1, options.nowIso)
    expect(
      applyMultiphase(true, settings(), [water, second], [], options).createdMaterials,
    ).toEqual([])
  })

  it('switches off: re-enables the density limiter and uses material 0 only', () => {
    const before = settings({ multiphase: true, densityLimiter: false, densityThreshold: null })
    const result = applyMultiphase(false, before, [water], [part(1, { materialId: 1 })], options)
    expect(result.settings).toMatchObject({
      multiphase: false,
      densityLimiter: true,
      densityThreshold: 0.3,
    })
    expect(result.adjustments).toEqual([SETTINGS_ADJUSTMENTS.densityLimiterEnabled])
    expect(result.parts[0]?.materialId).toBe(0)
    expect(result.createdMaterials).toEqual([])
  })
})

describe('applySurfaceTension', () => {
  it('forces shifting to lyu21 when switched on', () => {
    expect(applySurfaceTension(true, settings({ shifting: 'zero' }))).toMatchObject({
      surfaceTension: true,
      shifting: 'lyu21',
    })
    expect(
      applySurfaceTension(false, settings({ shifting: 'sun17', surfaceTension: true })),
    ).toMatchObject({
      surfaceTension: false,
      shifting: 'sun17',
    })
  })
})
