import { useId, useMemo, useState } from 'react'
import { createPortal } from 'react-dom'
import {
  canImportNodes,
  canMergeImportNodes,
  duplicateComponentMessages,
  type Assembly,
  type AssemblyNode,
  type AssemblyPart,
  type AssemblyPartCreate,
} from '../../../../../domain/tessellation.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { FileButton } from '../uploads/StlUploads.tsx'
import type { UploadTransport } from '../uploads/uploadRequest.ts'
import { dragOverlayLines, draggedNodeIds, type DropTarget } from './assemblyDrag.ts'
import { AssemblyFileSection } from './AssemblyFileSection.tsx'
import { AssemblyPartsPanel } from './AssemblyPartsPanel.tsx'
import {
  useCreateAssemblyPartsMutation,
  useDeleteAssemblyPartsMutation,
  useUpdateAssemblyPartsMutation,
} from './assemblyQueries.ts'
import { AssemblyTree } from './AssemblyTree.tsx'
import { indexTree, topCheckedNodes } from './assemblyTree.ts'
import { useNodeDrag, type NodeDrag } from './useNodeDrag.ts'
import {
  CONFIGURATION_INVALID,
  CONFIGURATION_UNUSABLE,
  addNodesUpdate,
  canGoNext,
  configurationBodies,
  importBodies,
  isImportCompleted,
  labelsOf,
  mergeBody,
  parseConfiguration,
  type WizardTab,
} from './wizardModel.ts'

/** The hints Show Hints reveals. */
export const ORGANIZE_HINTS = [
  'Check components in the tree, then Import makes a part of each and Merge & Import one part of all.',
  'Double-click a component (or press Enter on it) to import it alone.',
  'Drag components onto a part to add them to it, or onto the create area to make a new part. With the keyboard: check them, then press Add checked on a part or the create area.',
  'Parts made in the Solids tab are rigid walls unless you choose Filling or Flow; those of the Inlets/Outlets tab are open boundaries.',
] as const

/**
 * Step '1. Organizing parts' (spec/setup.md §2): the STEP file, its import tree and the parts made
 * of its components; Next once the file is read and a part exists.
 */
