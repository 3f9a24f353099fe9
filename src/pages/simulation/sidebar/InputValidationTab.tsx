import { Link } from 'react-router'
import type { Simulation } from '../../../../domain/projects.ts'
import type { Issue, IssueLevel } from '../../../../domain/validation.ts'
import { IconCheck, IconError, IconInfo, IconWarning } from '../../../components/icons.tsx'
import { LoadingBlock } from '../../../components/Spinner.tsx'
import { messageOf } from '../../../api/ApiError.ts'
import { useSetupIssuesQuery } from '../setup/queries/setupQueries.ts'
import { simulationPageLink } from '../../projects/projectLinks.ts'

/** The checklist is disabled in the postprocessor (spec/results.md §2). */
export const GO_TO_SETUP_TO_VALIDATE = 'Go to the setup to validate'

/** The checklist's items: one per issue level, passed when the setup has none of that level. */
const CHECKS: readonly { level: IssueLevel; passed: string; failed: (n: number) => string }[] = [
  {
    level: 'error',
    passed: 'No errors',
    failed: (n) => `${n} ${n === 1 ? 'error' : 'errors'} to fix`,
  },
  {
    level: 'info',
    passed: 'All inputs provided',
    failed: (n) => `${n} missing ${n === 1 ? 'input' : 'inputs'}`,
  },
  {
    level: 'warning',
    passed: 'No warnings',
    failed: (n) => `${n} ${n === 1 ? 'warning' : 'warnings'}`,
  },
]

const ICONS = { error: IconError, warning: IconWarning, info: IconInfo } as const

/**
 * Input Validation of the Run sidebar: the setup's checklist (errors, missing inputs, warnings)
 * and each issue. In the postprocessor it is disabled: 'Go to the setup to validate'.
 */
export function InputValidationTab({
  simulation,
  disabled,
}: {
  simulation: Simulation
  /** The Results page: no checklist, a link to the setup instead. */
  disabled: boolean
}) {
  if (disabled || simulation.uploadedSetup)
    return (
      <div className="run-sidebar__disabled" aria-disabled="true">
        {simulation.uploadedSetup ? (
          <p>An uploaded setup is not validated.</p>
        ) : (
          <Link to={simulationPageLink(simulation.id, 'preprocessor')}>
            {GO_TO_SETUP_TO_VALIDATE}
          </Link>
        )}
      </div>
    )
  return <Checklist simulation={simulation} />
}

function Checklist({ simulation }: { simulation: Simulation }) {
  const validation = useSetupIssuesQuery(simulation.id)
  if (validation.isError)
    return (
      <p className="alert alert--error" role="alert">
        {messageOf(validation.error)}
      </p>
    )
  if (!validation.data) return <LoadingBlock label="Checking the setup" />
  const issues = validation.data.issues
  const ofLevel = (level: IssueLevel): Issue[] => issues.filter((i) => i.level === level)
  return (
    <>
      <ul className="run-sidebar__checklist" aria-label="Setup checklist">
        {CHECKS.map((check) => {
          const count = ofLevel(check.level).length
          const Icon = count === 0 ? IconCheck : ICONS[check.level]
          return (
            <li
              key={check.level}
              className={`run-sidebar__check run-sidebar__check--${count === 0 ? 'passed' : check.level}`}
            >
              <Icon aria-hidden="true" />
              <span>{count === 0 ? check.passed : check.failed(count)}</span>
            </li>
          )
        })}
      </ul>
      {issues.length > 0 && (
        <ul className="run-sidebar__issues" aria-label="Setup issues">
          {issues.map((i, index) => (
            <li key={index} className={`run-sidebar__issue run-sidebar__issue--${i.level}`}>
              {i.message}
            </li>
          ))}
        </ul>
      )}
      <Link
        className="button button--secondary button--small"
        to={simulationPageLink(simulation.id, 'preprocessor')}
      >
        Open the setup
      </Link>
    </>
  )
}
