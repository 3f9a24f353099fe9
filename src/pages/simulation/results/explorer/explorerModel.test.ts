import { describe, expect, it } from 'vitest'
import { defaultMesh } from '../../../../../domain/meshes.ts'
import type { OutputManifestInfo } from '../../../../../domain/rest/resultsRoutes.ts'
import { VOLUME_CLIP_INFO } from '../../../../../domain/results.ts'
import {
  NAME_TAKEN_MESSAGE,
  checkSensorDraft,
  checkVolumeClipDraft,
  defaultMeshDraft,
  fieldMessage,
  groupOutputObjects,
  meshBodyOf,
  meshDraftOf,
  newSensorDraft,
  newVolumeClipDraft,
  nextFreeName,
  volumeClipItemMessage,
  volumeClipItemState,
} from './explorerModel.ts'

const object = (
  objectId: string,
  kind: 'fluid' | 'wall_boundary' | 'open_boundary' | 'volume_clip',
  name: string,
  sourceId: number,
) => ({
  objectId,
  kind,
  name,
  sourceId,
  columns: [],
  particleCount: { full: 1, fast: 1 },
  triangleCount: 0,
  sizeBytes: { full: 1, fast: 1 },
})

describe('groupOutputObjects', () => {
  it('lists fluids per material, walls and open boundaries, and leaves masks out', () => {
    const manifest: OutputManifestInfo = {
      formatVersion: '1.0',
      simulationId: 1,
      runId: 1,
      outputNo: 0,
      timeS: 0,
      objects: [
        object('fluid-0', 'fluid', 'Water', 0),
        object('fluid-1', 'fluid', 'Oil', 1),
        object('wall-3', 'wall_boundary', 'Tank', 3),
        object('outlet-4', 'open_boundary', 'Outlet', 4),
        object('clip-1@fluid-0', 'volume_clip', 'Clip', 0),
      ],
    }
    const groups = groupOutputObjects(manifest)
    expect(groups.fluids.map((fluid) => fluid.name)).toEqual(['Water', 'Oil'])
    expect(groups.walls).toEqual([{ objectId: 'wall-3', name: 'Tank', sourceId: 3 }])
    expect(groups.openBoundaries.map((boundary) => boundary.objectId)).toEqual(['outlet-4'])
    expect(groupOutputObjects(undefined)).toEqual({ fluids: [], walls: [], openBoundaries: [] })
  })
})

describe('volume clip item state', () => {
  it('is missing until the mask is known, loading while it loads, empty with no particle inside', () => {
    expect(volumeClipItemState(undefined)).toBe('missing')
    expect(volumeClipItemState({ status: 'missing' })).toBe('missing')
    expect(volumeClipItemState({ status: 'loading' })).toBe('loading')
    expect(volumeClipItemState({ status: 'ready', empty: true })).toBe('empty')
    expect(volumeClipItemState({ status: 'ready', empty: false })).toBe('valid')
  })

  it('says the spec messages for missing and empty and nothing otherwise', () => {
    expect(volumeClipItemMessage('missing')).toBe('Results can not be loaded yet, please wait.')
    expect(volumeClipItemMessage('empty')).toBe(VOLUME_CLIP_INFO.empty)
    expect(volumeClipItemMessage('loading')).toBeNull()
    expect(volumeClipItemMessage('valid')).toBeNull()
  })
})

describe('sensor form', () => {
  it('accepts a named point sensor and refuses a taken name, an empty name and a bad position', () => {
    const draft = newSensorDraft('Probe')
    expect(checkSensorDraft(draft, ['Tank'])).toEqual([])
    expect(fieldMessage(checkSensorDraft(draft, ['Probe']), 'name')).toBe(NAME_TAKEN_MESSAGE)
    expect(fieldMessage(checkSensorDraft({ ...draft, name: '  ' }, []), 'name')).toBe(
      'Name is required',
    )
    const badPosition = { ...draft, position: ['1', 'abc', ''] as [string, string, string] }
    expect(fieldMessage(checkSensorDraft(badPosition, []), 'position')).toBe(
      'This field requires a valid number.',
    )
  })

  it('checks a surface sensor by its mesh sizes', () => {
    const draft = { ...newSensorDraft('Plate'), kind: 'surface' as const }
    draft.mesh = { ...defaultMeshDraft('circle'), radius: '0' }
    expect(fieldMessage(checkSensorDraft(draft, []), 'mesh.radius')).toBe(
      'Radius must be greater than 0.',
    )
    draft.mesh = { ...defaultMeshDraft('rectangle'), normal: ['0', '0', '0'] }
    expect(fieldMessage(checkSensorDraft(draft, []), 'mesh.normal')).toBe(
      'Normal length cannot be equal to 0',
    )
  })
})

describe('volume clip form', () => {
  it('refuses a zero cube dimension and accepts any plane offset', () => {
    const draft = newVolumeClipDraft('Clip 1')
    expect(checkVolumeClipDraft(draft, [])).toEqual([])
    draft.mesh = { ...draft.mesh, dimensions: ['1', '0', '1'] }
    expect(fieldMessage(checkVolumeClipDraft(draft, []), 'mesh.dimensions')).toBe(
      'Dimensions must be greater than 0.',
    )
    draft.mesh = { ...defaultMeshDraft('plane'), height: '-0.4' }
    expect(checkVolumeClipDraft(draft, [])).toEqual([])
  })

  it('turns a draft into the mesh body of its kind only', () => {
    const cube = {
      ...defaultMeshDraft('cube'),
      center: ['0.5', '0', '0.25'] as [string, string, string],
    }
    expect(meshBodyOf(cube)).toEqual({
      kind: 'cube',
      center: [0.5, 0, 0.25],
      dimensions: [1, 1, 1],
    })
    expect(meshBodyOf({ ...defaultMeshDraft('cylinder'), radius: '0.2', height: '2' })).toEqual({
      kind: 'cylinder',
      center: [0, 0, 0],
      radius: 0.2,
      height: 2,
      axis: [0, 0, 1],
    })
  })

  it('edits an existing mesh from its values', () => {
    const sphere = { ...defaultMesh('sphere', 7), radius: 0.3 }
    const draft = meshDraftOf(sphere)
    expect(draft.kind).toBe('sphere')
    expect(draft.radius).toBe('0.3')
  })
})

describe('helpers', () => {
  it('finds the next free default name', () => {
    expect(nextFreeName('Sensor', ['Sensor 1', 'Sensor 2'])).toBe('Sensor 3')
    expect(nextFreeName('Volume Clip', [])).toBe('Volume Clip 1')
  })
})
