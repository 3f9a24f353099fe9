import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import {
  BUDGET_EMPTY_MESSAGES,
  CREDIT_KIND_LABELS,
  CREDIT_SEQUENCES_MAX_PAGE_LIMIT,
  creditTransactionsCsv,
  transactionTitle,
  type CreditSequence,
  type CreditSequenceOrderBy,
} from '../../../domain/accountBudget.ts'
import {
  BUDGET_PAGE_SIZES,
  CREDIT_TRANSACTIONS_CSV_NAME,
  DEFAULT_BUDGET_PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
} from '../../../domain/constants.ts'
import { formatCredits, formatDateTime } from '../../../domain/units.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { Pagination } from '../../components/Pagination.tsx'
import { usePushToast } from '../../components/Toasts.tsx'
import { useDebouncedCallback } from '../../lib/useDebouncedCallback.ts'
import { routeKey } from '../../queries/queries.ts'
import { downloadText } from './downloadText.ts'
import { avatarOf } from './avatars.ts'
import { cutName } from '../../components/shell/accessGrantOptions.ts'

interface Column {
  key: CreditSequenceOrderBy
  label: string
}

const COLUMNS: readonly Column[] = [
  { key: 'transaction', label: 'Transaction' },
  { key: 'kind', label: 'Type' },
  { key: 'updatedAt', label: 'Date' },
  { key: 'user', label: 'User' },
  { key: 'credits', label: 'Value' },
]

/** Every transaction of the search, page after page, for the CSV. */
async function allTransactions(query: { q?: string; startDate: string }) {
  const rows: CreditSequence[] = []
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await callApi('creditSequences', {
      query: { ...query, pageNumber, pageLimit: CREDIT_SEQUENCES_MAX_PAGE_LIMIT },
    })
    rows.push(...page.results)
    if (pageNumber >= page.pageCount) return rows
  }
}

/**
 * The transactions table: Transaction, Type, Date, User (showUserColumn), Value; search, sort by a
 * column (date descending first), pages of 10/20/30/40 and the CSV download.
 */
export function CreditTransactions({
  startDate,
  showUserColumn,
}: {
  startDate: string
  showUserColumn: boolean
}) {
  const pushToast = usePushToast()
  const [text, setText] = useState('')
  const [q, setQ] = useState('')
  const [orderBy, setOrderBy] = useState<CreditSequenceOrderBy>('updatedAt')
  const [asc, setAsc] = useState(false)
  const [pageNumber, setPageNumber] = useState(1)
  const [pageLimit, setPageLimit] = useState<number>(DEFAULT_BUDGET_PAGE_SIZE)
  const searchId = useId()
  const search = useDebouncedCallback((value: string) => {
    setQ(value)
    setPageNumber(1)
  }, SEARCH_DEBOUNCE_MS.billing)
  const query = { q: q.trim() || undefined, startDate, orderBy, asc, pageNumber, pageLimit }
  const page = useQuery({
    queryKey: routeKey('creditSequences', { query }),
    queryFn: ({ signal }) => callApi('creditSequences', { query }, { signal }),
    placeholderData: keepPreviousData,
  })
  const download = useMutation({
    mutationFn: () => allTransactions({ q: query.q, startDate }),
    onSuccess: (rows) =>
      downloadText(CREDIT_TRANSACTIONS_CSV_NAME, creditTransactionsCsv(rows, showUserColumn)),
    onError: (failure) =>
      pushToast({ kind: 'error', title: 'Download failed', description: messageOf(failure) }),
  })
  const columns = COLUMNS.filter((column) => column.key !== 'user' || showUserColumn)
  const rows = page.data?.results ?? []

  function sortBy(key: CreditSequenceOrderBy) {
    if (key === orderBy) setAsc(!asc)
    else {
      setOrderBy(key)
      setAsc(key !== 'updatedAt' && key !== 'credits')
    }
    setPageNumber(1)
  }

  return (
    <section className="card card--padded" aria-labelledby="budget-transactions">
      <div className="budget-section__header">
        <h2 id="budget-transactions" className="card__title">
          Transactions
        </h2>
        <div className="budget-toolbar">
          <label htmlFor={searchId} className="visually-hidden">
            Search transactions
          </label>
          <input
            id={searchId}
            className="input settings-filter"
            type="search"
            placeholder="Search transactions"
            value={text}
            onChange={(event) => {
              setText(event.target.value)
              search(event.target.value)
            }}
          />
          <button
            type="button"
            className="button button--secondary"
            disabled={download.isPending || (page.data?.resultCount ?? 0) === 0}
            onClick={() => download.mutate()}
          >
            Download as CSV
          </button>
        </div>
      </div>
      {page.isError ? (
        <div className="alert alert--error" role="alert">
          {messageOf(page.error)}
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Credit transactions</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={
                      column.key === orderBy ? (asc ? 'ascending' : 'descending') : undefined
                    }
                    className={column.key === 'credits' ? 'table__number' : undefined}
                  >
                    <button
                      type="button"
                      className="table__sort"
                      onClick={() => sortBy(column.key)}
                    >
                      {column.label}
                      <span aria-hidden="true">
                        {column.key === orderBy ? (asc ? ' ▲' : ' ▼') : ''}
                      </span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((sequence) => (
                <tr key={sequence.id}>
                  <td className="table__primary">{cutName(transactionTitle(sequence))}</td>
                  <td>{CREDIT_KIND_LABELS[sequence.kind]}</td>
                  <td>{formatDateTime(sequence.updatedAt)}</td>
                  {showUserColumn && (
                    <td>
                      {sequence.issuer ? (
                        <>
                          <span
                            className={avatarOf(sequence.issuer.avatarId).className}
                            aria-hidden="true"
                          >
                            {avatarOf(sequence.issuer.avatarId).initials}
                          </span>{' '}
                          {sequence.issuer.fullName}
                        </>
                      ) : (
                        '–'
                      )}
                    </td>
                  )}
                  <td className="table__number">{formatCredits(sequence.credits)}</td>
                </tr>
              ))}
              {page.isSuccess && rows.length === 0 && (
                <tr>
                  <td colSpan={columns.length} className="muted">
                    {q.trim() === ''
                      ? BUDGET_EMPTY_MESSAGES.transactions
                      : BUDGET_EMPTY_MESSAGES.search}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        pageNumber={pageNumber}
        pageCount={page.data?.pageCount ?? 1}
        pageLimit={pageLimit}
        pageSizes={BUDGET_PAGE_SIZES}
        onPageChange={setPageNumber}
        onPageLimitChange={(limit) => {
          setPageLimit(limit)
          setPageNumber(1)
        }}
        pageSizeLabel="Transactions per page"
      />
    </section>
  )
}
