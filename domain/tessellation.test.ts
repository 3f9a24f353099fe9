import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  AssemblyPartCreateSchema,
  AssemblyPartUpdateSchema,
  AssemblySchema,
  canImportNodes,
  canMergeImportNodes,
  canStartTessellation,
  checkMeshingParameters,
  configurationFileName,
  defaultMeshingParameters,
  duplicateComponentMessages,
  type AssemblyNode,
} from './tessellation.ts'

const messages = (patch: Partial<ReturnType<typeof defaultMeshingParameters>>) =>
  checkMeshingParameters({ ...defaultMeshingParameters(), ...patch }).map((i) => i.message)

describe('meshing parameters', () => {
  it('defaults to factor 1, 15° and no Delabella', () => {
    expect(defaultMeshingParameters()).toEqual({
      linearDeflectionFactor: 1,
      angularDeflection: 15,
      useDelabellaAlgorithm: false,
    })
    expect(messages({})).toEqual([])
  })

  it('bounds the linear deflection factor to 0.1 … 10', () => {
    expect(messages({ linearDeflectionFactor: 0.1 })).toEqual([])
    expect(messages({ linearDeflectionFactor: 10 })).toEqual([])
    expect(messages({ linearDeflectionFactor: 0.09 })).toEqual([
      'Linear deflection factor must be at least 0.1.',
    ])
    expect(messages({ linearDeflectionFactor: 10.1 })).toEqual([
      'Linear deflection factor must be at most 10.',
    ])
  })

  it('bounds the angular deflection to whole degrees 1 … 90', () => {
    expect(messages({ angularDeflection: 90 })).toEqual([])
    expect(messages({ angularDeflection: 0 })).toEqual(['Angular deflection must be at least 1.'])
    expect(messages({ angularDeflection: 91 })).toEqual(['Angular deflection must be at most 90.'])
    expect(messages({ angularDeflection: 15.5 })).toEqual([
      'Angular deflection must be an integer.',
    ])
  })
})

describe('assembly schemas', () => {
  it('parses an assembly with a nested import tree', () => {
    const assembly = {
      id: 1,
      filename: 'pump.step',
      state: 'done',
      assemblyMetadata: [
        {
          entryId: '0:1',
          labelName: 'Pump',
          children: [{ entryId: '0:1:1', labelName: 'Rotor', children: [] }],
        },
      ],
      latestTessellationRunId: null,
      tessellationWarnings: [{ message: 'm', errorCode: 'e', parts: ['Rotor'] }],
      tessellationErrors: [],
      createdAt: '2026-01-01',
    }
    expect(v.safeParse(AssemblySchema, assembly).success).toBe(true)
    expect(v.safeParse(AssemblySchema, { ...assembly, state: 'sleeping' }).success).toBe(false)
  })

  it('makes new assembly parts rigid and refuses unknown fields', () => {
    expect(
      v.parse(AssemblyPartCreateSchema, { name: 'Rotor', assemblyNodeIds: ['0:1:1'] })
        .componentType,
    ).toBe('rigid')
    expect(
      v.safeParse(AssemblyPartCreateSchema, { name: 'Rotor', assemblyNodeIds: [] }).success,
    ).toBe(false)
    expect(v.safeParse(AssemblyPartUpdateSchema, { id: 1, colour: 'red' }).success).toBe(false)
  })
})

describe('wizard helpers', () => {
  it('needs 1 checked node to import and 2 to merge', () => {
    expect(canImportNodes(0)).toBe(false)
    expect(canImportNodes(1)).toBe(true)
    expect(canMergeImportNodes(1)).toBe(false)
    expect(canMergeImportNodes(2)).toBe(true)
  })

  it('starts a tessellation only with a valid form and a part that needs it', () => {
    const params = defaultMeshingParameters()
    expect(canStartTessellation(params, [{ needsTessellation: true }])).toBe(true)
    expect(canStartTessellation(params, [{ needsTessellation: false }])).toBe(false)
    expect(
      canStartTessellation({ ...params, angularDeflection: 0 }, [{ needsTessellation: true }]),
    ).toBe(false)
  })

  it("names the exported configuration after the file plus '-config.json'", () => {
    expect(configurationFileName('pump.step')).toBe('pump-config.json')
    expect(configurationFileName('pump')).toBe('pump-config.json')
  })
})

describe('duplicateComponentMessages', () => {
  const tree: AssemblyNode[] = [
    {
      entryId: 'a',
      labelName: 'Pump',
      children: [{ entryId: 'b', labelName: 'Bolt', children: [] }],
    },
  ]

  it('names a component used in several parts, with part and occurrence counts', () => {
    const parts = [
      { id: 1, assemblyNodeIds: ['a', 'b'] },
      { id: 2, assemblyNodeIds: ['b', 'b'] },
    ]
    expect(duplicateComponentMessages(parts, tree)).toEqual([
      'Component "Bolt" appears in 2 part(s) (3 occurrence(s) in total).',
    ])
  })

  it('falls back to the part node names, then the id, and stays quiet without duplicates', () => {
    expect(
      duplicateComponentMessages([
        { id: 1, assemblyNodeIds: ['x', 'x'], assemblyNodeNames: ['Nut', 'Nut'] },
      ]),
    ).toEqual(['Component "Nut" appears in 1 part(s) (2 occurrence(s) in total).'])
    expect(
      duplicateComponentMessages([
        { id: 1, assemblyNodeIds: ['y'] },
        { id: 2, assemblyNodeIds: ['y'] },
      ])[0],
    ).toContain('"y"')
    expect(duplicateComponentMessages([{ id: 1, assemblyNodeIds: ['a'] }], tree)).toEqual([])
  })
})
