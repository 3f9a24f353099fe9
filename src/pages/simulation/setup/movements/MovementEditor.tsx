import { useId, useState, type ReactNode } from 'react'
import { TRUNCATE_CHARS } from '../../../../../domain/constants.ts'
import {
  MOVEMENT_TYPES,
  movementUnits,
  type Movement,
  type MovementType,
} from '../../../../../domain/movements.ts'
import type { Issue } from '../../../../../domain/validation.ts'
import type { Vec3 } from '../../../../../domain/vector.ts'
import { truncateText } from '../../../../components/TruncatedText.tsx'
import { SelectField, SwitchField } from '../forms/fields/ChoiceFields.tsx'
import { useSetupEditable } from '../forms/fields/editable.ts'
import { FieldIssues, issuesOfField } from '../forms/fields/FieldIssues.tsx'
import { NumberField } from '../forms/fields/NumberField.tsx'
import { VectorField } from '../forms/fields/VectorField.tsx'
import { SubmitButton } from './SubmitButton.tsx'
import {
  DRAFT_PREFIX,
  draftIssues,
  followerCandidates,
  leaderOptions,
  switchDraftType,
  type MovementDraft,
} from './movementDraft.ts'

/** Labels of the movement types. */
export const MOVEMENT_TYPE_LABELS: Record<MovementType, string> = {
  translatory: 'Translatory',
  rotatory: 'Rotatory',
}

/** Tooltip of the type select in edit mode (spec/setup.md §4). */
export const TYPE_LOCKED_REASON = 'The type can be switched only when adding a movement.'

/** A movement as the leader and follower lists name it: 'Part: movement'. */
export function movementLabel(movement: Movement, partName: string | undefined): string {
  const name = truncateText(movement.name, TRUNCATE_CHARS.movementName)
  const shown = name === movement.name ? name : `${name}…`
  return partName ? `${partName}: ${shown}` : shown
}

export interface MovementEditorProps {
  /** The values to start from (newMovementDraft or draftOfMovement). */
  initial: MovementDraft
  /** The movement edited; null while adding (then the type can be switched). */
  movementId: number | null
  /** Every (real) movement of the simulation: leader and follower choices, unique names. */
  movements: readonly Movement[]
  /** Part names by id, to label other parts' movements. */
  partNames: ReadonlyMap<number, string>
  /** The centre of the moved part, the start of an explicit rotation centre. */
  partCenter: Vec3
  /** The simulation's end time, s (null: not set). */
  endTime: number | null
  /** Saves valid values; the editor stays open while it runs. */
  onSubmit: (draft: MovementDraft) => Promise<void> | void
  onCancel: () => void
  submitLabel: string
  pending?: boolean
  /** Hides the leader and follower choices (a moving wall's virtual movement has none). */
  withLinks?: boolean
}

/**
 * The movement add/edit form (spec/setup.md §4, §5): type (switchable only when adding), name
 * (auto-generated until typed), start and end (empty: until the simulation end), acceleration and
 * velocity in the type's units, direction or axis and centre (empty: the part's centre), leaders
 * and followers. Errors stay hidden until the first submit; from then on Submit is disabled, with
 * the first error as its tooltip, while any remain.
 */
