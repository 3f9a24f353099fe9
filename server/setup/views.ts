import * as v from 'valibot'
import {
  MaterialSchema,
  createDefaultMaterial,
  defaultMaterialProperties,
  type Material,
} from '../../domain/materials.ts'
import { MovementSchema, type Movement } from '../../domain/movements.ts'
import {
  AppearanceSchema,
  ComponentSchema,
  PartWarningSchema,
  ShapeSchema,
  defaultAppearance,
  defaultComponent,
  type Part,
  type Shape,
} from '../../domain/parts.ts'
import type { Datatable } from '../../domain/datatable.ts'
import { STL_UNITS, UPLOAD_KINDS, type Upload } from '../../domain/rest/setupRoutes.ts'
import { LooseVec3Schema } from '../../domain/vector.ts'
import type { DatatableRow, MaterialRow, MovementRow, PartRow, UploadRow } from '../db/schema.ts'
import { partFilesOf, type PartPointCloudRef } from './partFiles.ts'

/*
 * Setup rows → the domain's response shapes. JSON columns are read leniently (merged over
 * defaults and checked), so a row written by an older version keeps loading.
 */

/** JSON.parse that yields null for broken text. */
export function parseJsonColumn(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

/** A material row; unknown or broken properties fall back to the defaults. */
export function toMaterial(row: MaterialRow): Material {
  const merged = {
    id: row.material_id,
    simulationId: row.simulation_id,
    ...defaultMaterialProperties(row.material_id),
    ...asObject(parseJsonColumn(row.properties)),
    createdAt: row.created_at,
  }
  const result = v.safeParse(MaterialSchema, merged)
  return result.success
    ? result.output
    : createDefaultMaterial(row.material_id, row.simulation_id, row.created_at)
}

/**
 * Materials of a simulation in id order. Material 0 ('Fluid 1') always exists: while it has no
 * row it is the default water, dated with the simulation.
 */
export function toMaterialList(
  rows: readonly MaterialRow[],
  simulationId: number,
  simulationCreatedAt: string,
): Material[] {
  const materials = rows.map(toMaterial)
  if (!materials.some((m) => m.id === 0))
    materials.push(createDefaultMaterial(0, simulationId, simulationCreatedAt))
  return materials.sort((a, b) => a.id - b.id)
}

/**
 * A part row as the API returns it, with its download URLs (`pointCloud`: its particles in the
 * latest successful discretization, see partFiles.ts readPartPointClouds).
 */
export function toPart(row: PartRow, pointCloud?: PartPointCloudRef): Part {
  const componentStored = asObject(parseJsonColumn(row.component))
  const componentType = typeof componentStored.type === 'string' ? componentStored.type : 'rigid'
  const componentParsed = v.safeParse(ComponentSchema, componentStored)
  const component = componentParsed.success
    ? componentParsed.output
    : defaultComponent(componentType === 'filling' ? 'filling' : 'rigid')
  const shapeParsed = v.safeParse(ShapeSchema, parseJsonColumn(row.shape))
  const appearance = v.safeParse(AppearanceSchema, parseJsonColumn(row.appearance))
  const warnings = v.safeParse(v.array(PartWarningSchema), parseJsonColumn(row.warnings))
  const seed = v.safeParse(v.nullable(LooseVec3Schema), parseJsonColumn(row.seed_point))
  const warningList = warnings.success ? warnings.output : []
  const shape: Shape = shapeParsed.success
    ? shapeParsed.output
    : {
        type: 'empty',
        translation: [0, 0, 0],
        scale: [1, 1, 1],
        rotation: [0, 0, 0],
        flipNormals: false,
        info: null,
      }
  return {
    id: row.id,
    simulationId: row.simulation_id,
    name: row.name,
    kind: row.kind,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by,
    organizationId: row.organization_id,
    seedPoint: seed.success ? seed.output : null,
    materialId: row.material_id,
    component,
    appearance: {
      ...(appearance.success ? appearance.output : defaultAppearance(0)),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    shape,
    hasWarnings: warningList.length > 0,
    warnings: warningList,
    ...partFilesOf({ id: row.id, shape }, pointCloud),
  }
}

/** A movement row with its leader and follower ids. */
export function toMovement(
  row: MovementRow,
  links: readonly { leader_id: number; follower_id: number }[],
): Movement {
  const motion = asObject(parseJsonColumn(row.motion))
  const candidate = {
    id: row.id,
    partId: row.part_id,
    type: row.type,
    name: row.name,
    start: 0,
    end: null,
    acc: 0,
    vel: 0,
    virtualMovement: false,
    ...(row.type === 'translatory' ? { direction: [1, 0, 0] } : { axis: [0, 0, 1], center: null }),
    ...motion,
    parents: links
      .filter((l) => l.follower_id === row.id)
      .map((l) => l.leader_id)
      .sort((a, b) => a - b),
    followers: links
      .filter((l) => l.leader_id === row.id)
      .map((l) => l.follower_id)
      .sort((a, b) => a - b),
  }
  return v.parse(MovementSchema, candidate)
}

/** Stored facts of an upload (UploadsTable.info). */
export interface UploadInfo {
  nbrOfTriangles?: number
  watertight?: boolean
  datatableId?: number
}

export function toUpload(row: UploadRow): Upload {
  const info = asObject(parseJsonColumn(row.info)) as UploadInfo
  return {
    id: row.id,
    kind: UPLOAD_KINDS.find((k) => k === row.kind) ?? 'stl',
    fileName: row.file_name,
    unit: STL_UNITS.find((u) => u === row.unit) ?? null,
    sizeBytes: row.size_bytes,
    createdAt: row.created_at,
    nbrOfTriangles: typeof info.nbrOfTriangles === 'number' ? info.nbrOfTriangles : null,
    watertight: typeof info.watertight === 'boolean' ? info.watertight : null,
    datatableId: typeof info.datatableId === 'number' ? info.datatableId : null,
  }
}

/** The stored columns of a datatable. */
export function readDatatableColumns(row: DatatableRow): {
  headers: string[]
  table: Record<string, (number | null)[]>
} {
  const headers = parseJsonColumn(row.headers)
  const table = asObject(parseJsonColumn(row.columns)) as Record<string, (number | null)[]>
  return {
    headers: Array.isArray(headers)
      ? headers.filter((h): h is string => typeof h === 'string')
      : [],
    table,
  }
}

/** Rows in a stored table: the longest column. */
export function datatableRowCount(table: Record<string, readonly unknown[]>): number {
  return Math.max(0, ...Object.values(table).map((column) => column.length))
}

/** One page (pageNumber from 1) of a datatable. */
export function toDatatablePage(
  row: DatatableRow,
  pageLimit: number,
  pageNumber: number,
): Datatable {
  const { headers, table } = readDatatableColumns(row)
  const start = (pageNumber - 1) * pageLimit
  const page = Object.fromEntries(
    headers.map((h) => [h, (table[h] ?? []).slice(start, start + pageLimit)]),
  )
  return {
    id: row.id,
    headers,
    table: page,
    resultCount: datatableRowCount(table),
    pageLimit,
    pageNumber,
  }
}
