import { useId, useState } from 'react'
import {
  TEMPLATE_NAME_TAKEN_MESSAGE,
  VIEW_NAME_MAX_LENGTH,
  VIEW_NAME_TAKEN_MESSAGE,
  dashboardNameError,
  type DashboardTemplate,
  type DashboardView,
} from '../../../../domain/dashboards.ts'
import { messageOf } from '../../../api/ApiError.ts'
import { Dialog } from '../../../components/Dialog.tsx'
import { TextField } from '../../../components/Field.tsx'

/** A dialog with one name field (and optional extra fields) checked by the spec's name rules. */
function NameDialog({
  title,
  submitLabel,
  takenNames,
  takenMessage,
  onSubmit,
  onClose,
  children,
}: {
  title: string
  submitLabel: string
  takenNames: readonly string[]
  takenMessage: string
  onSubmit: (name: string) => Promise<unknown>
  onClose: () => void
  children?: React.ReactNode
}) {
  const [name, setName] = useState('')
  const [touched, setTouched] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const error = dashboardNameError(name, takenNames, takenMessage)
  return (
    <Dialog title={title} onClose={onClose} size="small">
      <form
        className="dialog__form"
        onSubmit={(event) => {
          event.preventDefault()
          setTouched(true)
          if (error) return
          setBusy(true)
          setFailure(null)
          onSubmit(name.trim())
            .then(onClose, (reason: unknown) => setFailure(messageOf(reason)))
            .finally(() => setBusy(false))
        }}
      >
        <div className="dialog__body form">
          <TextField
            label="Name"
            value={name}
            onChange={(value) => {
              setName(value)
              setTouched(true)
            }}
            error={touched ? error : null}
            maxLength={VIEW_NAME_MAX_LENGTH + 1}
            autoFocus
          />
          {children}
          {failure && (
            <p className="field__error" role="alert">
              {failure}
            </p>
          )}
        </div>
        <footer className="dialog__footer">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={error !== null || busy}
            title={error ?? undefined}
          >
            {submitLabel}
          </button>
        </footer>
      </form>
    </Dialog>
  )
}

/**
 * The dashboard's control row: the view picker, New view (empty or from a template, where a
 * template can be deleted), Save as template, Make default, Delete view, and the graph-unit switch (simulated time or percent).
 */
export function ViewBar({
  views,
  current,
  templates,
  onSelect,
  onCreateView,
  onCreateTemplate,
  onDeleteTemplate,
  onMakeDefault,
  onDeleteView,
  percentage,
  onPercentageChange,
}: {
  views: readonly DashboardView[]
  current: DashboardView
  templates: readonly DashboardTemplate[]
  onSelect: (viewId: number) => void
  onCreateView: (input: { name: string; templateId: number | null }) => Promise<unknown>
  onCreateTemplate: (name: string) => Promise<unknown>
  /** Deletes a template (its creator or a role that may; the server answers 403 otherwise). */
  onDeleteTemplate: (id: number) => Promise<unknown>
  onMakeDefault: () => void
  onDeleteView: () => void
  percentage: boolean
  onPercentageChange: (percentage: boolean) => void
}) {
  const [dialog, setDialog] = useState<'view' | 'template' | null>(null)
  const [templateId, setTemplateId] = useState<number | null>(null)
  const selectId = useId()
  const templateSelectId = useId()
  const chosenTemplate = templates.find((template) => template.id === templateId)
  return (
    <div className="dashboard-bar" role="toolbar" aria-label="Dashboard views">
      <label htmlFor={selectId} className="dashboard-bar__label">
        View
      </label>
      <select
        id={selectId}
        className="select select--compact"
        value={current.id}
        onChange={(event) => onSelect(Number(event.target.value))}
      >
        {views.map((view) => (
          <option key={view.id} value={view.id}>
            {view.default ? `${view.name} (default)` : view.name}
          </option>
        ))}
      </select>
      <button type="button" className="button button--small" onClick={() => setDialog('view')}>
        New view
      </button>
      <button type="button" className="button button--small" onClick={() => setDialog('template')}>
        Save as template
      </button>
      {!current.default && (
        <>
          <button type="button" className="button button--small" onClick={onMakeDefault}>
            Make default
          </button>
          <button type="button" className="button button--small" onClick={onDeleteView}>
            Delete view
          </button>
        </>
      )}
      <label className="checkbox dashboard-bar__switch">
        <input
          type="checkbox"
          role="switch"
          checked={percentage}
          onChange={(event) => onPercentageChange(event.target.checked)}
        />
        Graphs in percent of progress
      </label>
      {dialog === 'view' && (
        <NameDialog
          title="New view"
          submitLabel="Add view"
          takenNames={views.map((view) => view.name)}
          takenMessage={VIEW_NAME_TAKEN_MESSAGE}
          onSubmit={(name) => onCreateView({ name, templateId })}
          onClose={() => {
            setDialog(null)
            setTemplateId(null)
          }}
        >
          <div className="field">
            <label htmlFor={templateSelectId} className="field__label">
              Template
            </label>
            <select
              id={templateSelectId}
              className="select"
              value={templateId ?? ''}
              onChange={(event) =>
                setTemplateId(event.target.value === '' ? null : Number(event.target.value))
              }
            >
              <option value="">No template (empty view)</option>
              {templates.map((template) => (
                <option key={template.id} value={template.id}>
                  {template.name}
                </option>
              ))}
            </select>
          </div>
          {chosenTemplate && (
            <button
              type="button"
              className="button button--small"
              onClick={() =>
                onDeleteTemplate(chosenTemplate.id).then(
                  () => setTemplateId(null),
                  () => undefined,
                )
              }
            >
              {`Delete template ${chosenTemplate.name}`}
            </button>
          )}
        </NameDialog>
      )}
      {dialog === 'template' && (
        <NameDialog
          title="Save view as template"
          submitLabel="Save template"
          takenNames={templates.map((template) => template.name)}
          takenMessage={TEMPLATE_NAME_TAKEN_MESSAGE}
          onSubmit={onCreateTemplate}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  )
}
