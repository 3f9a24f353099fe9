import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import {
  FEATURE_LABELS,
  SUBSCRIPTION_KIND_LABELS,
  subscriptionCoreHours,
} from '../../../domain/account.ts'
import { formatCount, formatDate } from '../../../domain/units.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { Fact } from '../../components/Fact.tsx'
import { formatBytes } from '../../lib/format.ts'
import { useCurrentUser } from '../../lib/currentUser.ts'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import {
  routeKey,
  useOrganizationQuery,
  useStorageConsumptionQuery,
} from '../../queries/queries.ts'

/** Hours as people write them: '1,047.5 h'. */
const hours = (value: number) => `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} h`

/**
 * /settings/subscription (SUBSCRIPTION_VIEW): the active subscription (kind, dates, core hours and
 * what the runs used of them, one-off core hours, VM hours a month), its limits (cores per run, the
 * free instance, simulations, storage) and the organization's features.
 */
export function SubscriptionPage() {
  usePageTitle('Subscription')
  const user = useCurrentUser()
  const organization = useOrganizationQuery(user.organization.id)
  const storage = useStorageConsumptionQuery()
  const subscription = organization.data?.activeSubscription ?? null
  const [nowMs] = useState(() => Date.now())
  const usageQuery = {
    startDate: subscription?.startDate ?? '',
    endDate: new Date(nowMs).toISOString(),
  }
  const usage = useQuery({
    queryKey: routeKey('creditHistory', { query: usageQuery }),
    queryFn: ({ signal }) => callApi('creditHistory', { query: usageQuery }, { signal }),
    enabled: subscription !== null,
  })
  const usedHours = (usage.data ?? []).reduce((sum, entry) => sum + entry.simulationHours, 0)
  const coreHours = subscription ? subscriptionCoreHours(subscription, usedHours) : null
  const ended = subscription ? Date.parse(subscription.endDate) < nowMs : false

  return (
    <div className="page">
      <header className="page__header">
        <div>
          <h1 className="page__title">Subscription</h1>
          <p className="page__subtitle">
            The active subscription of {organization.data?.name ?? user.organization.name}.
          </p>
        </div>
      </header>
      {organization.isError && (
        <div className="alert alert--error" role="alert">
          {messageOf(organization.error)}
        </div>
      )}
      {organization.isSuccess && (
        <div className="settings-stack settings-stack--wide">
          <section className="card card--padded" aria-labelledby="subscription-plan">
            <h2 id="subscription-plan" className="card__title">
              Plan
            </h2>
            {subscription ? (
              <dl className="facts">
                <Fact term="Subscription">
                  {SUBSCRIPTION_KIND_LABELS[subscription.kind]}
                  {ended && <span className="status-note"> (ended)</span>}
                </Fact>
                <Fact term="Start date">{formatDate(subscription.startDate)}</Fact>
                <Fact term="End date">{formatDate(subscription.endDate)}</Fact>
                <Fact term="Core hours">{hours(subscription.coreHours)}</Fact>
                <Fact term="One-off core hours">{hours(subscription.oneOffCoreHours)}</Fact>
                <Fact term="Core hours used">
                  {coreHours && usage.isSuccess ? hours(coreHours.used) : '–'}
                </Fact>
                <Fact term="Core hours left">
                  {coreHours && usage.isSuccess ? hours(coreHours.left) : '–'}
                </Fact>
                <Fact term="VM hours per month">{hours(subscription.vmHoursPerMonth)}</Fact>
              </dl>
            ) : (
              <p className="muted">Your organization has no active subscription.</p>
            )}
            {usage.isError && (
              <div className="alert alert--error" role="alert">
                {messageOf(usage.error)}
              </div>
            )}
          </section>
          <section className="card card--padded" aria-labelledby="subscription-limits">
            <h2 id="subscription-limits" className="card__title">
              Limits
            </h2>
            <dl className="facts">
              <Fact term="Maximum cores per simulation">
                {subscription ? formatCount(subscription.maxCores) : '–'}
              </Fact>
              <Fact term="Free instance">
                {subscription?.freeInstance
                  ? organization.data?.freeInstanceOccupied
                    ? 'Included, in use'
                    : 'Included, available'
                  : 'Not included'}
              </Fact>
              <Fact term="Simulations">
                {organization.data?.maximumSimulationsExceeded
                  ? 'Maximum number of simulations reached'
                  : 'Within the limit'}
              </Fact>
              <Fact term="Storage">
                {storage.data
                  ? `${formatBytes(storage.data.consumed)} of ${formatBytes(storage.data.available)} used`
                  : '–'}
              </Fact>
            </dl>
          </section>
          <section className="card card--padded" aria-labelledby="subscription-features">
            <h2 id="subscription-features" className="card__title">
              Features
            </h2>
            {organization.data && organization.data.features.length > 0 ? (
              <ul className="feature-list">
                {organization.data.features.map((feature) => (
                  <li key={feature}>{FEATURE_LABELS[feature]}</li>
                ))}
              </ul>
            ) : (
              <p className="muted">No additional features.</p>
            )}
          </section>
        </div>
      )}
    </div>
  )
}
