import * as v from 'valibot'
import { isJobSucceeded } from '../../../../../domain/jobs.ts'
import { makeUniqueName, type ComponentType } from '../../../../../domain/parts.ts'
import {
  AssemblyConfigurationSchema,
  DEFAULT_ASSEMBLY_COMPONENT_TYPE,
  checkMeshingParameters,
  defaultMeshingParameters,
  type Assembly,
  type AssemblyConfiguration,
  type AssemblyNode,
  type AssemblyPart,
  type AssemblyPartCreate,
  type AssemblyPartUpdate,
  type MeshingParameters,
} from '../../../../../domain/tessellation.ts'
import { indexTree } from './assemblyTree.ts'

/*
 * The assembly wizard's rules (spec/setup.md §2): which parts each tab lists, the parts an Import,
 * a Merge & Import, a drop or an imported configuration create, when Next and step 2's Import are
 * enabled, and the exported configuration. The limits and the enable rules themselves are
 * domain/tessellation.ts's.
 */

/** The two steps of the wizard. */
export const WIZARD_STEPS = {
  organize: '1. Organizing parts',
  tessellate: '2. Tessellation',
} as const
/** One step of the wizard. */
export type WizardStep = keyof typeof WIZARD_STEPS

/** The dialog's title. */
export const WIZARD_TITLE = 'Import CAD Assembly'

/** The tabs of step 1: parts made walls, fluids (Solids) or open boundaries (Inlets/Outlets). */
export const WIZARD_TABS = { solids: 'Solids', inlets: 'Inlets/Outlets' } as const
/** One tab of step 1. */
export type WizardTab = keyof typeof WIZARD_TABS

/** Component types a part of the Solids tab can take (the Inlets/Outlets tab's are open boundaries). */
export const SOLID_COMPONENT_TYPES = [
  'rigid',
  'filling',
  'flow',
] as const satisfies readonly ComponentType[]

/** How the parts list names component types. */
export const COMPONENT_TYPE_LABELS: Partial<Record<ComponentType, string>> = {
  rigid: 'Rigid',
  filling: 'Filling',
  flow: 'Flow',
  openboundary: 'Inlet/Outlet',
}

/** The tab a part is listed under. */
export function tabOfPart(part: Pick<AssemblyPart, 'componentType'>): WizardTab {
  return part.componentType === 'openboundary' ? 'inlets' : 'solids'
}

/** The component type of a part created in a tab: rigid (the default) or open boundary. */
export function componentTypeOfTab(tab: WizardTab): ComponentType {
  return tab === 'inlets' ? 'openboundary' : DEFAULT_ASSEMBLY_COMPONENT_TYPE
}

/** The parts a tab lists, in their order. */
export function partsOfTab<P extends Pick<AssemblyPart, 'componentType'>>(
  parts: readonly P[],
  tab: WizardTab,
): P[] {
  return parts.filter((part) => tabOfPart(part) === tab)
}

/** Names a new part must not take: the wizard's parts (names are made unique with ' (n)'). */
function takenNames(parts: readonly Pick<AssemblyPart, 'name'>[]): Set<string> {
  return new Set(parts.map((part) => part.name))
}

/** A part name from a tree node: its label, or its entry id when the label is empty. */
export function nodeName(node: Pick<AssemblyNode, 'entryId' | 'labelName'>): string {
  const label = node.labelName.trim()
  return (label || node.entryId).slice(0, 100)
}

/** Import: one part per node, named after it, of the tab's component type. */
export function importBodies(
  nodes: readonly AssemblyNode[],
  tab: WizardTab,
  parts: readonly Pick<AssemblyPart, 'name'>[],
): AssemblyPartCreate[] {
  const taken = takenNames(parts)
  return nodes.map((node) => {
    const name = makeUniqueName(nodeName(node), taken)
    taken.add(name)
    return { name, assemblyNodeIds: [node.entryId], componentType: componentTypeOfTab(tab) }
  })
}

/** Merge & Import (or a drop on the create area): one part of every node, named after the first. */
export function mergeBody(
  nodes: readonly AssemblyNode[],
  tab: WizardTab,
  parts: readonly Pick<AssemblyPart, 'name'>[],
): AssemblyPartCreate | null {
  const first = nodes[0]
  if (!first) return null
  return {
    name: makeUniqueName(nodeName(first), takenNames(parts)),
    assemblyNodeIds: nodes.map((node) => node.entryId),
    componentType: componentTypeOfTab(tab),
  }
}

/** Nodes dropped on a part: added to its nodes (those it has already stay once). */
export function addNodesUpdate(
  part: Pick<AssemblyPart, 'id' | 'assemblyNodeIds'>,
  nodeIds: readonly string[],
): AssemblyPartUpdate | null {
  const added = nodeIds.filter(
    (id, i) => !part.assemblyNodeIds.includes(id) && nodeIds.indexOf(id) === i,
  )
  if (added.length === 0) return null
  return { id: part.id, assemblyNodeIds: [...part.assemblyNodeIds, ...added] }
}

