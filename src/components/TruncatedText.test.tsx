import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PROJECT_DESCRIPTION_TRUNCATE } from '../../domain/limits.ts'
import { TruncatedText, truncateText } from './TruncatedText.tsx'

afterEach(cleanup)

const LONG =
  'Dam break study: a water column collapses under gravity and floods a tank. It is the classic benchmark for free-surface flow solvers everywhere.'

describe('TruncatedText', () => {
  it('shows a short text whole, without a toggle', () => {
    render(<TruncatedText text="A place to try things out." maxChars={120} />)
    expect(screen.getByText('A place to try things out.')).toBeTruthy()
    expect(screen.queryByRole('button')).toBeNull()
  })

  it('cuts a long text at 120 characters and expands and collapses it', () => {
    expect(LONG.length).toBeGreaterThan(PROJECT_DESCRIPTION_TRUNCATE)
    const { container } = render(
      <TruncatedText text={LONG} maxChars={PROJECT_DESCRIPTION_TRUNCATE} />,
    )
    const collapsedText = container.textContent ?? ''
    expect(collapsedText).not.toContain('everywhere')
    expect(collapsedText.replace('Read more', '').trim().length).toBeLessThanOrEqual(
      PROJECT_DESCRIPTION_TRUNCATE + 1,
    )

    fireEvent.click(screen.getByRole('button', { name: 'Read more' }))
    expect(container.textContent).toContain(LONG)
    expect(screen.getByRole('button', { name: 'Read less' }).getAttribute('aria-expanded')).toBe(
      'true',
    )

    fireEvent.click(screen.getByRole('button', { name: 'Read less' }))
    expect(container.textContent).not.toContain('everywhere')
    expect(screen.getByRole('button', { name: 'Read more' })).toBeTruthy()
  })
})

describe('truncateText', () => {
  it('breaks at a word near the limit', () => {
    expect(truncateText('alpha beta gamma delta epsilon', 25)).toBe('alpha beta gamma delta')
  })

  it('cuts inside a word when no space is near the limit', () => {
    expect(truncateText('abcdefghijklmnopqrstuvwxyz', 10)).toBe('abcdefghij')
  })
})
