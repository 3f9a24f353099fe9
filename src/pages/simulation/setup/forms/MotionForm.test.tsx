import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MOVEMENT_MESSAGES, type Movement } from '../../../../../domain/movements.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { defaultSettings } from '../../../../../domain/settings.ts'
import {
  errorBody,
  renderSetup,
  stubApi,
  testPart,
  type ApiCall,
} from '../movements/testHarness.tsx'
import { setupSelectionAtom, sideFormAtom } from '../state/setupAtoms.ts'
import { MotionBoundaryConditionForm, SELECT_ONE_WALL } from './MotionBoundaryConditionForm.tsx'
import { MotionForm, SELECT_ONE_PART } from './MotionForm.tsx'

/* The Motion form and its movement dialog against a stubbed API. */

const SIMULATION = { id: 5 } as Simulation

const movement = (id: number, partId: number, name: string, patch: Partial<Movement> = {}) =>
  ({
    id,
    partId,
    type: 'translatory',
    name,
    start: 0,
    end: 1,
    acc: 0,
    vel: 1,
    virtualMovement: false,
    direction: [1, 0, 0],
    parents: [],
    followers: [],
    ...patch,
  }) as Movement

let calls: ApiCall[]
let movementsReply: unknown
let followerStatus: number

beforeEach(() => {
  followerStatus = 200
  movementsReply = [
    movement(1, 12, 'translation 1'),
    movement(2, 12, 'translation 2'),
    movement(3, 13, 'translation 3'),
    movement(4, 13, 'wall velocity', { virtualMovement: true }),
  ]
  calls = stubApi({
    'GET /api/simulations/5/movements': () => [200, movementsReply],
    'GET /api/simulations/5/parts': [
      200,
      [testPart(12, 'Paddle', { center: [1, 2, 3] }), testPart(13, 'Gate')],
    ],
    'GET /api/simulations/5/settings': [
      200,
      { settings: { ...defaultSettings(), endTime: 2 }, issues: [], adjustments: [] },
    ],
    'POST /api/parts/12/movements': (body) => [
      201,
      { ...movement(9, 12, ''), ...(body as object) },
    ],
    'POST /api/parts/13/movements': (body) => [
      201,
      { ...movement(9, 13, ''), ...(body as object) },
    ],
    'PUT /api/movements/:id': (body, path) => [
      200,
      { ...movement(Number(path.split('/').at(-1)), 12, ''), ...(body as object) },
    ],
    'DELETE /api/movements/:id': (_body, path) => [200, { id: Number(path.split('/').at(-1)) }],
    'PUT /api/parts/:id': (body, path) => {
      const part = testPart(Number(path.split('/').at(-1)), 'Gate')
      const update = body as { component: object }
      return [200, { ...part, component: { ...part.component, ...update.component } }]
    },
  })
  // Follower links: PUT /api/movements/{id}/followers/{followerId}.
  const base = vi.mocked(fetch).getMockImplementation()!
  vi.mocked(fetch).mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : input.toString()
    if (!url.includes('/followers/')) return base(input, init)
    calls.push({ method: init?.method ?? 'GET', path: url, body: undefined })
    return Promise.resolve(
      new Response(
        JSON.stringify(
          followerStatus === 200 ? movement(9, 12, 'x') : errorBody('conflict', 'Refused'),
        ),
        { status: followerStatus, headers: { 'content-type': 'application/json' } },
      ),
    )
  })
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function renderForm(selection: string[] = ['part:12']) {
  const store = createStore()
  store.set(setupSelectionAtom, selection)
  return renderSetup(<MotionForm simulation={SIMULATION} form={{ kind: 'motion' }} />, store)
}

const toasts = () =>
  [...document.querySelectorAll('.toast')].map((node) => node.textContent).join(' | ')

