import { describe, expect, it } from 'vitest'
import {
  ASSEMBLY_WIZARD,
  configurationFileName,
  type Assembly,
  type AssemblyNode,
  type AssemblyPart,
} from '../../../../../domain/tessellation.ts'
import {
  dragOverlayLines,
  draggedNodeIds,
  dropTargetOf,
  passedDragThreshold,
} from './assemblyDrag.ts'
import {
  checkStateOf,
  filterTree,
  indexTree,
  setNodeChecked,
  topCheckedNodes,
  visibleRows,
} from './assemblyTree.ts'
import {
  addNodesUpdate,
  canGoNext,
  configurationBodies,
  configurationOf,
  importBodies,
  mergeBody,
  parseConfiguration,
  partsOfTab,
  sharedMeshingParameters,
  tessellateLabel,
} from './wizardModel.ts'

/* The wizard's pure rules: the tree, the drag, the parts an action creates, the configuration. */

const node = (entryId: string, labelName: string, children: AssemblyNode[] = []): AssemblyNode => ({
  entryId,
  labelName,
  children,
})

/** as1: a plate, an L-bracket assembly (bracket, 3 bolts) and a nut. */
const TREE: AssemblyNode[] = [
  node('1', 'as1', [
    node('1.1', 'plate'),
    node('1.2', 'l-bracket-assembly', [
      node('1.2.1', 'l-bracket'),
      node('1.2.2', 'bolt'),
      node('1.2.3', 'bolt'),
    ]),
    node('1.3', 'nut-bolt-assembly', [node('1.3.1', 'nut')]),
  ]),
]

const part = (id: number, patch: Partial<AssemblyPart> = {}): AssemblyPart => ({
  id,
  name: `Part ${id}`,
  assemblyNodeIds: ['1.1'],
  componentType: 'rigid',
  meshingParameters: {
    linearDeflectionFactor: 1,
    angularDeflection: 15,
    useDelabellaAlgorithm: false,
  },
  needsTessellation: true,
  setupPartId: null,
  warnings: [],
  ...patch,
})

const assembly = (patch: Partial<Assembly> = {}): Assembly => ({
  id: 3,
  filename: 'as1-oc-214.stp',
  state: 'done',
  assemblyMetadata: TREE,
  latestTessellationRunId: null,
  tessellationWarnings: [],
  tessellationErrors: [],
  createdAt: '2026-11-26T00:00:00.000Z',
  ...patch,
})

const names = (nodes: readonly AssemblyNode[]): string[] =>
  nodes.flatMap((n) => [n.labelName, ...names(n.children)])

describe('the import tree', () => {
  it('keeps the matches of a search with their ancestors, ignoring case', () => {
    expect(names(filterTree(TREE, ' BOLT '))).toEqual([
      'as1',
      'l-bracket-assembly',
      'bolt',
      'bolt',
      'nut-bolt-assembly',
    ])
    expect(filterTree(TREE, 'nothing like it')).toEqual([])
    expect(filterTree(TREE, '')).toEqual(TREE)
  })

  it('checks a subtree, reads a partly checked parent as mixed, and imports the topmost nodes', () => {
    const index = indexTree(TREE)
    let checked = setNodeChecked(new Set(), '1.2', true, index)
    expect([...checked].sort()).toEqual(['1.2', '1.2.1', '1.2.2', '1.2.3'])
    expect(topCheckedNodes(TREE, checked).map((n) => n.entryId)).toEqual(['1.2'])
    checked = setNodeChecked(checked, '1.2.2', false, index)
    const bracket = index.get('1.2')?.node as AssemblyNode
    expect(checkStateOf(bracket, checked)).toBe('mixed')
    expect(checkStateOf(index.get('1')?.node as AssemblyNode, checked)).toBe('mixed')
    expect(topCheckedNodes(TREE, checked).map((n) => n.entryId)).toEqual(['1.2.1', '1.2.3'])
  })

  it('shows children of expanded nodes only', () => {
    expect(visibleRows(TREE, new Set(['1'])).map((r) => r.node.entryId)).toEqual([
      '1',
      '1.1',
      '1.2',
      '1.3',
    ])
  })
})

describe('dragging nodes', () => {
  it('starts after 6 px', () => {
    expect(ASSEMBLY_WIZARD.dragThresholdPx).toBe(6)
    expect(passedDragThreshold({ x: 10, y: 10 }, { x: 13, y: 14 })).toBe(false)
    expect(passedDragThreshold({ x: 10, y: 10 }, { x: 16, y: 10 })).toBe(true)
  })

  it('names 6 nodes, then +N more', () => {
    const nine = Array.from({ length: 9 }, (_, i) => `node ${i + 1}`)
    expect(dragOverlayLines(nine)).toEqual({ names: nine.slice(0, 6), more: '+3 more' })
    expect(dragOverlayLines(nine.slice(0, 6))).toEqual({ names: nine.slice(0, 6), more: null })
  })

  it('carries the checked nodes when it starts on a checked one, else the node itself', () => {
    const checked = new Set(['1.1', '1.3', '1.3.1'])
    expect(draggedNodeIds('1.3.1', checked, ['1.1', '1.3'])).toEqual(['1.1', '1.3'])
    expect(draggedNodeIds('1.2', checked, ['1.1', '1.3'])).toEqual(['1.2'])
  })

  it('finds the drop target an element is in', () => {
    const area = document.createElement('div')
    area.setAttribute('data-assembly-drop', 'part:7')
    const inner = document.createElement('span')
    area.append(inner)
    expect(dropTargetOf(inner)).toEqual({ kind: 'part', partId: 7 })
    expect(dropTargetOf(document.createElement('p'))).toBeNull()
  })
})