export function OrganizePartsStep(props: {
  simulationId: number
  assembly: Assembly | null
  parts: readonly AssemblyPart[]
  onAssemblyChange: (assemblyId: number | null) => void
  onCancel: () => void
  onNext: () => void
  transport?: UploadTransport
}) {
  const { assembly, parts } = props
  const setup = useSetupEditable()
  const pushToast = usePushToast()
  const assemblyId = assembly?.id ?? 0
  const create = useCreateAssemblyPartsMutation(assemblyId)
  const update = useUpdateAssemblyPartsMutation(assemblyId)
  const remove = useDeleteAssemblyPartsMutation(assemblyId)
  const [checked, setChecked] = useState<Set<string>>(() => new Set())
  const [tab, setTab] = useState<WizardTab>('solids')
  const [hints, setHints] = useState(true)
  const hintsId = useId()
  const tree = isImportCompleted(assembly) ? (assembly?.assemblyMetadata ?? null) : null
  const index = useMemo(() => indexTree(tree ?? []), [tree])
  const labels = useMemo(() => labelsOf(tree), [tree])
  const topChecked = useMemo(() => topCheckedNodes(tree ?? [], checked), [tree, checked])
  // Components of one name (eight 'nut's) give one line each: the same line is shown once.
  const duplicates = useMemo(
    () => [...new Set(duplicateComponentMessages(parts, tree))],
    [parts, tree],
  )
  const disabled = !setup.editable || tree === null

  const nodesOf = (ids: readonly string[]): AssemblyNode[] =>
    ids.flatMap((id) => index.get(id)?.node ?? [])
  const createParts = (bodies: AssemblyPartCreate[], clearChecks: boolean) => {
    if (bodies.length === 0 || disabled) return
    create.mutate(bodies, { onSuccess: () => clearChecks && setChecked(new Set()) })
  }
  const addToPart = (part: AssemblyPart, nodeIds: readonly string[], clearChecks: boolean) => {
    const body = addNodesUpdate(part, nodeIds)
    if (!body || disabled) return
    update.mutate([body], { onSuccess: () => clearChecks && setChecked(new Set()) })
  }
  const mergeOf = (nodes: readonly AssemblyNode[]) => {
    const body = mergeBody(nodes, tab, parts)
    return body ? [body] : []
  }

  const drop = (nodeIds: string[], target: DropTarget) => {
    const fromChecks = nodeIds.every((id) => checked.has(id))
    if (target.kind === 'create') return createParts(mergeOf(nodesOf(nodeIds)), fromChecks)
    const part = parts.find((p) => p.id === target.partId)
    if (part) addToPart(part, nodeIds, fromChecks)
  }
  const { drag, begin } = useNodeDrag(drop)

  const importConfiguration = async (file: File) => {
    const parsed = parseConfiguration(await file.text())
    if (!parsed.ok) {
      // Text that is not JSON is only logged (spec/setup.md §2).
      if (parsed.reason === 'json') return console.error('Configuration is not JSON', parsed.error)
      return pushToast({ kind: 'error', title: CONFIGURATION_INVALID, description: file.name })
    }
    const bodies = configurationBodies(parsed.configuration, tree ?? [], parts)
    if (bodies.length === 0)
      return pushToast({ kind: 'warning', title: CONFIGURATION_UNUSABLE, description: file.name })
    createParts(bodies, false)
  }

  return (
    <>
      <div className="dialog__body assembly-step">
        <div className="assembly-step__bar">
          <AssemblyFileSection
            simulationId={props.simulationId}
            assembly={assembly}
            onAssemblyChange={(id) => {
              setChecked(new Set())
              props.onAssemblyChange(id)
            }}
            disabled={!setup.editable}
            transport={props.transport}
          />
          <div className="assembly-step__tools">
            <FileButton
              label="Import configuration"
              accept=".json,application/json"
              multiple={false}
              disabled={disabled}
              onFiles={(files) => files[0] && void importConfiguration(files[0])}
            />
            <button
              type="button"
              className="button button--ghost button--small"
              aria-expanded={hints}
              aria-controls={hintsId}
              onClick={() => setHints((shown) => !shown)}
            >
              {hints ? 'Hide Hints' : 'Show Hints'}
            </button>
          </div>
        </div>
        {hints && (
          <ul id={hintsId} className="assembly-step__hints">
            {ORGANIZE_HINTS.map((hint) => (
              <li key={hint}>{hint}</li>
            ))}
          </ul>
        )}
        <div className="assembly-step__columns">
          <section className="assembly-components" aria-label="Components">
            {tree ? (
              <AssemblyTree
                key={assemblyId}
                tree={tree}
                checked={checked}
                onCheckedChange={setChecked}
                disabled={disabled}
                onImportNode={(node) => createParts(importBodies([node], tab, parts), false)}
                onPressNode={(event, node) => {
                  const ids = draggedNodeIds(
                    node.entryId,
                    checked,
                    topChecked.map((n) => n.entryId),
                  )
                  begin(
                    event,
                    ids,
                    nodesOf(ids).map((n) => n.labelName || n.entryId),
                  )
                }}
              />
            ) : (
              <p className="assembly-components__empty">
                {assembly
                  ? 'The components show once the file is read.'
                  : 'Choose a STEP file to see its components.'}
              </p>
            )}
            <div className="assembly-components__actions">
              <span className="assembly-components__count" aria-live="polite">
                {topChecked.length} checked
              </span>
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={disabled || !canImportNodes(topChecked.length) || create.isPending}
                onClick={() => createParts(importBodies(topChecked, tab, parts), true)}
              >
                Import
              </button>
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={disabled || !canMergeImportNodes(topChecked.length) || create.isPending}
                onClick={() => createParts(mergeOf(topChecked), true)}
              >
                Merge & Import
              </button>
            </div>
          </section>
          <AssemblyPartsPanel
            parts={parts}
            labels={labels}
            tab={tab}
            onTabChange={setTab}
            checkedCount={topChecked.length}
            dragOver={drag?.over ?? null}
            dragging={drag !== null}
            duplicateMessages={duplicates}
            disabled={disabled}
            onRename={(part, name) => update.mutate([{ id: part.id, name }])}
            onTypeChange={(part, componentType) => update.mutate([{ id: part.id, componentType }])}
            onDelete={(part) => remove.mutate([part.id])}
            onAddChecked={(part) =>
              addToPart(
                part,
                topChecked.map((n) => n.entryId),
                true,
              )
            }
            onCreateFromChecked={() => createParts(mergeOf(topChecked), true)}
          />
        </div>
      </div>
      <footer className="dialog__footer">
        <button type="button" className="button button--secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={!canGoNext(assembly, parts)}
          onClick={props.onNext}
        >
          Next
        </button>
      </footer>
      {drag && <DragOverlay drag={drag} />}
    </>
  )
}

/** The names under the pointer while dragging: 6, then '+N more'. */
function DragOverlay({ drag }: { drag: NodeDrag }) {
  const lines = dragOverlayLines(drag.names)
  return createPortal(
    <div
      className="assembly-drag"
      data-testid="assembly-drag"
      aria-hidden="true"
      style={{ left: drag.at.x + 12, top: drag.at.y + 12 }}
    >
      {lines.names.map((name, i) => (
        <span key={i} className="assembly-drag__name">
          {name}
        </span>
      ))}
      {lines.more && <span className="assembly-drag__more">{lines.more}</span>}
    </div>,
    document.body,
  )
}
