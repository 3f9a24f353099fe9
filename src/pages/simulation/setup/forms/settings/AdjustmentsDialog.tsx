import { SETTINGS_MESSAGES } from '../../../../../../domain/settingsRules.ts'
import { Dialog } from '../../../../../components/Dialog.tsx'

/**
 * 'Advanced Settings Were Adjusted' (spec/setup.md §4): what a switch (multiphase on or off)
 * changed in the other settings, one line each ('Disabled density limiter', …).
 */
export function AdjustmentsDialog({
  adjustments,
  onClose,
}: {
  adjustments: readonly string[]
  onClose: () => void
}) {
  return (
    <Dialog title={SETTINGS_MESSAGES.adjustedTitle} size="small" onClose={onClose}>
      <div className="dialog__body">
        <p>Switching this setting changed other settings of the simulation:</p>
        <ul className="adjustments-list">
          {adjustments.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <footer className="dialog__footer">
        <button type="button" className="button button--primary" data-autofocus onClick={onClose}>
          OK
        </button>
      </footer>
    </Dialog>
  )
}