describe('MotionForm', () => {
  it("lists the selected part's own movements, not other parts' or virtual ones", async () => {
    renderForm()
    const list = await screen.findByRole('list', { name: 'Movements' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('translation 1'), expect.stringContaining('translation 2')])
    expect(within(list).getAllByText(/Translatory · 0 s – 1 s · 1 m\/s/)).toHaveLength(2)
  })

  it('asks for one part when none or several are selected', () => {
    renderForm(['part:12', 'part:13'])
    expect(screen.getByText(SELECT_ONE_PART)).toBeTruthy()
  })

  it("says 'Movements could not be interpreted.' for a reply that is no list", async () => {
    movementsReply = { movements: [] }
    renderForm()
    expect(await screen.findByText(MOVEMENT_MESSAGES.notInterpretable)).toBeTruthy()
  })

  it('adds a movement with an automatic name and links its followers', async () => {
    renderForm()
    fireEvent.click(await screen.findByRole('button', { name: 'Add movement' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add Movement' })
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').value).toBe('translation 4')
    fireEvent.click(
      within(within(dialog).getByRole('group', { name: 'Followers' })).getByLabelText(
        'Gate: translation 3',
      ),
    )
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.path).toBe('/api/parts/12/movements')
    expect(post.body).toEqual({
      type: 'translatory',
      name: 'translation 4',
      start: 0,
      end: null,
      acc: 0,
      vel: 0,
      virtualMovement: false,
      parents: [],
      direction: [1, 0, 0],
    })
    await waitFor(() =>
      expect(
        calls.some((c) => c.method === 'PUT' && c.path.endsWith('/api/movements/9/followers/3')),
      ).toBe(true),
    )
  })

  it('edits a movement without changing its type, and only logs a failed follower link', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    followerStatus = 409
    renderForm()
    fireEvent.click(await screen.findByRole('button', { name: 'Edit translation 2' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit Movement' })
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Type').disabled).toBe(true)
    const velocity = within(dialog).getByLabelText('Velocity')
    fireEvent.change(velocity, { target: { value: '-2.5' } })
    fireEvent.blur(velocity)
    fireEvent.click(
      within(within(dialog).getByRole('group', { name: 'Followers' })).getByLabelText(
        'Paddle: translation 1',
      ),
    )
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    const put = calls.find((c) => c.method === 'PUT' && c.path === '/api/movements/2')!
    expect(put.body).toMatchObject({ vel: -2.5, name: 'translation 2' })
    expect(put.body).not.toHaveProperty('type')
    await waitFor(() => expect(logged).toHaveBeenCalled())
    expect(toasts()).toBe('')
  })

  it('deletes on the second click only', async () => {
    renderForm()
    const remove = await screen.findByRole('button', { name: 'Delete translation 1' })
    fireEvent.click(remove)
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: Delete translation 1' }))
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/movements/1')).toBe(true),
    )
  })
})

describe('MotionBoundaryConditionForm', () => {
  function renderDefine(selection: string[]) {
    const store = createStore()
    store.set(setupSelectionAtom, selection)
    store.set(sideFormAtom, { kind: 'movingBoundaryCondition' })
    const view = renderSetup(
      <MotionBoundaryConditionForm
        simulation={SIMULATION}
        form={{ kind: 'movingBoundaryCondition' }}
      />,
      store,
    )
    return view
  }

  it("adds a virtual movement and makes it the wall's velocity condition", async () => {
    const { store } = renderDefine(['part:13'])
    const velocity = await screen.findByLabelText('Velocity')
    fireEvent.change(velocity, { target: { value: '0.2' } })
    fireEvent.blur(velocity)
    expect(screen.queryByRole('group', { name: 'Leaders' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Define' }))
    await waitFor(() =>
      expect(store.get(sideFormAtom)).toEqual({ kind: 'part', folder: 'boundary_conditions' }),
    )
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.path).toBe('/api/parts/13/movements')
    expect(post.body).toMatchObject({ virtualMovement: true, vel: 0.2, name: 'translation 5' })
    const put = calls.find((c) => c.method === 'PUT' && c.path === '/api/parts/13')!
    expect(put.body).toEqual({
      component: { type: 'rigid', velocityKind: 'moving', velocityConditionMovementId: 9 },
    })
  })

  it('asks for one solid part', async () => {
    renderDefine(['part:12', 'part:13'])
    expect(await screen.findByText(SELECT_ONE_WALL)).toBeTruthy()
  })
})