export function MovementEditor(props: MovementEditorProps) {
  const { movementId, movements, partNames, endTime, withLinks = true } = props
  const setup = useSetupEditable()
  const [draft, setDraft] = useState<MovementDraft>(props.initial)
  const [submitted, setSubmitted] = useState(false)
  const names = movements.filter((m) => m.id !== movementId).map((m) => m.name)
  const issues = draftIssues(draft, { endTime, movementId })
  const shown: readonly Issue[] = submitted ? issues : []
  const of = (field: string) => issuesOfField(shown, `${DRAFT_PREFIX}.${field}`)
  const units = movementUnits(draft.type)
  const blocked = submitted && issues.length > 0
  const set = (patch: Partial<MovementDraft>) => setDraft((old) => ({ ...old, ...patch }))

  const submit = () => {
    if (!setup.editable || props.pending) return
    setSubmitted(true)
    if (issues.length > 0) return
    void props.onSubmit(draft)
  }

  return (
    <form
      className="movement-editor"
      noValidate
      aria-label={movementId === null ? 'Add movement' : 'Edit movement'}
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      <div className="movement-editor__fields">
        <SelectField<MovementType>
          label="Type"
          value={draft.type}
          options={MOVEMENT_TYPES.map((type) => ({
            value: type,
            label: MOVEMENT_TYPE_LABELS[type],
          }))}
          disabled={movementId !== null}
          disabledReason={movementId !== null ? TYPE_LOCKED_REASON : null}
          onChange={(type) => setDraft((old) => switchDraftType(old, type, names))}
        />
        <NameInput
          value={draft.name}
          issues={of('name')}
          onChange={(name) => set({ name, autoName: false })}
        />
        <NumberField
          label="Start"
          unit="s"
          value={draft.start}
          issues={of('start')}
          onCommit={(start) => set({ start })}
        />
        <NumberField
          label="End"
          unit="s"
          optional
          value={draft.end}
          issues={of('end')}
          hint="Empty: until the simulation end time."
          onCommit={(end) => set({ end })}
        />
        <NumberField
          label="Acceleration"
          unit={units.acc}
          value={draft.acc}
          issues={of('acc')}
          onCommit={(acc) => set({ acc })}
        />
        <NumberField
          label="Velocity"
          unit={units.vel}
          value={draft.vel}
          issues={of('vel')}
          onCommit={(vel) => set({ vel })}
        />
        {draft.type === 'translatory' ? (
          <VectorField
            label="Direction"
            unit=""
            value={draft.direction}
            issues={of('direction')}
            onCommit={(direction) => set({ direction })}
          />
        ) : (
          <>
            <VectorField
              label="Axis"
              unit=""
              value={draft.axis}
              issues={of('axis')}
              onCommit={(axis) => set({ axis })}
            />
            <SwitchField
              label="Rotate about the part centre"
              checked={draft.center === null}
              onChange={(aboutPartCentre) =>
                set({ center: aboutPartCentre ? null : [...props.partCenter] })
              }
            />
            {draft.center !== null && (
              <VectorField
                label="Centre"
                unit="m"
                value={draft.center}
                issues={of('center')}
                onCommit={(center) => set({ center })}
              />
            )}
          </>
        )}
        {withLinks && (
          <>
            <LinkChoices
              legend="Leaders"
              empty="No movement can lead this one."
              options={leaderOptions(movementId, draft.followers, movements)}
              chosen={draft.parents}
              partNames={partNames}
              issues={of('parents')}
              onChange={(parents) => set({ parents })}
            />
            <LinkChoices
              legend="Followers"
              empty="No movement can follow this one."
              options={followerCandidates(movementId, draft.parents, movements)}
              chosen={draft.followers}
              partNames={partNames}
              issues={[]}
              onChange={(followers) => set({ followers })}
            />
          </>
        )}
      </div>
      {blocked && (
        <p className="movement-editor__summary" role="alert">
          {issues[0]?.message}
        </p>
      )}
      <footer className="movement-editor__footer">
        <button type="button" className="button button--secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <SubmitButton
          label={props.pending ? 'Saving…' : props.submitLabel}
          blockedReason={blocked ? (issues[0]?.message ?? null) : null}
          inactive={props.pending || !setup.editable}
        />
      </footer>
    </form>
  )
}

/** A name typed freely, its rule messages under it (the movement and new part names). */
export function NameInput(props: {
  value: string
  issues: readonly Issue[]
  onChange: (value: string) => void
}) {
  const setup = useSetupEditable()
  const id = useId()
  const messageId = useId()
  const invalid = props.issues.some((i) => i.level === 'error')
  return (
    <div className="field setup-field">
      <label htmlFor={id} className="field__label">
        Name
      </label>
      <input
        id={id}
        className={`input input--small${invalid ? ' input--invalid' : ''}`}
        value={props.value}
        maxLength={101}
        disabled={!setup.editable}
        aria-invalid={invalid || undefined}
        aria-describedby={props.issues.length > 0 ? messageId : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <FieldIssues id={messageId} issues={props.issues} />
    </div>
  )
}

/** Checkboxes of the movements that may lead (or follow) this one. */
function LinkChoices(props: {
  legend: string
  empty: ReactNode
  options: readonly Movement[]
  chosen: readonly number[]
  partNames: ReadonlyMap<number, string>
  issues: readonly Issue[]
  onChange: (ids: number[]) => void
}) {
  const setup = useSetupEditable()
  const messageId = useId()
  return (
    <fieldset
      className="field setup-field movement-editor__links"
      aria-describedby={props.issues.length > 0 ? messageId : undefined}
    >
      <legend className="field__label">{props.legend}</legend>
      {props.options.length === 0 ? (
        <p className="field__hint">{props.empty}</p>
      ) : (
        <ul className="movement-editor__link-list">
          {props.options.map((movement) => (
            <li key={movement.id}>
              <label className="movement-editor__link">
                <input
                  type="checkbox"
                  checked={props.chosen.includes(movement.id)}
                  disabled={!setup.editable}
                  onChange={(event) =>
                    props.onChange(
                      event.target.checked
                        ? [...props.chosen, movement.id]
                        : props.chosen.filter((id) => id !== movement.id),
                    )
                  }
                />
                <span title={movement.name}>
                  {movementLabel(movement, props.partNames.get(movement.partId))}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <FieldIssues id={messageId} issues={props.issues} />
    </fieldset>
  )
}
