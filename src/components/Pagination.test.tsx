import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PROJECT_PAGE_SIZES } from '../../domain/limits.ts'
import { Pagination, isValidPageNumber } from './Pagination.tsx'

afterEach(cleanup)

function renderPagination(pageNumber: number, pageCount: number) {
  const onPageChange = vi.fn()
  const onPageLimitChange = vi.fn()
  render(
    <Pagination
      pageNumber={pageNumber}
      pageCount={pageCount}
      pageLimit={10}
      pageSizes={PROJECT_PAGE_SIZES}
      pageSizeLabel="Projects per page"
      onPageChange={onPageChange}
      onPageLimitChange={onPageLimitChange}
    />,
  )
  return { onPageChange, onPageLimitChange, input: screen.getByLabelText('Page') }
}

describe('isValidPageNumber', () => {
  it('accepts only whole numbers between 1 and the page count', () => {
    expect(isValidPageNumber('1', 5)).toBe(true)
    expect(isValidPageNumber('5', 5)).toBe(true)
    expect(isValidPageNumber('0', 5)).toBe(false)
    expect(isValidPageNumber('6', 5)).toBe(false)
    expect(isValidPageNumber('2.5', 5)).toBe(false)
    expect(isValidPageNumber('-1', 5)).toBe(false)
    expect(isValidPageNumber('', 5)).toBe(false)
  })
})

describe('Pagination', () => {
  it('goes to a typed page within the bounds on Enter', () => {
    const { onPageChange, input } = renderPagination(1, 5)
    fireEvent.change(input, { target: { value: '4' } })
    fireEvent.keyDown(input, { key: 'Enter' })
    expect(onPageChange).toHaveBeenCalledWith(4)
  })

  it('refuses a page outside 1 … page count and says so', () => {
    const { onPageChange, input } = renderPagination(2, 5)
    fireEvent.change(input, { target: { value: '9' } })
    fireEvent.keyDown(input, { key: 'Enter' })
    fireEvent.blur(input)
    expect(onPageChange).not.toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toBe('Must be between 1 and 5')
    expect(input.getAttribute('aria-invalid')).toBe('true')

    fireEvent.change(input, { target: { value: '0' } })
    fireEvent.keyDown(input, { key: 'Enter' })
    expect(onPageChange).not.toHaveBeenCalled()
  })

  it('disables first and previous on the first page, next and last on the last', () => {
    renderPagination(1, 3)
    expect(screen.getByRole('button', { name: 'First page' })).toHaveProperty('disabled', true)
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true)
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', false)
    cleanup()
    const { onPageChange } = renderPagination(3, 3)
    expect(screen.getByRole('button', { name: 'Last page' })).toHaveProperty('disabled', true)
    fireEvent.click(screen.getByRole('button', { name: 'First page' }))
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }))
    expect(onPageChange.mock.calls).toEqual([[1], [2]])
  })

  it('offers the page sizes 10, 15 and 30', () => {
    const { onPageLimitChange } = renderPagination(1, 1)
    const select = screen.getByLabelText('Projects per page')
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      '10',
      '15',
      '30',
    ])
    fireEvent.change(select, { target: { value: '30' } })
    expect(onPageLimitChange).toHaveBeenCalledWith(30)
  })
})
