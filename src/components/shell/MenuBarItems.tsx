import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId } from 'react'
import { useMatch, useNavigate } from 'react-router'
import type { User } from '../../../domain/account.ts'
import { formatHoursMinutes } from '../../../domain/units.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { userCan } from '../../lib/currentUser.ts'
import { routeKey } from '../../queries/queries.ts'
import { usePushToast } from '../Toasts.tsx'
import { Tooltip } from '../Tooltip.tsx'
import { accessGrantOptions, OWN_ORGANIZATION_LABEL } from './accessGrantOptions.ts'
import './menuBar.css'

/** The caller's own active grants (GET /admin/access_grants?onlySelf&state=active). */
const OWN_ACTIVE_GRANTS = { onlySelf: true, state: 'active', pageLimit: 100 } as const

/** How long the selector waits past a grant's expiry before asking the server again. */
const EXPIRY_MARGIN_MS = 1000

/** Milliseconds from now until just past `iso` (0 if it has passed). */
function delayUntil(iso: string): number {
  return Math.max(0, Date.parse(iso) - Date.now()) + EXPIRY_MARGIN_MS
}

/**
 * The access-grant selector (ACCESS_GRANT_SELECTION, spec/account.md §2): the own organization or
 * one of the user's active grants. Choosing one makes every request act in that organization
 * (PUT /users activeAccessGrantId); all server state is fetched again. When the chosen grant
 * expires, the user and everything else is fetched again, which brings back the own organization.
 */
export function AccessGrantSelector({ user }: { user: User }) {
  const id = useId()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const pushToast = usePushToast()
  const grants = useQuery({
    queryKey: routeKey('adminAccessGrants', { query: OWN_ACTIVE_GRANTS }),
    queryFn: ({ signal }) => callApi('adminAccessGrants', { query: OWN_ACTIVE_GRANTS }, { signal }),
    staleTime: 30_000,
  })
  const options = accessGrantOptions(grants.data?.results ?? [], user)
  const activeExpiry = options.find((option) => option.grantId === user.activeAccessGrantId)?.expiry

  useEffect(() => {
    if (!activeExpiry) return
    const timer = setTimeout(() => void queryClient.invalidateQueries(), delayUntil(activeExpiry))
    return () => clearTimeout(timer)
  }, [activeExpiry, queryClient])

  const choose = useMutation({
    mutationFn: (grantId: number | null) =>
      callApi('updateProfile', { body: { activeAccessGrantId: grantId } }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(routeKey('currentUser'), updated)
      await queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== 'currentUser',
      })
      void navigate('/projects')
    },
    onError: (error) =>
      pushToast({
        kind: 'error',
        title: 'Could not switch the organization',
        description: messageOf(error),
      }),
  })

  return (
    <div className="menubar-org">
      <label htmlFor={id} className="menubar-org__label">
        Organization
      </label>
      <select
        id={id}
        className="select select--compact menubar-org__select"
        value={user.activeAccessGrantId ?? ''}
        disabled={choose.isPending}
        onChange={(event) =>
          choose.mutate(event.target.value === '' ? null : Number(event.target.value))
        }
      >
        <option value="">{OWN_ORGANIZATION_LABEL}</option>
        {options.map((option) => (
          <option key={option.grantId} value={option.grantId}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/** The organization's VM hours left, as hours and minutes (spec/account.md §2, §9). */
export function VmHoursLeft() {
  const budget = useQuery({
    queryKey: routeKey('budget'),
    queryFn: ({ signal }) => callApi('budget', {}, { signal }),
    staleTime: 60_000,
  })
  if (!budget.data) return null
  const text = formatHoursMinutes(budget.data.vmHours)
  return (
    <Tooltip content="Virtual machine hours left this month">
      <p className="menubar-vm-hours">
        <span className="menubar-vm-hours__label">VM hours</span>{' '}
        <span className="menubar-vm-hours__value">{text}</span>
      </p>
    </Tooltip>
  )
}

/** On a simulation's pages: copies the simulation's ID (for a ticket or the Python API). */
export function CopyIdButton() {
  const match = useMatch('/simulation/:id/*')
  const pushToast = usePushToast()
  const simulationId = match?.params.id
  if (simulationId === undefined) return null
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(simulationId)
      pushToast({ kind: 'success', title: 'ID copied', description: `Simulation ${simulationId}` })
    } catch {
      pushToast({ kind: 'error', title: 'Could not copy the ID', description: simulationId })
    }
  }
  return (
    <button
      type="button"
      className="button button--ghost menubar-copy-id"
      aria-label={`Copy ID ${simulationId}`}
      onClick={() => void copy()}
    >
      Copy ID
    </button>
  )
}

/** The selector is shown only to users with ACCESS_GRANT_SELECTION. */
export function canSelectAccessGrant(user: User): boolean {
  return userCan(user, 'ACCESS_GRANT_SELECTION')
}
