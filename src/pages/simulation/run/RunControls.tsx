import { useState } from 'react'
import { progressTooltip } from '../../../../domain/jobs.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { RUN_TEXTS } from '../../../../domain/rest/runRoutes.ts'
import { progressBarType, runStatus } from '../../../../domain/simulationState.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { Dialog } from '../../../components/Dialog.tsx'
import { Spinner } from '../../../components/Spinner.tsx'
import { usePushToast } from '../../../components/Toasts.tsx'
import { Tooltip } from '../../../components/Tooltip.tsx'
import { useLiveSimulation } from '../../../live/useLiveSimulation.ts'
import { runButtonFor, type RunAction } from './runButton.ts'
import {
  useSetupValidationQuery,
  useSolversQuery,
  useStopRunMutation,
  useUnlockSetupMutation,
} from './runQueries.ts'
import { StartRunDialog } from './StartRunDialog.tsx'
import './run.css'

type OpenDialog = 'start' | 'resume' | 'restart-confirm' | 'restart' | 'stop' | 'unlock' | null

/**
 * The simulation header's run controls: the Run / Stop / Resume / Restart button with its
 * dialogs, and the progress bar. Follows the simulation on the live channel, so state and
 * progress arrive without polling.
 */
export function RunControls({ simulation }: { simulation: Simulation }) {
  useLiveSimulation(simulation.id)
  const solvers = useSolversQuery()
  const validation = useSetupValidationQuery(simulation)
  const [dialog, setDialog] = useState<OpenDialog>(null)
  const status = runStatus(simulation.state, simulation.setupLocked, simulation.resumable)
  const button = runButtonFor({
    status,
    // Unknown while loading: do not flash a disabled button. A resumed run keeps its solver type.
    solverAvailable:
      solvers.data === undefined ||
      (status === 'resumable'
        ? solvers.data.some((s) => s.gpu === simulation.gpu)
        : solvers.data.length > 0),
    setupBlocked: validation.data?.runnable === false,
  })
  const open: Record<RunAction, OpenDialog> = {
    start: 'start',
    resume: 'resume',
    restart: 'restart-confirm',
    stop: 'stop',
    none: null,
  }
  const progress = simulation.log?.progress ?? (simulation.state === 'completed' ? 1 : 0)
  const showProgress = simulation.state !== 'not started'

  const control = (
    <button
      type="button"
      className={`button button--small ${button.action === 'stop' ? 'button--danger' : 'button--primary'}`}
      disabled={button.disabled}
      aria-busy={button.loading || undefined}
      onClick={() => setDialog(open[button.action])}
    >
      {button.loading && <Spinner label={RUN_TEXTS.stopping} size={12} />}
      {button.label}
    </button>
  )

  const canUnlock = simulation.setupLocked && (status === 'resumable' || status === 'restartable')

  return (
    <div className="run-controls">
      {canUnlock && (
        <Tooltip content={RUN_TEXTS.lockedTooltip}>
          <button
            type="button"
            className="tag run-controls__badge"
            onClick={() => setDialog('unlock')}
          >
            {RUN_TEXTS.editSetup}
          </button>
        </Tooltip>
      )}
      {showProgress && <RunProgress simulation={simulation} progress={progress} />}
      {button.tooltip ? (
        <Tooltip content={button.tooltip}>
          <span className="run-controls__disabled" tabIndex={0}>
            {control}
          </span>
        </Tooltip>
      ) : (
        control
      )}
      {(dialog === 'start' || dialog === 'restart' || dialog === 'resume') && (
        <StartRunDialog
          simulation={simulation}
          mode={dialog}
          solvers={solvers.data ?? []}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'restart-confirm' && (
        <ConfirmDialog
          title={RUN_TEXTS.restartTitle}
          text={
            simulation.setupLocked && simulation.resumable
              ? RUN_TEXTS.restartText
              : `${RUN_TEXTS.restartText} ${RUN_TEXTS.restartAfterEdit}`
          }
          confirmLabel={RUN_TEXTS.restartConfirm}
          onConfirm={() => setDialog('restart')}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'stop' && (
        <StopRunDialog simulation={simulation} onClose={() => setDialog(null)} />
      )}
      {dialog === 'unlock' && (
        <UnlockSetupDialog simulation={simulation} onClose={() => setDialog(null)} />
      )}
    </div>
  )
}

/** The run's progress bar; its tooltip is the percent. */
function RunProgress({ simulation, progress }: { simulation: Simulation; progress: number }) {
  const tooltip = progressTooltip(progress)
  const percent = Number.parseInt(tooltip, 10)
  return (
    <Tooltip content={tooltip}>
      <div
        className={`progress run-controls__progress progress--${progressBarType(simulation.state)}`}
        role="progressbar"
        aria-label="Run progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={tooltip}
      >
        <span className="progress__fill" style={{ width: tooltip }} />
      </div>
    </Tooltip>
  )
}

function ConfirmDialog({
  title,
  text,
  confirmLabel,
  onConfirm,
  onClose,
  busy = false,
  danger = false,
}: {
  title: string
  text: string
  confirmLabel: string
  onConfirm: () => void
  onClose: () => void
  busy?: boolean
  danger?: boolean
}) {
  return (
    <Dialog title={title} onClose={onClose} size="small">
      <div className="dialog__body">
        <p>{text}</p>
      </div>
      <footer className="dialog__footer">
        <button type="button" className="button button--secondary" onClick={onClose}>
          {RUN_TEXTS.stopCancel}
        </button>
        <button
          type="button"
          className={`button ${danger ? 'button--danger' : 'button--primary'}`}
          disabled={busy}
          onClick={onConfirm}
          data-autofocus
        >
          {busy && <Spinner size={12} />}
          {confirmLabel}
        </button>
      </footer>
    </Dialog>
  )
}

/** Asks before unlocking the setup, which gives up resuming for good. */
function UnlockSetupDialog({
  simulation,
  onClose,
}: {
  simulation: Simulation
  onClose: () => void
}) {
  const unlock = useUnlockSetupMutation(simulation.id)
  const pushToast = usePushToast()
  return (
    <ConfirmDialog
      title={RUN_TEXTS.unlockTitle}
      text={`${RUN_TEXTS.unlockText} ${RUN_TEXTS.restartAfterEdit}`}
      confirmLabel={RUN_TEXTS.unlockConfirm}
      busy={unlock.isPending}
      onClose={onClose}
      onConfirm={() =>
        unlock.mutate(undefined, {
          onSettled: onClose,
          onError: (error) => pushToast({ kind: 'error', title: messageOf(error) }),
        })
      }
    />
  )
}

/** Asks before stopping; says whether the run can be resumed afterwards. */
function StopRunDialog({ simulation, onClose }: { simulation: Simulation; onClose: () => void }) {
  const stop = useStopRunMutation(simulation.id)
  const pushToast = usePushToast()
  // A run that has written an output can be resumed from it after the stop.
  const resumable = simulation.log !== null && simulation.log.output >= 0
  return (
    <ConfirmDialog
      title={RUN_TEXTS.stopTitle}
      text={resumable ? RUN_TEXTS.stopResumableText : RUN_TEXTS.stopNotResumableText}
      confirmLabel={RUN_TEXTS.stopConfirm}
      danger
      busy={stop.isPending}
      onClose={onClose}
      onConfirm={() =>
        stop.mutate(undefined, {
          onSuccess: () => {
            pushToast({
              kind: 'info',
              title: RUN_TEXTS.stoppingToastTitle,
              description: RUN_TEXTS.stoppingToastText,
            })
            onClose()
          },
          onError: () => {
            pushToast({
              kind: 'error',
              title: RUN_TEXTS.stopFailedTitle,
              // The spec's words only: 'Unknown error' and the like say nothing to act on.
              description: RUN_TEXTS.stopFailedText,
            })
            onClose()
          },
        })
      }
    />
  )
}
