import { useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { TESSELLATION_MESSAGES, type AssemblyNode } from '../../../../../domain/tessellation.ts'
import { IconChevronDown, IconChevronRight, IconSearch } from '../../../../components/icons.tsx'
import {
  branchIds,
  checkStateOf,
  filterTree,
  indexTree,
  setNodeChecked,
  visibleRows,
  type TreeRow,
} from './assemblyTree.ts'

/** Shown while the search finds nothing. */
export const NO_MATCH = 'No component matches the search.'

/**
 * The import tree of step 1 (spec/setup.md §2): 'Search by name' (matches shown with their
 * ancestors), a checkbox per node (a node checks its subtree), double click or Enter imports one
 * node, a press that moves 6 px drags it (with the checked nodes when it is checked). A WAI-ARIA
 * tree: arrow keys move and open, Space checks, Home and End jump.
 */
export function AssemblyTree(props: {
  tree: readonly AssemblyNode[]
  checked: ReadonlySet<string>
  onCheckedChange: (checked: Set<string>) => void
  /** Double click or Enter on a node. */
  onImportNode: (node: AssemblyNode) => void
  /** A press on a row (it may become a drag). */
  onPressNode: (event: PointerEvent, node: AssemblyNode) => void
  disabled: boolean
}) {
  const { tree, checked, onCheckedChange, disabled } = props
  const [search, setSearch] = useState('')
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(
    () => new Set(tree.map((node) => node.entryId)),
  )
  const [activeId, setActiveId] = useState<string | null>(null)
  const treeRef = useRef<HTMLUListElement>(null)
  const searchId = useId()
  const index = useMemo(() => indexTree(tree), [tree])
  const searching = search.trim() !== ''
  const shownTree = useMemo(() => filterTree(tree, search), [tree, search])
  const rows = useMemo(
    () => visibleRows(shownTree, searching ? branchIds(shownTree) : expanded),
    [shownTree, searching, expanded],
  )
  const active = rows.find((row) => row.node.entryId === activeId) ?? rows[0] ?? null

  const focusRow = (entryId: string) => {
    setActiveId(entryId)
    treeRef.current?.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(entryId)}"]`)?.focus()
  }
  const setOpen = (entryId: string, open: boolean) =>
    setExpanded((old) => {
      const next = new Set(old)
      if (open) next.add(entryId)
      else next.delete(entryId)
      return next
    })
  const toggleChecked = (node: AssemblyNode) => {
    if (disabled) return
    onCheckedChange(
      setNodeChecked(checked, node.entryId, checkStateOf(node, checked) !== true, index),
    )
  }

  const onKeyDown = (event: KeyboardEvent, row: TreeRow) => {
    const at = rows.indexOf(row)
    const move = (to: TreeRow | undefined) => {
      if (!to) return
      event.preventDefault()
      focusRow(to.node.entryId)
    }
    const branch = row.node.children.length > 0
    switch (event.key) {
      case 'ArrowDown':
        return move(rows[at + 1])
      case 'ArrowUp':
        return move(rows[at - 1])
      case 'Home':
        return move(rows[0])
      case 'End':
        return move(rows[rows.length - 1])
      case 'ArrowRight':
        event.preventDefault()
        if (branch && !row.expanded && !searching) setOpen(row.node.entryId, true)
        else if (row.expanded) move(rows[at + 1])
        return
      case 'ArrowLeft':
        event.preventDefault()
        if (row.expanded && !searching) setOpen(row.node.entryId, false)
        else if (row.parentId !== null) focusRow(row.parentId)
        return
      case ' ':
        event.preventDefault()
        toggleChecked(row.node)
        return
      case 'Enter':
        event.preventDefault()
        if (!disabled) props.onImportNode(row.node)
        return
    }
  }

  return (
    <div className="assembly-tree">
      <div className="assembly-tree__search">
        <label htmlFor={searchId} className="visually-hidden">
          {TESSELLATION_MESSAGES.searchPlaceholder}
        </label>
        <IconSearch width={14} height={14} aria-hidden="true" />
        <input
          id={searchId}
          type="search"
          className="input input--small"
          placeholder={TESSELLATION_MESSAGES.searchPlaceholder}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {rows.length === 0 ? (
        <p className="assembly-tree__empty">{NO_MATCH}</p>
      ) : (
        <ul ref={treeRef} role="tree" aria-label="Import tree" className="assembly-tree__list">
          {rows.map((row) => (
            <TreeItem
              key={row.node.entryId}
              row={row}
              state={checkStateOf(row.node, checked)}
              active={row === active}
              disabled={disabled}
              onToggleOpen={() => !searching && setOpen(row.node.entryId, !row.expanded)}
              onToggleChecked={() => toggleChecked(row.node)}
              onFocus={() => setActiveId(row.node.entryId)}
              onKeyDown={(event) => onKeyDown(event, row)}
              onDoubleClick={() => !disabled && props.onImportNode(row.node)}
              onPointerDown={(event) => !disabled && props.onPressNode(event, row.node)}
            />
          ))}
        </ul>
      )}
    </div>
  )
}

/*
 * One node. The row is the treeitem (aria-checked carries its checkbox, aria-level its depth);
 * rows are laid out flat, so aria-level, aria-setsize and aria-posinset say where each sits.
 */
function TreeItem(props: {
  row: TreeRow
  state: boolean | 'mixed'
  active: boolean
  disabled: boolean
  onToggleOpen: () => void
  onToggleChecked: () => void
  onFocus: () => void
  onKeyDown: (event: KeyboardEvent) => void
  onDoubleClick: () => void
  onPointerDown: (event: PointerEvent) => void
}) {
  const { row, state } = props
  const branch = row.node.children.length > 0
  return (
    <li
      role="treeitem"
      data-entry-id={row.node.entryId}
      aria-level={row.depth + 1}
      aria-expanded={branch ? row.expanded : undefined}
      aria-checked={state}
      aria-disabled={props.disabled || undefined}
      tabIndex={props.active ? 0 : -1}
      className={`assembly-tree__item${state === true ? ' assembly-tree__item--checked' : ''}`}
      style={{ paddingLeft: 4 + row.depth * 16 }}
      onFocus={(event) => event.target === event.currentTarget && props.onFocus()}
      onKeyDown={props.onKeyDown}
      onDoubleClick={props.onDoubleClick}
      onPointerDown={props.onPointerDown}
    >
      <span
        className="assembly-tree__toggle"
        aria-hidden="true"
        onClick={(event) => {
          event.stopPropagation()
          props.onToggleOpen()
        }}
        onDoubleClick={(event) => event.stopPropagation()}
      >
        {branch &&
          (row.expanded ? (
            <IconChevronDown width={12} height={12} />
          ) : (
            <IconChevronRight width={12} height={12} />
          ))}
      </span>
      <span
        className={`assembly-tree__check assembly-tree__check--${String(state)}`}
        aria-hidden="true"
        onClick={(event) => {
          event.stopPropagation()
          props.onToggleChecked()
        }}
        onDoubleClick={(event) => event.stopPropagation()}
        onPointerDown={(event) => event.stopPropagation()}
      />
      <span className="assembly-tree__name">{row.node.labelName || row.node.entryId}</span>
    </li>
  )
}
