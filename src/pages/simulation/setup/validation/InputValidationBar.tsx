import { useAtomValue, useSetAtom } from 'jotai'
import { useId, useMemo, useState } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { EMPTY_SETUP_MESSAGE } from '../../../../../domain/setupValidation.ts'
import type { Issue, IssueLevel } from '../../../../../domain/validation.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { IconCheck, IconError, IconInfo, IconWarning } from '../../../../components/icons.tsx'
import { viewportEngineAtom } from '../../../../state/viewportAtoms.ts'
import { useDiscretizationMessages } from '../discretization/discretizationModel.ts'
import { sensorEditBlocker } from '../explorer/openObject.ts'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { useMovementsQuery, usePartsQuery, useSetupIssuesQuery } from '../queries/setupQueries.ts'
import { setupObjectDialogAtom, setupSelectionAtom, sideFormAtom } from '../state/setupAtoms.ts'
import { issueTargetOf, type IssueTarget } from './issueTarget.ts'
import './validation.css'

/** Levels, worst first, with their icons and how a count reads. */
const LEVELS: readonly {
  level: IssueLevel
  Icon: typeof IconError
  noun: string
  label: string
}[] = [
  { level: 'error', Icon: IconError, noun: 'error', label: 'Error' },
  { level: 'warning', Icon: IconWarning, noun: 'warning', label: 'Warning' },
  { level: 'info', Icon: IconInfo, noun: 'missing input', label: 'Missing input' },
]

const countLabel = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`

/** The setup's issues and the latest discretization's, each once, worst first. */
export function barIssues(server: readonly Issue[], discretization: readonly Issue[]): Issue[] {
  const seen = new Set<string>()
  const rank = { error: 0, warning: 1, info: 2 } as const
  return [...server, ...discretization]
    .filter((i) => {
      const key = `${i.level}\n${i.field}\n${i.message}`
      return !seen.has(key) && seen.add(key)
    })
    .sort((a, b) => rank[a.level] - rank[b.level])
}

/**
 * The Input Validation bar under the Setup view (spec/setup.md §5, spec/results.md "Input
 * Validation"): the setup's errors, warnings and missing inputs (GET setup_validation) and the
 * latest discretization's messages, counted by level with icons, listed when expanded; an item
 * selects the object its field names and opens the form (or folder) that shows the field.
 */
export function InputValidationBar({ simulation }: { simulation: Simulation }) {
  const validation = useSetupIssuesQuery(simulation.id)
  const discretization = useDiscretizationMessages(simulation.id).issues
  const parts = usePartsQuery(simulation.id)
  const movements = useMovementsQuery(simulation.id).data ?? []
  const setSelection = useSetAtom(setupSelectionAtom)
  const setForm = useSetAtom(sideFormAtom)
  const setDialog = useSetAtom(setupObjectDialogAtom)
  const engine = useAtomValue(viewportEngineAtom)
  const sensorBlocker = sensorEditBlocker(simulation, useSetupEditable())
  const [expanded, setExpanded] = useState(false)
  const listId = useId()
  const headingId = useId()

  const emptyScene = parts.isSuccess && parts.data.length === 0
  const issues = useMemo(
    () => barIssues(validation.data?.issues ?? [], discretization),
    [validation.data, discretization],
  )
  // The empty scene's item is the bar's headline, not a line of its list.
  const listed = issues.filter((i) => !(i.field === 'parts' && i.message === EMPTY_SETUP_MESSAGE))

  const goTo = (target: IssueTarget) => {
    setSelection(target.select)
    const first = target.select[0]
    if (first) engine?.dispatch({ type: 'setup_focus', id: first })
    if (target.open === null) return
    if ('form' in target.open) setForm(target.open.form)
    else if (sensorBlocker === null) setDialog(target.open.dialog)
  }

  return (
    <section className="validation-bar" aria-labelledby={headingId}>
      <div className="validation-bar__header">
        <h2 className="validation-bar__title" id={headingId}>
          Input Validation
        </h2>
        {validation.isPending && <span className="validation-bar__note">Checking…</span>}
        {validation.isError && (
          <span className="validation-bar__note validation-bar__note--error" role="alert">
            Could not check the setup: {messageOf(validation.error)}
          </span>
        )}
        {validation.isSuccess && (
          <ul className="validation-bar__counts" aria-label="Issue counts">
            {LEVELS.map(({ level, Icon, noun }) => {
              const count = issues.filter((i) => i.level === level).length
              return (
                <li
                  key={level}
                  className={`validation-bar__count validation-bar__count--${level}`}
                  data-count={count}
                >
                  <Icon width={14} height={14} aria-hidden="true" />
                  <span>{countLabel(count, noun)}</span>
                </li>
              )
            })}
          </ul>
        )}
        {emptyScene && <p className="validation-bar__empty">{EMPTY_SETUP_MESSAGE}</p>}
        {validation.isSuccess && issues.length === 0 && (
          <span className="validation-bar__note validation-bar__note--ok">
            <IconCheck width={14} height={14} aria-hidden="true" /> Ready to discretize
          </span>
        )}
        {listed.length > 0 && (
          <button
            type="button"
            className="button button--ghost button--small validation-bar__toggle"
            aria-expanded={expanded}
            aria-controls={expanded ? listId : undefined}
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? 'Hide issues' : `Show issues (${listed.length})`}
          </button>
        )}
      </div>
      {expanded && listed.length > 0 && (
        <ul className="validation-bar__list" id={listId} aria-label="Issues">
          {listed.map((issue) => {
            const level = LEVELS.find((l) => l.level === issue.level) ?? LEVELS[2]
            const target = issueTargetOf(issue.field, movements)
            const content = (
              <>
                {level && <level.Icon width={14} height={14} aria-hidden="true" />}
                {level && <span className="visually-hidden">{level.label}: </span>}
                <span className="validation-bar__message">{issue.message}</span>
              </>
            )
            return (
              <li
                key={`${issue.level}\n${issue.field}\n${issue.message}`}
                className={`validation-bar__item validation-bar__item--${issue.level}`}
              >
                {target ? (
                  <button
                    type="button"
                    className="validation-bar__link"
                    onClick={() => goTo(target)}
                  >
                    {content}
                  </button>
                ) : (
                  <span className="validation-bar__link validation-bar__link--static">
                    {content}
                  </span>
                )}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
