/**
 * CAD assemblies and their tessellation (spec/setup.md §2 "Assembly import wizard", §3
 * "Assembly", "Assembly part", "Tessellation run", "Mesh refinement (tessellation) settings", §5
 * "Tessellation" and the duplicate-component message).
 */
import * as v from 'valibot'
import { idSchema } from './ids.ts'
import { JOB_STATES } from './jobs.ts'
import { COMPONENT_TYPES, type ComponentType } from './parts.ts'
import { checkNumber, type Issue, type NumberBounds } from './validation.ts'

// ── Meshing parameters ──────────────────────────────────────────────────────────────────────────

export const MESHING_PARAMETER_BOUNDS = {
  linearDeflectionFactor: { min: 0.1, max: 10 },
  /** Degrees, whole steps. */
  angularDeflection: { min: 1, max: 90, integer: true },
} as const satisfies Record<string, NumberBounds>

const meshingEntries = {
  linearDeflectionFactor: v.nullable(v.number()),
  /** Degrees. */
  angularDeflection: v.nullable(v.number()),
  useDelabellaAlgorithm: v.boolean(),
}
/** How finely a CAD part is tessellated. */
export const MeshingParametersSchema = v.object(meshingEntries)
/** Meshing parameters. */
export type MeshingParameters = v.InferOutput<typeof MeshingParametersSchema>
/** Meshing parameters in a request body. */
export const MeshingParametersBodySchema = v.strictObject(meshingEntries)

/** The defaults the form's Reset restores. */
export function defaultMeshingParameters(): MeshingParameters {
  return { linearDeflectionFactor: 1, angularDeflection: 15, useDelabellaAlgorithm: false }
}

/** linearDeflectionFactor 0.1 … 10; angularDeflection 1 … 90 degrees in whole steps. */
export function checkMeshingParameters(
  params: MeshingParameters,
  prefix = 'meshingParameters',
): Issue[] {
  return [
    ...checkNumber(
      `${prefix}.linearDeflectionFactor`,
      'Linear deflection factor',
      params.linearDeflectionFactor,
      MESHING_PARAMETER_BOUNDS.linearDeflectionFactor,
    ),
    ...checkNumber(
      `${prefix}.angularDeflection`,
      'Angular deflection',
      params.angularDeflection,
      MESHING_PARAMETER_BOUNDS.angularDeflection,
    ),
  ]
}

// ── Assembly ────────────────────────────────────────────────────────────────────────────────────

/** One node of the CAD import tree. */
export interface AssemblyNode {
  entryId: string
  labelName: string
  children: AssemblyNode[]
}
export const AssemblyNodeSchema: v.GenericSchema<AssemblyNode> = v.object({
  entryId: v.string(),
  labelName: v.string(),
  children: v.array(v.lazy(() => AssemblyNodeSchema)),
})

export const TessellationWarningSchema = v.object({
  message: v.string(),
  errorCode: v.string(),
  parts: v.optional(v.array(v.string())),
})

/** An uploaded CAD file (GET /assemblies/{id}). */
export const AssemblySchema = v.object({
  id: v.number(),
  filename: v.string(),
  state: v.picklist(JOB_STATES),
  /** The import tree; null until the file is read. */
  assemblyMetadata: v.nullable(v.array(AssemblyNodeSchema)),
  latestTessellationRunId: v.nullable(v.number()),
  tessellationWarnings: v.array(TessellationWarningSchema),
  tessellationErrors: v.array(v.object({ message: v.string() })),
  createdAt: v.string(),
})
/** An uploaded CAD file. */
export type Assembly = v.InferOutput<typeof AssemblySchema>

/** A part being built from assembly nodes (GET /assemblies/{id}/parts). */
export const AssemblyPartSchema = v.object({
  id: v.number(),
  name: v.string(),
  assemblyNodeIds: v.array(v.string()),
  assemblyNodeNames: v.optional(v.array(v.string())),
  componentType: v.picklist(COMPONENT_TYPES),
  meshingParameters: MeshingParametersSchema,
  needsTessellation: v.boolean(),
  /** The setup part its last tessellation made (null before one, or once that part is deleted). */
  setupPartId: v.optional(v.nullable(v.number()), null),
  warnings: v.array(TessellationWarningSchema),
})
/** A part being built from assembly nodes. */
export type AssemblyPart = v.InferOutput<typeof AssemblyPartSchema>

/** New assembly parts are rigid unless chosen otherwise. */
export const DEFAULT_ASSEMBLY_COMPONENT_TYPE: ComponentType = 'rigid'

const assemblyPartName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'Name is required'),
  v.maxLength(100),
)
/** POST /assemblies/{id}/parts. */
export const AssemblyPartCreateSchema = v.strictObject({
  name: assemblyPartName,
  assemblyNodeIds: v.pipe(v.array(v.string()), v.minLength(1)),
  componentType: v.optional(v.picklist(COMPONENT_TYPES), DEFAULT_ASSEMBLY_COMPONENT_TYPE),
  meshingParameters: v.optional(MeshingParametersBodySchema),
})
export type AssemblyPartCreate = v.InferOutput<typeof AssemblyPartCreateSchema>

