import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Movement } from '../../../../../domain/movements.ts'
import { SetupEditableContext } from '../forms/fields/editable.ts'
import { MovementEditor, TYPE_LOCKED_REASON, type MovementEditorProps } from './MovementEditor.tsx'
import { draftOfMovement, newMovementDraft } from './movementDraft.ts'

const slide = (
  id: number,
  name: string,
  links: { parents?: number[]; followers?: number[]; partId?: number } = {},
): Movement => ({
  id,
  partId: links.partId ?? 1,
  type: 'translatory',
  name,
  start: 0,
  end: 1,
  acc: 0,
  vel: 1,
  virtualMovement: false,
  direction: [1, 0, 0],
  parents: links.parents ?? [],
  followers: links.followers ?? [],
})

// 1 leads 2, 2 leads 3; 4 is on its own (another part).
const MOVEMENTS: Movement[] = [
  slide(1, 'translation 1', { followers: [2] }),
  slide(2, 'translation 2', { parents: [1], followers: [3] }),
  slide(3, 'translation 3', { parents: [2] }),
  slide(4, 'translation 4', { partId: 2 }),
]
const PART_NAMES = new Map([
  [1, 'Paddle'],
  [2, 'Gate'],
])

function renderEditor(patch: Partial<MovementEditorProps> = {}) {
  const onSubmit = vi.fn()
  const props: MovementEditorProps = {
    initial: newMovementDraft(
      'translatory',
      MOVEMENTS.map((m) => m.name),
    ),
    movementId: null,
    movements: MOVEMENTS,
    partNames: PART_NAMES,
    partCenter: [0.5, 0.5, 0.5],
    endTime: 2,
    onSubmit,
    onCancel: vi.fn(),
    submitLabel: 'Add',
    ...patch,
  }
  render(
    <SetupEditableContext.Provider value={{ editable: true, reason: null }}>
      <MovementEditor {...props} />
    </SetupEditableContext.Provider>,
  )
  return { onSubmit }
}

const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label)
const typeInto = (label: string, text: string) => {
  fireEvent.change(field(label), { target: { value: text } })
  fireEvent.blur(field(label))
}
const submit = () => fireEvent.click(screen.getByRole('button', { name: /^(Add|Save)$/ }))
const leaderNames = () =>
  within(screen.getByRole('group', { name: 'Leaders' }))
    .queryAllByRole('checkbox')
    .map((box) => box.closest('label')?.textContent)

afterEach(cleanup)

describe('MovementEditor', () => {
  it('names a new movement automatically and renames it with the type until a name is typed', () => {
    renderEditor()
    expect(field('Name').value).toBe('translation 5')
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'rotatory' } })
    expect(field('Name').value).toBe('rotation 5')
    expect(screen.getByText('rad/s²')).toBeTruthy()
    expect(screen.getByText('rad/s')).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Axis' })).toBeTruthy()

    fireEvent.change(field('Name'), { target: { value: 'Paddle swing' } })
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'translatory' } })
    expect(field('Name').value).toBe('Paddle swing')
    expect(screen.getByText('m/s²')).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Direction' })).toBeTruthy()
  })

  it('skips a taken number when naming', () => {
    renderEditor({
      initial: newMovementDraft('rotatory', ['rotation 2', 'translation 1']),
    })
    expect(field('Name').value).toBe('rotation 3')
  })

  it('locks the type of a movement being edited', () => {
    renderEditor({
      initial: draftOfMovement(MOVEMENTS[1]!),
      movementId: 2,
      submitLabel: 'Save',
    })
    const type = screen.getByLabelText<HTMLSelectElement>('Type')
    expect(type.disabled).toBe(true)
    fireEvent.mouseEnter(type.parentElement!)
    expect(screen.getByRole('tooltip').textContent).toBe(TYPE_LOCKED_REASON)
  })

  it('offers as leaders every movement but itself and its followers, direct or not', () => {
    renderEditor({ initial: draftOfMovement(MOVEMENTS[1]!), movementId: 2, submitLabel: 'Save' })
    // Movement 2 leads 3: neither 2 nor 3 may lead it.
    expect(leaderNames()).toEqual(['Paddle: translation 1', 'Gate: translation 4'])
    cleanup()
    renderEditor({ initial: draftOfMovement(MOVEMENTS[0]!), movementId: 1, submitLabel: 'Save' })
    expect(leaderNames()).toEqual(['Gate: translation 4'])
  })

  it('offers every movement as a leader while adding, and no follower twice', () => {
    renderEditor()
    expect(leaderNames()).toHaveLength(4)
    const leaders = within(screen.getByRole('group', { name: 'Leaders' }))
    fireEvent.click(leaders.getByLabelText('Gate: translation 4'))
    const followers = within(screen.getByRole('group', { name: 'Followers' }))
    expect(followers.queryByLabelText('Gate: translation 4')).toBeNull()
  })

  it('hides errors until the first submit, then blocks Submit with the first error as tooltip', () => {
    const { onSubmit } = renderEditor()
    typeInto('Start', '3')
    expect(screen.queryByText('Start must be smaller than simulation end time.')).toBeNull()
    const button = screen.getByRole('button', { name: 'Add' })
    expect(button.getAttribute('aria-disabled')).toBeNull()

    submit()
    expect(onSubmit).not.toHaveBeenCalled()
    expect(screen.getAllByText('Start must be smaller than simulation end time.').length).toBe(2)
    expect(button.getAttribute('aria-disabled')).toBe('true')
    act(() => button.focus())
    expect(screen.getByRole('tooltip').textContent).toBe(
      'Start must be smaller than simulation end time.',
    )

    submit()
    expect(onSubmit).not.toHaveBeenCalled()
    typeInto('Start', '0.5')
    expect(button.getAttribute('aria-disabled')).toBeNull()
    submit()
    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      start: 0.5,
      end: null,
      name: 'translation 5',
    })
  })

  it('checks start against end and the translatory bounds, with the spec messages', () => {
    renderEditor()
    typeInto('End', '1')
    typeInto('Start', '1')
    typeInto('Velocity', '2000')
    submit()
    expect(screen.getAllByText('Start must be smaller than End.').length).toBeGreaterThan(0)
    expect(screen.getByText('End must be greater than Start.')).toBeTruthy()
    expect(screen.getByText('Velocity must be at most 1000.')).toBeTruthy()
  })

  it('rotates about the part centre unless a centre is given', () => {
    const { onSubmit } = renderEditor({ initial: newMovementDraft('rotatory', []) })
    expect(screen.queryByRole('group', { name: 'Centre' })).toBeNull()
    fireEvent.click(screen.getByRole('switch', { name: 'Rotate about the part centre' }))
    expect(field('Centre x (m)').value).toBe('0.5')
    fireEvent.click(screen.getByRole('switch', { name: 'Rotate about the part centre' }))
    submit()
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ type: 'rotatory', center: null })
  })
})
