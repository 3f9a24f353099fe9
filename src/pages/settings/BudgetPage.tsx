import { useQuery } from '@tanstack/react-query'
import { useId, useMemo, useState } from 'react'
import { creditPeriodStartMs } from '../../../domain/accountBudget.ts'
import { CREDIT_PERIODS, DEFAULT_CREDIT_PERIOD_DAYS } from '../../../domain/constants.ts'
import { RUN_TEXTS } from '../../../domain/rest/runRoutes.ts'
import {
  formatCredits,
  formatDate,
  formatDecimals,
  formatHoursMinutes,
} from '../../../domain/units.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { Fact } from '../../components/Fact.tsx'
import { useCurrentUser, userCan } from '../../lib/currentUser.ts'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import { routeKey } from '../../queries/queries.ts'
import { CreditHistoryChart } from './CreditHistoryChart.tsx'
import { CreditTransactions } from './CreditTransactions.tsx'

/**
 * /settings/budget: the credits left and the hours they buy, the credit history of a period
 * (grouped by team member with CREDITS_VIEW_SEQUENCE_USERS) and the period's transactions.
 */
export function BudgetPage() {
  usePageTitle('Budget')
  const user = useCurrentUser()
  const showUsers = userCan(user, 'CREDITS_VIEW_SEQUENCE_USERS')
  const [days, setDays] = useState<number>(DEFAULT_CREDIT_PERIOD_DAYS)
  const [nowMs] = useState(() => Date.now())
  const periodId = useId()
  const budget = useQuery({
    queryKey: routeKey('budget'),
    queryFn: ({ signal }) => callApi('budget', {}, { signal }),
  })
  const subscriptionStart = budget.data?.activeSubscription?.startDate
  const startDate = useMemo(() => {
    const startMs = Date.parse(subscriptionStart ?? '')
    return new Date(
      creditPeriodStartMs(days, nowMs, Number.isNaN(startMs) ? null : startMs),
    ).toISOString()
  }, [days, nowMs, subscriptionStart])
  const historyQuery = { startDate, endDate: new Date(nowMs).toISOString() }
  const history = useQuery({
    queryKey: routeKey('creditHistory', { query: historyQuery }),
    queryFn: ({ signal }) => callApi('creditHistory', { query: historyQuery }, { signal }),
    enabled: days !== -1 || budget.isSuccess,
  })
  const consumed = (history.data ?? []).reduce((sum, entry) => sum + entry.credits, 0)

  return (
    <div className="page">
      <header className="page__header">
        <div>
          <h1 className="page__title">Budget</h1>
          <p className="page__subtitle">Credits, usage history and transactions.</p>
        </div>
        <div className="field field--inline">
          <label htmlFor={periodId}>Period</label>
          <select
            id={periodId}
            className="select"
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {CREDIT_PERIODS.map((period) => (
              <option key={period.days} value={period.days}>
                {period.label}
              </option>
            ))}
          </select>
        </div>
      </header>
      <div className="settings-stack settings-stack--wide">
        <section className="card card--padded" aria-labelledby="budget-figures">
          <h2 id="budget-figures" className="card__title">
            Credit budget
          </h2>
          {budget.isError && (
            <div className="alert alert--error" role="alert">
              {messageOf(budget.error)}
            </div>
          )}
          {budget.data && (
            <>
              {budget.data.credits <= 0 && (
                <div className="alert alert--warning" role="status">
                  {RUN_TEXTS.notEnoughCredits}
                </div>
              )}
              <dl className="facts budget-facts">
                <Fact term="Credits left">{formatCredits(budget.data.credits)} credits</Fact>
                <Fact term="Estimated budget hours">
                  {formatDecimals(budget.data.simulationHours, 1)} h
                </Fact>
                <Fact term="VM hours left">{formatHoursMinutes(budget.data.vmHours)}</Fact>
                <Fact term="Consumed in the period">
                  {history.data ? `${formatCredits(consumed)} credits` : '–'}
                </Fact>
                <Fact term="Period from">{formatDate(startDate)}</Fact>
              </dl>
            </>
          )}
        </section>
        <section className="card card--padded" aria-labelledby="budget-history">
          <h2 id="budget-history" className="card__title">
            Credit history{showUsers ? ' by team member' : ''}
          </h2>
          {history.isError ? (
            <div className="alert alert--error" role="alert">
              {messageOf(history.error)}
            </div>
          ) : history.data ? (
            <CreditHistoryChart entries={history.data} groupByUser={showUsers} />
          ) : null}
        </section>
        <CreditTransactions startDate={startDate} showUserColumn={showUsers} />
      </div>
    </div>
  )
}
