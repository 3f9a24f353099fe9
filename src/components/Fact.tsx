import type { ReactNode } from 'react'

/** One term and its value in a `<dl className="facts">` list. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  )
}