/** PUT /assemblies/{id}/parts: one part by id, any of its fields. */
export const AssemblyPartUpdateSchema = v.strictObject({
  id: idSchema('id'),
  name: v.optional(assemblyPartName),
  assemblyNodeIds: v.optional(v.array(v.string())),
  componentType: v.optional(v.picklist(COMPONENT_TYPES)),
  meshingParameters: v.optional(MeshingParametersBodySchema),
})
export type AssemblyPartUpdate = v.InferOutput<typeof AssemblyPartUpdateSchema>

/** DELETE /assemblies/{id}/parts. */
export const AssemblyPartsDeleteSchema = v.strictObject({ partIds: v.array(idSchema('partIds')) })
export type AssemblyPartsDelete = v.InferOutput<typeof AssemblyPartsDeleteSchema>

/** POST /assemblies/{id}: schedules the tessellation of these parts (all needing it when absent). */
export const TessellationRequestSchema = v.strictObject({
  partIds: v.optional(v.array(idSchema('partIds'))),
})

/** GET /simulations/{id}/tessellation_runs items. */
export const TessellationRunSchema = v.object({
  id: v.number(),
  assemblyId: v.number(),
  state: v.picklist(JOB_STATES),
  /** 0 … 1. */
  progress: v.number(),
})
/** One tessellation run. */
export type TessellationRun = v.InferOutput<typeof TessellationRunSchema>

/** The exported wizard configuration ('{file}-config.json'), importable again. */
export const AssemblyConfigurationSchema = v.object({
  filename: v.string(),
  parts: v.array(
    v.object({
      name: v.string(),
      assemblyNodeIds: v.array(v.string()),
      componentType: v.picklist(COMPONENT_TYPES),
      meshingParameters: MeshingParametersSchema,
    }),
  ),
})
export type AssemblyConfiguration = v.InferOutput<typeof AssemblyConfigurationSchema>

/** 'pump.step' → 'pump-config.json'. */
export function configurationFileName(filename: string): string {
  return `${filename.replace(/\.[^./\\]+$/, '')}-config.json`
}

/** Wizard limits of spec/setup.md §2. */
export const ASSEMBLY_WIZARD = {
  /** Form changes wait this long before they are saved. */
  formDebounceMs: 250,
  /** A drag starts after the pointer moved this far. */
  dragThresholdPx: 6,
  /** The drag overlay names this many items, then '+N more'. */
  dragOverlayItems: 6,
  /** STEP files above this size get a warning (500 MB). */
  stepWarningBytes: 500_000_000,
} as const

export const TESSELLATION_MESSAGES = {
  started: 'Tessellation started.',
  importing: 'Importing File',
  searchPlaceholder: 'Search by name',
} as const

/** Import needs at least 1 checked node. */
export function canImportNodes(checkedCount: number): boolean {
  return checkedCount >= 1
}
/** Merge & Import needs at least 2 checked nodes. */
export function canMergeImportNodes(checkedCount: number): boolean {
  return checkedCount >= 2
}
/** Step 2's Import: a valid form and at least one part that needs tessellation. */
export function canStartTessellation(
  params: MeshingParameters,
  parts: readonly Pick<AssemblyPart, 'needsTessellation'>[],
): boolean {
  return checkMeshingParameters(params).length === 0 && parts.some((p) => p.needsTessellation)
}

function collectLabels(nodes: readonly AssemblyNode[], labels: Map<string, string>): void {
  for (const node of nodes) {
    labels.set(node.entryId, node.labelName)
    collectLabels(node.children, labels)
  }
}

/**
 * 'Component "{name}" appears in N part(s) (M occurrence(s) in total).' for every assembly node
 * used more than once across the parts. Names come from the import tree, else the part's node
 * names, else the node id.
 */
export function duplicateComponentMessages(
  parts: readonly Pick<AssemblyPart, 'id' | 'assemblyNodeIds' | 'assemblyNodeNames'>[],
  tree: readonly AssemblyNode[] | null = null,
): string[] {
  const labels = new Map<string, string>()
  if (tree) collectLabels(tree, labels)
  const usage = new Map<string, { parts: Set<number>; occurrences: number; name: string }>()
  for (const part of parts)
    part.assemblyNodeIds.forEach((nodeId, i) => {
      const entry = usage.get(nodeId) ?? {
        parts: new Set<number>(),
        occurrences: 0,
        name: labels.get(nodeId) ?? part.assemblyNodeNames?.[i] ?? nodeId,
      }
      entry.parts.add(part.id)
      entry.occurrences++
      usage.set(nodeId, entry)
    })
  return [...usage.values()]
    .filter((u) => u.occurrences > 1)
    .map(
      (u) =>
        `Component "${u.name}" appears in ${u.parts.size} part(s) (${u.occurrences} occurrence(s) in total).`,
    )
}
