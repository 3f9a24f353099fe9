import { usePageTitle } from '../lib/usePageTitle.ts'

/** A section of the product that a later release fills in. */
export function NotYetPage({ title, description }: { title: string; description: string }) {
  usePageTitle(title)
  return (
    <div className="page">
      <header className="page__header">
        <h1 className="page__title">{title}</h1>
      </header>
      <div className="card card--padded placeholder">
        <p className="placeholder__title">Coming soon</p>
        <p className="placeholder__text">{description}</p>
      </div>
    </div>
  )
}
