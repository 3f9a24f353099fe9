import type { ReactNode } from 'react'
import { IconWave } from '../components/icons.tsx'

/** The full-screen card of the pages outside the app shell (login, logout, errors). */
export function CenteredCard({ children }: { children: ReactNode }) {
  return (
    <div className="centered-page">
      <div className="centered-page__brand" aria-hidden="true">
        <span className="brand__mark">
          <IconWave width={16} height={16} />
        </span>
        <span className="brand__name">Dive</span>
      </div>
      <main className="card centered-card">{children}</main>
    </div>
  )
}
