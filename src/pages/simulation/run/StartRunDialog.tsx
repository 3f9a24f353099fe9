import { useId, useState } from 'react'
import {
  CONDITION_ACTIONS,
  CONDITION_VALUE_TYPE_LABELS,
  CONDITION_VALUE_TYPES,
  LIMIT_UNITS,
  limitToThreshold,
  thresholdToLimit,
  type ConditionAction,
  type ConditionValueType,
} from '../../../../domain/conditions.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { RUN_TEXTS, type Solver } from '../../../../domain/rest/runRoutes.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { Dialog } from '../../../components/Dialog.tsx'
import { Spinner } from '../../../components/Spinner.tsx'
import { useCurrentUser } from '../../../lib/currentUser.ts'
import { useHasFeature, useOrganizationQuery } from '../../../queries/queries.ts'
import { coreOptions, solverLabel, startLimitOf } from './runButton.ts'
import {
  useAddConditionMutation,
  useDeleteConditionMutation,
  useNextRunConditionsQuery,
  useStartRunMutation,
} from './runQueries.ts'

/** Titles of the start form per mode. */
const TITLES = {
  start: 'Run simulation',
  restart: 'Restart simulation',
  resume: 'Resume simulation',
} as const

/**
 * The start form: step 1 General (solver, cores), step 2 Alerts (stop and warning conditions of
 * the run), then Start; the result screen shows loading, the failure or the success.
 */
export function StartRunDialog({
  simulation,
  mode,
  solvers,
  onClose,
}: {
  simulation: Simulation
  mode: keyof typeof TITLES
  solvers: readonly Solver[]
  onClose: () => void
}) {
  const start = useStartRunMutation(simulation.id)
  // The result screen observes nothing but the start: while launching, the organization's credits
  // change with every log line, and an observed organizations query refetched each time (issue 14).
  if (start.isIdle)
    return (
      <StartForm
        simulation={simulation}
        mode={mode}
        solvers={solvers}
        onClose={onClose}
        onStart={(input) => start.mutate(input)}
      />
    )
  return (
    <Dialog title={TITLES[mode]} onClose={onClose} size="small">
      <div className="dialog__body run-result" role="status">
        {start.isPending && (
          <>
            <Spinner size={22} label="Starting" />
            <p>Starting the simulation…</p>
          </>
        )}
        {start.isError && (
          <>
            <p className="run-result__title run-result__title--error">{RUN_TEXTS.startFailed}</p>
            <p>{messageOf(start.error)}</p>
          </>
        )}
        {start.isSuccess && (
          <>
            <p className="run-result__title">The simulation is launching!</p>
            <p>Progress shows in the header and on the Monitor page.</p>
          </>
        )}
      </div>
      <footer className="dialog__footer">
        {start.isError && (
          <button type="button" className="button button--secondary" onClick={() => start.reset()}>
            Back
          </button>
        )}
        <button type="button" className="button button--primary" onClick={onClose} data-autofocus>
          Done
        </button>
      </footer>
    </Dialog>
  )
}