/** The names of a part's nodes, from the tree (else the names the server sent, else the ids). */
export function partNodeNames(
  part: Pick<AssemblyPart, 'assemblyNodeIds' | 'assemblyNodeNames'>,
  labels: ReadonlyMap<string, string>,
): string[] {
  return part.assemblyNodeIds.map((id, i) => labels.get(id) ?? part.assemblyNodeNames?.[i] ?? id)
}

/** Labels of every node of a tree by entry id. */
export function labelsOf(tree: readonly AssemblyNode[] | null): Map<string, string> {
  return new Map([...indexTree(tree ?? []).entries()].map(([id, { node }]) => [id, node.labelName]))
}

/** The import (reading the file's tree) has completed. */
export function isImportCompleted(assembly: Assembly | null | undefined): boolean {
  return !!assembly && isJobSucceeded(assembly.state) && assembly.assemblyMetadata !== null
}

/** Next: the import is completed and at least one part exists. */
export function canGoNext(
  assembly: Assembly | null | undefined,
  parts: readonly unknown[] | undefined,
): boolean {
  return isImportCompleted(assembly) && (parts?.length ?? 0) > 0
}

/** Step 2's button: Re-Tessellate when every part was tessellated into a setup part before. */
export function tessellateLabel(parts: readonly Pick<AssemblyPart, 'setupPartId'>[]): string {
  const all = parts.length > 0 && parts.every((part) => part.setupPartId != null)
  return all ? 'Re-Tessellate' : 'Import'
}

/** Every part's saved meshing parameters follow the rules (the form shows only the chosen ones). */
export function allMeshingValid(
  parts: readonly Pick<AssemblyPart, 'meshingParameters'>[],
): boolean {
  return parts.every((part) => checkMeshingParameters(part.meshingParameters).length === 0)
}

/** The meshing parameters the form shows for some parts: the first one's (defaults for none). */
export function sharedMeshingParameters(
  parts: readonly Pick<AssemblyPart, 'meshingParameters'>[],
): { params: MeshingParameters; mixed: Record<keyof MeshingParameters, boolean> } {
  const first = parts[0]?.meshingParameters ?? defaultMeshingParameters()
  const differs = (key: keyof MeshingParameters) =>
    parts.some((part) => part.meshingParameters[key] !== first[key])
  return {
    params: first,
    mixed: {
      linearDeflectionFactor: differs('linearDeflectionFactor'),
      angularDeflection: differs('angularDeflection'),
      useDelabellaAlgorithm: differs('useDelabellaAlgorithm'),
    },
  }
}

// ── Configuration file ──────────────────────────────────────────────────────────────────────────

/** The exported configuration: the file's name and each part's nodes, type and meshing. */
export function configurationOf(
  assembly: Pick<Assembly, 'filename'>,
  parts: readonly AssemblyPart[],
): AssemblyConfiguration {
  return {
    filename: assembly.filename,
    parts: parts.map((part) => ({
      name: part.name,
      assemblyNodeIds: [...part.assemblyNodeIds],
      componentType: part.componentType,
      meshingParameters: { ...part.meshingParameters },
    })),
  }
}

/** A configuration file read back: its content, or why it cannot be used. */
export type ParsedConfiguration =
  | { ok: true; configuration: AssemblyConfiguration }
  | { ok: false; reason: 'json' | 'schema'; error: unknown }

/** Reads a configuration file's text ('json': not parsable, which is only logged). */
export function parseConfiguration(text: string): ParsedConfiguration {
  let json: unknown
  try {
    json = JSON.parse(text) as unknown
  } catch (error) {
    return { ok: false, reason: 'json', error }
  }
  const parsed = v.safeParse(AssemblyConfigurationSchema, json)
  return parsed.success
    ? { ok: true, configuration: parsed.output }
    : { ok: false, reason: 'schema', error: parsed.issues }
}

/**
 * The parts a configuration creates in this file: its parts with the nodes this tree has (a part
 * left with none is skipped), names made unique against the parts there are.
 */
export function configurationBodies(
  configuration: AssemblyConfiguration,
  tree: readonly AssemblyNode[],
  parts: readonly Pick<AssemblyPart, 'name'>[],
): AssemblyPartCreate[] {
  const known = indexTree(tree)
  const taken = takenNames(parts)
  return configuration.parts.flatMap((part) => {
    const nodeIds = part.assemblyNodeIds.filter((id) => known.has(id))
    if (nodeIds.length === 0) return []
    const name = makeUniqueName(part.name.trim() || nodeIds[0] || 'Part', taken)
    taken.add(name)
    const valid = checkMeshingParameters(part.meshingParameters).length === 0
    return [
      {
        name,
        assemblyNodeIds: nodeIds,
        componentType: part.componentType,
        meshingParameters: valid ? part.meshingParameters : defaultMeshingParameters(),
      },
    ]
  })
}

/** 'The configuration names no component of this file.' when nothing of it fits. */
export const CONFIGURATION_UNUSABLE = 'The configuration names no component of this file.'
/** Title of the toast of a configuration that is JSON but not a wizard configuration. */
export const CONFIGURATION_INVALID = 'This file is not an exported configuration.'
