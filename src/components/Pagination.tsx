import { useId, useState } from 'react'
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from './icons.tsx'

/** Whether `text` names a page of 1 … pageCount. */
export function isValidPageNumber(text: string, pageCount: number): boolean {
  if (!/^\d+$/.test(text.trim())) return false
  const page = Number(text)
  return page >= 1 && page <= pageCount
}

export interface PaginationProps {
  pageNumber: number
  pageCount: number
  pageLimit: number
  pageSizes: readonly number[]
  onPageChange: (pageNumber: number) => void
  onPageLimitChange: (pageLimit: number) => void
  /** Accessible name of the page size select, e.g. 'Projects per page'. */
  pageSizeLabel: string
}

/** First, previous, a page number input (1 … page count), next, last, and the page size. */
export function Pagination({
  pageNumber,
  pageCount,
  pageLimit,
  pageSizes,
  onPageChange,
  onPageLimitChange,
  pageSizeLabel,
}: PaginationProps) {
  const sizeId = useId()
  const lastPage = Math.max(pageCount, 1)
  const atFirst = pageNumber <= 1
  const atLast = pageNumber >= lastPage
  return (
    <nav className="pagination" aria-label="Pagination">
      <div className="pagination__size">
        <label htmlFor={sizeId}>{pageSizeLabel}</label>
        <select
          id={sizeId}
          className="select select--compact"
          value={pageLimit}
          onChange={(event) => onPageLimitChange(Number(event.target.value))}
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <div className="pagination__pages">
        <button
          type="button"
          className="icon-button"
          aria-label="First page"
          disabled={atFirst}
          onClick={() => onPageChange(1)}
        >
          <IconChevronsLeft />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label="Previous page"
          disabled={atFirst}
          onClick={() => onPageChange(pageNumber - 1)}
        >
          <IconChevronLeft />
        </button>
        <PageNumberInput
          key={pageNumber}
          pageNumber={pageNumber}
          pageCount={lastPage}
          onPageChange={onPageChange}
        />
        <button
          type="button"
          className="icon-button"
          aria-label="Next page"
          disabled={atLast}
          onClick={() => onPageChange(pageNumber + 1)}
        >
          <IconChevronRight />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label="Last page"
          disabled={atLast}
          onClick={() => onPageChange(lastPage)}
        >
          <IconChevronsRight />
        </button>
      </div>
    </nav>
  )
}

function PageNumberInput({
  pageNumber,
  pageCount,
  onPageChange,
}: {
  pageNumber: number
  pageCount: number
  onPageChange: (pageNumber: number) => void
}) {
  const [draft, setDraft] = useState(String(pageNumber))
  const inputId = useId()
  const errorId = useId()
  const valid = isValidPageNumber(draft, pageCount)

  function commit() {
    if (valid && Number(draft) !== pageNumber) onPageChange(Number(draft))
  }

  return (
    <div className="pagination__input">
      <label htmlFor={inputId}>Page</label>
      <input
        id={inputId}
        className={`input input--page${valid ? '' : ' input--invalid'}`}
        inputMode="numeric"
        value={draft}
        aria-invalid={!valid}
        aria-describedby={valid ? undefined : errorId}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit()
        }}
      />
      <span className="pagination__count">of {pageCount}</span>
      {!valid && (
        <span id={errorId} className="pagination__error" role="alert">
          Must be between 1 and {pageCount}
        </span>
      )}
    </div>
  )
}