/** Steps 1 (General) and 2 (Alerts) of the start form. */
function StartForm({
  simulation,
  mode,
  solvers,
  onClose,
  onStart,
}: {
  simulation: Simulation
  mode: keyof typeof TITLES
  solvers: readonly Solver[]
  onClose: () => void
  onStart: (input: { cores: number; solverId: number; resume: boolean }) => void
}) {
  const user = useCurrentUser()
  const organization = useOrganizationQuery(user.organization.id)
  const cpuChoice = useHasFeature(user.organization.id, 'cpu')
  const [step, setStep] = useState<1 | 2>(1)
  const cores = coreOptions(organization.data?.activeSubscription?.maxCores)
  // Until chosen: the previous run's cores, else the most the subscription allows (known later).
  const [chosenCores, setCoreCount] = useState<number | null>(simulation.cores)
  const coreCount = chosenCores ?? cores[cores.length - 1] ?? 1
  // A resumed run keeps the solver type of the original.
  const choosable = mode === 'resume' ? solvers.filter((s) => s.gpu === simulation.gpu) : solvers
  const [chosenSolverId, setSolverId] = useState<number | undefined>(undefined)
  const solverId = chosenSolverId ?? choosable[0]?.id
  // Cores are the CPU solver's threads; the GPU solver runs on the card (one core's credits).
  const onGpu = choosable.find((s) => s.id === solverId)?.gpu === true
  const coresId = useId()
  const solverLabelId = useId()
  // The organization's limits (maximum simulations, an occupied free instance) block the start.
  const limit = startLimitOf(organization.data)

  const submit = () => {
    if (solverId === undefined) return
    onStart({ cores: onGpu ? 1 : coreCount, solverId, resume: mode === 'resume' })
  }

  return (
    <Dialog
      title={TITLES[mode]}
      subtitle={step === 1 ? 'Step 1 of 2: General' : 'Step 2 of 2: Alerts'}
      onClose={onClose}
    >
      <div className="dialog__body form">
        <ol className="run-steps" aria-label="Steps">
          <li aria-current={step === 1 ? 'step' : undefined}>1. General</li>
          <li aria-current={step === 2 ? 'step' : undefined}>2. Alerts</li>
        </ol>
        {step === 1 ? (
          <>
            {mode === 'restart' && <p className="field__hint">{RUN_TEXTS.restartAfterEdit}</p>}
            {limit && (
              <p className="field__error" role="alert">
                {limit}
              </p>
            )}
            <div className="field" role="radiogroup" aria-labelledby={solverLabelId}>
              <span id={solverLabelId} className="field__label">
                Solver
              </span>
              {choosable.length === 0 && <p className="field__error">{RUN_TEXTS.noSolver}</p>}
              {choosable.map((solver) => (
                <label key={solver.id} className="check">
                  <input
                    type="radio"
                    name="solver"
                    checked={solverId === solver.id}
                    // The CPU/GPU choice is gated by the cpu feature; without it the default stays.
                    disabled={!cpuChoice && choosable.length > 1}
                    onChange={() => setSolverId(solver.id)}
                  />
                  {solverLabel(solver, solver.gpu)}
                </label>
              ))}
              {!cpuChoice && choosable.length > 1 && (
                <p className="field__hint">
                  The choice between the GPU and CPU solvers is part of the cpu feature of your
                  subscription.
                </p>
              )}
            </div>
            {onGpu ? (
              <p className="field__hint">{RUN_TEXTS.coresGpuHint}</p>
            ) : (
              <div className="field">
                <label htmlFor={coresId} className="field__label">
                  Cores
                </label>
                <select
                  id={coresId}
                  className="select"
                  value={coreCount}
                  onChange={(event) => setCoreCount(Number(event.target.value))}
                >
                  {cores.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
                <p className="field__hint">Limited by your subscription's maximum cores.</p>
              </div>
            )}
          </>
        ) : (
          <AlertsStep simulation={simulation} />
        )}
      </div>
      <footer className="dialog__footer">
        {step === 2 && (
          <button type="button" className="button button--secondary" onClick={() => setStep(1)}>
            Back
          </button>
        )}
        {step === 1 ? (
          <button
            type="button"
            className="button button--primary"
            disabled={solverId === undefined || limit !== null}
            onClick={() => setStep(2)}
          >
            Next
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary"
            disabled={solverId === undefined || limit !== null}
            onClick={submit}
          >
            Start
          </button>
        )}
      </footer>
    </Dialog>
  )
}

/** Stop and warning conditions of the next run: the list and a row to add one. */
export function AlertsStep({ simulation }: { simulation: Simulation }) {
  const conditions = useNextRunConditionsQuery(simulation.id, true)
  const add = useAddConditionMutation(simulation.id)
  const remove = useDeleteConditionMutation()
  const [valueType, setValueType] = useState<ConditionValueType>('runtime')
  const [action, setAction] = useState<ConditionAction>('stop')
  const [limit, setLimit] = useState('')
  const typeId = useId()
  const actionId = useId()
  const limitId = useId()
  const limitNumber = limit.trim() === '' ? Number.NaN : Number(limit)

  return (
    <>
      <p className="field__hint">Optional: stop the run or warn when a value reaches its limit.</p>
      {conditions.data && conditions.data.length > 0 && (
        <ul className="run-conditions">
          {conditions.data.map((condition) => (
            <li key={condition.id}>
              <span>
                {condition.action === 'stop' ? 'Stop' : 'Warn'} at{' '}
                {CONDITION_VALUE_TYPE_LABELS[condition.valueType]}{' '}
                {thresholdToLimit(condition.valueType, condition.threshold)}{' '}
                {LIMIT_UNITS[condition.valueType]}
              </span>
              <button
                type="button"
                className="button button--ghost button--small"
                onClick={() => remove.mutate(condition.id)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="run-conditions__add">
        <div className="field">
          <label htmlFor={actionId} className="field__label">
            Action
          </label>
          <select
            id={actionId}
            className="select"
            value={action}
            onChange={(event) => setAction(event.target.value as ConditionAction)}
          >
            {CONDITION_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a === 'stop' ? 'Stop' : 'Warning'}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={typeId} className="field__label">
            Value
          </label>
          <select
            id={typeId}
            className="select"
            value={valueType}
            onChange={(event) => setValueType(event.target.value as ConditionValueType)}
          >
            {CONDITION_VALUE_TYPES.map((t) => (
              <option key={t} value={t}>
                {CONDITION_VALUE_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={limitId} className="field__label">
            Limit ({LIMIT_UNITS[valueType]})
          </label>
          <input
            id={limitId}
            className="input"
            inputMode="decimal"
            value={limit}
            onChange={(event) => setLimit(event.target.value)}
          />
        </div>
        <button
          type="button"
          className="button button--secondary"
          disabled={!Number.isFinite(limitNumber) || add.isPending}
          onClick={() =>
            add.mutate(
              { valueType, action, threshold: limitToThreshold(valueType, limitNumber) },
              { onSuccess: () => setLimit('') },
            )
          }
        >
          Add
        </button>
      </div>
      {add.isError && <p className="field__error">{messageOf(add.error)}</p>}
    </>
  )
}
