import type { AssemblyNode } from '../../../../../domain/tessellation.ts'

/*
 * The import tree of a CAD file (spec/setup.md §2 "Assembly import wizard", step 1): the search
 * 'Search by name' (matches with their ancestors), check states (a node checks its subtree; a
 * parent with some checked descendants reads as mixed), the nodes an Import takes (the topmost
 * checked ones, so no component is imported twice) and the rows shown for keyboard navigation.
 */

/** Where a node sits in the tree. */
export interface IndexedNode {
  node: AssemblyNode
  parentId: string | null
  depth: number
}

/** Every node by its entry id. */
export function indexTree(tree: readonly AssemblyNode[]): Map<string, IndexedNode> {
  const index = new Map<string, IndexedNode>()
  const walk = (nodes: readonly AssemblyNode[], parentId: string | null, depth: number) => {
    for (const node of nodes) {
      index.set(node.entryId, { node, parentId, depth })
      walk(node.children, node.entryId, depth + 1)
    }
  }
  walk(tree, null, 0)
  return index
}

/** A name matches a search when it contains the text, ignoring case and surrounding spaces. */
export function matchesSearch(labelName: string, search: string): boolean {
  const text = search.trim().toLowerCase()
  return text === '' || labelName.toLowerCase().includes(text)
}

/**
 * The tree as the search shows it: every node whose name matches, with its ancestors (so it is
 * found where it sits). An empty search shows the whole tree.
 */
export function filterTree(tree: readonly AssemblyNode[], search: string): AssemblyNode[] {
  if (search.trim() === '') return [...tree]
  const keep = (node: AssemblyNode): AssemblyNode | null => {
    const children = node.children.flatMap((child) => keep(child) ?? [])
    if (children.length > 0 || matchesSearch(node.labelName, search)) return { ...node, children }
    return null
  }
  return tree.flatMap((node) => keep(node) ?? [])
}

/** Entry ids of a node's descendants, depth first. */
export function descendantIds(node: AssemblyNode): string[] {
  return node.children.flatMap((child) => [child.entryId, ...descendantIds(child)])
}

/** Entry ids of a node's ancestors, nearest first. */
export function ancestorIds(entryId: string, index: ReadonlyMap<string, IndexedNode>): string[] {
  const ids: string[] = []
  let parent = index.get(entryId)?.parentId ?? null
  while (parent !== null) {
    ids.push(parent)
    parent = index.get(parent)?.parentId ?? null
  }
  return ids
}

/**
 * Checks or unchecks a node. Checking takes its whole subtree; unchecking leaves its subtree and
 * its ancestors (which are then no longer whole).
 */
export function setNodeChecked(
  checked: ReadonlySet<string>,
  entryId: string,
  value: boolean,
  index: ReadonlyMap<string, IndexedNode>,
): Set<string> {
  const next = new Set(checked)
  const indexed = index.get(entryId)
  if (!indexed) return next
  const subtree = [entryId, ...descendantIds(indexed.node)]
  if (value) for (const id of subtree) next.add(id)
  else for (const id of [...subtree, ...ancestorIds(entryId, index)]) next.delete(id)
  return next
}

/** The state of a node's checkbox: checked, unchecked, or mixed when only part of it is. */
export function checkStateOf(node: AssemblyNode, checked: ReadonlySet<string>): boolean | 'mixed' {
  if (checked.has(node.entryId)) return true
  return descendantIds(node).some((id) => checked.has(id)) ? 'mixed' : false
}

/**
 * The checked nodes an Import takes, in tree order: those without a checked ancestor (a checked
 * assembly brings its components along, so they are not taken a second time).
 */
export function topCheckedNodes(
  tree: readonly AssemblyNode[],
  checked: ReadonlySet<string>,
): AssemblyNode[] {
  return tree.flatMap((node) =>
    checked.has(node.entryId) ? [node] : topCheckedNodes(node.children, checked),
  )
}

/** One row of the tree on screen. */
export interface TreeRow {
  node: AssemblyNode
  depth: number
  parentId: string | null
  expanded: boolean
}

/** The rows on screen, top to bottom: children show under expanded nodes only. */
export function visibleRows(
  tree: readonly AssemblyNode[],
  expanded: ReadonlySet<string>,
): TreeRow[] {
  const rows: TreeRow[] = []
  const walk = (nodes: readonly AssemblyNode[], parentId: string | null, depth: number) => {
    for (const node of nodes) {
      const open = node.children.length > 0 && expanded.has(node.entryId)
      rows.push({ node, depth, parentId, expanded: open })
      if (open) walk(node.children, node.entryId, depth + 1)
    }
  }
  walk(tree, null, 0)
  return rows
}

/** Ids of every node with children (a search shows the filtered tree fully expanded). */
export function branchIds(tree: readonly AssemblyNode[]): Set<string> {
  const ids = new Set<string>()
  const walk = (nodes: readonly AssemblyNode[]) => {
    for (const node of nodes)
      if (node.children.length > 0) {
        ids.add(node.entryId)
        walk(node.children)
      }
  }
  walk(tree)
  return ids
}

/** The number of nodes in a tree. */
export function countNodes(tree: readonly AssemblyNode[]): number {
  return tree.reduce((sum, node) => sum + 1 + countNodes(node.children), 0)
}