describe('the parts the actions create', () => {
  it('imports one part per node, named after it and unique, of the tab’s type', () => {
    const nodes = [node('1.2.2', 'bolt'), node('1.2.3', 'bolt')]
    expect(importBodies(nodes, 'solids', [part(1, { name: 'bolt' })])).toEqual([
      { name: 'bolt (1)', assemblyNodeIds: ['1.2.2'], componentType: 'rigid' },
      { name: 'bolt (2)', assemblyNodeIds: ['1.2.3'], componentType: 'rigid' },
    ])
    expect(mergeBody(nodes, 'inlets', [])).toEqual({
      name: 'bolt',
      assemblyNodeIds: ['1.2.2', '1.2.3'],
      componentType: 'openboundary',
    })
    expect(mergeBody([], 'solids', [])).toBeNull()
  })

  it('adds dropped nodes to a part once', () => {
    expect(addNodesUpdate(part(4), ['1.1', '1.3', '1.3'])).toEqual({
      id: 4,
      assemblyNodeIds: ['1.1', '1.3'],
    })
    expect(addNodesUpdate(part(4), ['1.1'])).toBeNull()
  })

  it('lists open boundaries under Inlets/Outlets and the rest under Solids', () => {
    const parts = [
      part(1),
      part(2, { componentType: 'openboundary' }),
      part(3, { componentType: 'filling' }),
    ]
    expect(partsOfTab(parts, 'solids').map((p) => p.id)).toEqual([1, 3])
    expect(partsOfTab(parts, 'inlets').map((p) => p.id)).toEqual([2])
  })
})

describe('the steps', () => {
  it('enables Next once the import is completed and a part exists', () => {
    expect(canGoNext(assembly(), [part(1)])).toBe(true)
    expect(canGoNext(assembly(), [])).toBe(false)
    expect(canGoNext(assembly({ state: 'running', assemblyMetadata: null }), [part(1)])).toBe(false)
    expect(canGoNext(null, [part(1)])).toBe(false)
  })

  it('says Re-Tessellate when every part was tessellated before', () => {
    expect(tessellateLabel([])).toBe('Import')
    expect(tessellateLabel([part(1)])).toBe('Import')
    expect(tessellateLabel([{ ...part(1), setupPartId: 7 }, part(2)])).toBe('Import')
    expect(
      tessellateLabel([
        { ...part(1), setupPartId: 7 },
        { ...part(2), setupPartId: 8 },
      ]),
    ).toBe('Re-Tessellate')
  })

  it('shows the first chosen part’s meshing parameters and which differ', () => {
    const shared = sharedMeshingParameters([
      part(1),
      part(2, {
        meshingParameters: {
          linearDeflectionFactor: 2,
          angularDeflection: 15,
          useDelabellaAlgorithm: false,
        },
      }),
    ])
    expect(shared.params.linearDeflectionFactor).toBe(1)
    expect(shared.mixed).toEqual({
      linearDeflectionFactor: true,
      angularDeflection: false,
      useDelabellaAlgorithm: false,
    })
  })
})

describe('the configuration file', () => {
  it('round-trips through its JSON under the file’s name', () => {
    const parts = [
      part(1, { name: 'plate' }),
      part(2, { name: 'bolts', assemblyNodeIds: ['1.2.2', '1.2.3'] }),
    ]
    const configuration = configurationOf(assembly(), parts)
    expect(configurationFileName('as1-oc-214.stp')).toBe('as1-oc-214-config.json')
    const parsed = parseConfiguration(JSON.stringify(configuration))
    expect(parsed).toEqual({ ok: true, configuration })
    if (!parsed.ok) return
    expect(configurationBodies(parsed.configuration, TREE, [part(9, { name: 'plate' })])).toEqual([
      {
        name: 'plate (1)',
        assemblyNodeIds: ['1.1'],
        componentType: 'rigid',
        meshingParameters: parts[0]?.meshingParameters,
      },
      {
        name: 'bolts',
        assemblyNodeIds: ['1.2.2', '1.2.3'],
        componentType: 'rigid',
        meshingParameters: parts[1]?.meshingParameters,
      },
    ])
  })

  it('tells text that is not JSON from JSON that is not a configuration, and skips unknown nodes', () => {
    expect(parseConfiguration('{ not json').ok).toBe(false)
    expect(parseConfiguration('{ not json')).toMatchObject({ reason: 'json' })
    expect(parseConfiguration('{"parts": 3}')).toMatchObject({ reason: 'schema' })
    const foreign = configurationOf(assembly(), [part(1, { assemblyNodeIds: ['9.9'] })])
    expect(configurationBodies(foreign, TREE, [])).toEqual([])
  })
})
