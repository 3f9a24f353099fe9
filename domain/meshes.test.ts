import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  MESH_KINDS,
  MeshBodySchema,
  MeshSchema,
  RefinementCreateSchema,
  RefinementSchema,
  SensorCreateSchema,
  VolumeClipCreateSchema,
  checkMesh,
  checkRefinement,
  checkSensor,
  defaultMesh,
  type Mesh,
} from './meshes.ts'
import { defaultAppearance } from './parts.ts'

const messages = (mesh: Parameters<typeof checkMesh>[0], options = {}) =>
  checkMesh(mesh, 'mesh', options).map((i) => i.message)

describe('mesh schemas', () => {
  it('parses every default mesh and accepts it back as a body without id and computed fields', () => {
    for (const kind of MESH_KINDS) {
      const mesh = defaultMesh(kind, 3)
      expect(v.safeParse(MeshSchema, mesh).success).toBe(true)
      expect(mesh.meshUrl).toBeNull()
      expect(v.safeParse(MeshBodySchema, mesh).success).toBe(false)
      const { id: _id, nbrOfTriangles: _n, meshUrl: _u, ...body } = mesh
      expect(v.safeParse(MeshBodySchema, body).success).toBe(true)
    }
  })

  it('refuses fields of another kind and unknown kinds in bodies', () => {
    expect(v.safeParse(MeshBodySchema, { kind: 'sphere', radius: 2 }).success).toBe(true)
    expect(v.safeParse(MeshBodySchema, { kind: 'sphere', width: 2 }).success).toBe(false)
    expect(v.safeParse(MeshBodySchema, { kind: 'torus' }).success).toBe(false)
  })

  it('defaults a refinement to kind chiron and level 0.3', () => {
    const body = v.parse(RefinementCreateSchema, { name: 'Zone', meshId: 4 })
    expect(body).toMatchObject({ kind: 'chiron', level: 0.3 })
    const read = v.parse(RefinementSchema, {
      id: 1,
      name: 'Zone',
      mesh: defaultMesh('cube'),
      appearance: defaultAppearance(0),
    })
    expect(read.level).toBe(0.3)
  })

  it('needs non-negative integer sensor outputs and a known sensor kind', () => {
    expect(
      v.safeParse(SensorCreateSchema, {
        name: 'P1',
        kind: 'point',
        position: [0, 0, 0],
        outputs: [0, 3],
      }).success,
    ).toBe(true)
    expect(
      v.safeParse(SensorCreateSchema, {
        name: 'P1',
        kind: 'point',
        position: [0, 0, 0],
        outputs: [-1],
      }).success,
    ).toBe(false)
    expect(
      v.safeParse(SensorCreateSchema, { name: 'S1', kind: 'surface', meshId: 2 }).success,
    ).toBe(true)
    expect(v.safeParse(SensorCreateSchema, { name: 'S1', kind: 'line', meshId: 2 }).success).toBe(
      false,
    )
  })

  it('creates a volume clip that is not inverted and clips all materials by default', () => {
    expect(v.parse(VolumeClipCreateSchema, { name: 'Clip', meshId: 1 })).toMatchObject({
      inverted: false,
      materialId: null,
    })
  })
})

describe('checkMesh', () => {
  it('accepts every default mesh but the complex one, which needs a file', () => {
    for (const kind of MESH_KINDS.filter((k) => k !== 'complex'))
      expect(messages(defaultMesh(kind))).toEqual([])
    expect(checkMesh(defaultMesh('complex'))[0]?.level).toBe('info')
  })

  it('needs radius, width, length, height and dimensions above 0', () => {
    expect(messages({ ...defaultMesh('sphere'), radius: 0 } as Mesh)).toEqual([
      'Radius must be greater than 0.',
    ])
    expect(messages({ ...defaultMesh('cylinder'), height: 0 } as Mesh)).toEqual([
      'Height must be greater than 0.',
    ])
    expect(messages({ ...defaultMesh('rectangle'), width: -1 } as Mesh)).toEqual([
      'Width must be greater than 0.',
    ])
    expect(messages({ ...defaultMesh('plane'), length: 0 } as Mesh)).toEqual([
      'Length must be greater than 0.',
    ])
    expect(messages({ ...defaultMesh('cube'), dimensions: [1, 0, 1] } as Mesh)).toEqual([
      'Dimensions must be greater than 0.',
    ])
  })

  it('accepts zero dimensions in the form that allows them', () => {
    const flat = { ...defaultMesh('cube'), dimensions: [1, 0, 1] } as Mesh
    expect(messages(flat, { allowZeroDimensions: true })).toEqual([])
    expect(
      messages({ ...flat, dimensions: [1, -1, 1] } as Mesh, { allowZeroDimensions: true }),
    ).toEqual(['Dimensions must be at least 0.'])
  })

  it('needs integer resolutions above 0', () => {
    expect(messages({ ...defaultMesh('circle'), circleResolution: 0 } as Mesh)).toEqual([
      'Resolution must be greater than 0.',
    ])
    expect(messages({ ...defaultMesh('sphere'), sphereResolution: 2.5 } as Mesh)).toEqual([
      'Resolution must be an integer.',
    ])
  })

  it('needs non-zero normals and axes', () => {
    expect(checkMesh({ ...defaultMesh('cylinder'), axis: [0, 0, 0] } as Mesh)).toEqual([
      { level: 'error', field: 'mesh.axis', message: 'Axis length cannot be equal to 0' },
    ])
    expect(messages({ ...defaultMesh('circle'), normal: [0, 0, 0] } as Mesh)).toEqual([
      'Normal length cannot be equal to 0',
    ])
  })

  it('checks only the fields present in an update body', () => {
    expect(messages({ kind: 'sphere', radius: 1 })).toEqual([])
    expect(messages({ kind: 'sphere', radius: 0 })).toEqual(['Radius must be greater than 0.'])
  })
})

describe('refinements and sensors', () => {
  it('checks a refinement mesh, appearance and level', () => {
    const zone = {
      id: 1,
      name: 'Z',
      mesh: defaultMesh('cube'),
      appearance: { ...defaultAppearance(0), opacity: 2 },
      kind: 'chiron' as const,
      level: 0,
    }
    expect(checkRefinement(zone, 'refinements.1').map((i) => i.field)).toEqual([
      'refinements.1.appearance.opacity',
      'refinements.1.level',
    ])
  })

  it('needs a valid point sensor position', () => {
    const sensor = {
      id: 1,
      name: 'P',
      kind: 'point' as const,
      appearance: { visibility: true },
      outputs: [],
      position: [0, null, 0] as [number, null, number],
    }
    expect(checkSensor(sensor).map((i) => i.message)).toEqual([
      'This field requires a valid number.',
    ])
  })
})
