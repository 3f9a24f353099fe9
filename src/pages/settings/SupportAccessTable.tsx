import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import {
  ACCESS_GRANT_REASON_LABELS,
  REVOKE_ACCESS_GRANT_FAILED,
  isRecentAccessRequest,
  type AccessGrant,
} from '../../../domain/accountAccess.ts'
import { formatDateTime } from '../../../domain/units.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { usePushToast } from '../../components/Toasts.tsx'
import { capitalize } from '../../lib/format.ts'
import { routeKey } from '../../queries/queries.ts'
import { avatarOf } from './avatars.ts'
import { cutName } from '../../components/shell/accessGrantOptions.ts'

const QUERY = { includeExpired: true, pageLimit: 100 }

/**
 * The support access table of the team page: provider members' grants to this organization, a
 * badge on those requested in the last 24 h, and Revoke for an active one (USERS_EDIT).
 */
export function SupportAccessTable({ canRevoke }: { canRevoke: boolean }) {
  const pushToast = usePushToast()
  const client = useQueryClient()
  const [nowMs] = useState(() => Date.now())
  const grants = useQuery({
    queryKey: routeKey('organizationAccessGrants', { query: QUERY }),
    queryFn: ({ signal }) => callApi('organizationAccessGrants', { query: QUERY }, { signal }),
  })
  const revoke = useMutation({
    mutationFn: (grant: AccessGrant) =>
      callApi('revokeAccessGrant', { params: { id: String(grant.id) } }),
    onSuccess: (_reply, grant) => {
      pushToast({
        kind: 'success',
        title: 'Access revoked',
        description: `${grant.requester.fullName} no longer has access to the organization.`,
      })
      void client.invalidateQueries({ queryKey: routeKey('organizationAccessGrants') })
    },
    onError: (failure) =>
      pushToast({
        kind: 'error',
        title: REVOKE_ACCESS_GRANT_FAILED,
        description: messageOf(failure),
      }),
  })
  const rows = grants.data?.results ?? []
  return (
    <section className="card card--padded" aria-labelledby="team-support">
      <h2 id="team-support" className="card__title">
        Support access
      </h2>
      {grants.isError ? (
        <div className="alert alert--error" role="alert">
          {messageOf(grants.error)}
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Support access</caption>
            <thead>
              <tr>
                <th scope="col">Support member</th>
                <th scope="col">Reason</th>
                <th scope="col">Requested</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((grant) => {
                const avatar = avatarOf(grant.requester.avatarId)
                const recent = isRecentAccessRequest(Date.parse(grant.createdAt), nowMs)
                return (
                  <tr key={grant.id}>
                    <td className="table__primary">
                      <span className={avatar.className} aria-hidden="true">
                        {avatar.initials}
                      </span>{' '}
                      {cutName(grant.requester.fullName)}{' '}
                      {recent && (
                        <span
                          className="badge badge--recent"
                          title="Requested access in the last 24 h"
                        >
                          New<span className="visually-hidden">: requested in the last 24 h</span>
                        </span>
                      )}
                    </td>
                    <td>{ACCESS_GRANT_REASON_LABELS[grant.reason]}</td>
                    <td>{formatDateTime(grant.createdAt)}</td>
                    <td>{formatDateTime(grant.expiry)}</td>
                    <td>{capitalize(grant.state)}</td>
                    <td className="table__actions">
                      {canRevoke && grant.state === 'active' && (
                        <button
                          type="button"
                          className="button button--danger-text button--small"
                          aria-label={`Revoke access of ${grant.requester.fullName}`}
                          disabled={revoke.isPending}
                          onClick={() => revoke.mutate(grant)}
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                )
              })}
              {grants.isSuccess && rows.length === 0 && (
                <tr>
                  <td colSpan={6} className="muted">
                    No support member has access to the organization.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
