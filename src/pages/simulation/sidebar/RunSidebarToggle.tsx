import { useEffect, useId, useState } from 'react'
import type { Simulation } from '../../../../domain/projects.ts'
import type { SimulationMode } from '../SimulationLayout.tsx'
import { RunSidebar } from './RunSidebar.tsx'

/**
 * A toolbar button that opens the Run sidebar as a panel at the right edge of the page (the
 * Results page, where the viewport takes the width). Escape or the button closes it.
 */
export function RunSidebarToggle({
  simulation,
  mode,
}: {
  simulation: Simulation
  mode: SimulationMode
}) {
  const [open, setOpen] = useState(false)
  const panelId = useId()
  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])
  return (
    <>
      <button
        type="button"
        className="results-chip"
        aria-pressed={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        Run sidebar
      </button>
      {open && (
        <div id={panelId} className="run-sidebar-drawer">
          <RunSidebar simulation={simulation} mode={mode} />
        </div>
      )}
    </>
  )
}
