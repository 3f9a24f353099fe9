import { useId, useRef, useState, type KeyboardEvent } from 'react'
import type { Simulation } from '../../../../domain/projects.ts'
import type { SimulationMode } from '../SimulationLayout.tsx'
import { AlertsTab } from './AlertsTab.tsx'
import { DownloadTab } from './DownloadTab.tsx'
import { GeneralInfoTab } from './GeneralInfoTab.tsx'
import { HistoryTab } from './HistoryTab.tsx'
import { InputValidationTab } from './InputValidationTab.tsx'
import { JobsProgressTab } from './JobsProgressTab.tsx'
import './sidebar.css'

/** Tabs of the Run sidebar (spec/results.md §2), in order. */
export const RUN_SIDEBAR_TABS = {
  jobs: 'Jobs Progress',
  validation: 'Input Validation',
  alerts: 'Alerts',
  download: 'Download',
  info: 'General Info',
  history: 'History',
} as const
/** One Run sidebar tab. */
export type RunSidebarTab = keyof typeof RUN_SIDEBAR_TABS

const TAB_KEYS = Object.keys(RUN_SIDEBAR_TABS) as RunSidebarTab[]

/**
 * The Run sidebar of the Monitor and Results pages: Jobs Progress, Input Validation (disabled in
 * the postprocessor: 'Go to the setup to validate'), Alerts, Download (not before the start),
 * General Info and History. A vertical
 * tab list: arrow keys move between tabs, Home and End jump to the first and last.
 */
export function RunSidebar({
  simulation,
  mode,
  initialTab = 'jobs',
}: {
  simulation: Simulation
  /** The page it is on: the checklist works on the Monitor page only. */
  mode: SimulationMode
  initialTab?: RunSidebarTab
}) {
  const [tab, setTab] = useState<RunSidebarTab>(initialTab)
  const baseId = useId()
  const tabRefs = useRef(new Map<RunSidebarTab, HTMLButtonElement>())
  const idOf = (key: RunSidebarTab) => `${baseId}-${key}`

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const at = TAB_KEYS.indexOf(tab)
    const next =
      event.key === 'ArrowDown'
        ? TAB_KEYS[(at + 1) % TAB_KEYS.length]
        : event.key === 'ArrowUp'
          ? TAB_KEYS[(at + TAB_KEYS.length - 1) % TAB_KEYS.length]
          : event.key === 'Home'
            ? TAB_KEYS[0]
            : event.key === 'End'
              ? TAB_KEYS[TAB_KEYS.length - 1]
              : undefined
    if (!next) return
    event.preventDefault()
    setTab(next)
    tabRefs.current.get(next)?.focus()
  }

  return (
    <aside className="run-sidebar" aria-label="Run sidebar">
      <div
        className="run-sidebar__tabs"
        role="tablist"
        aria-label="Run sidebar tabs"
        aria-orientation="vertical"
      >
        {TAB_KEYS.map((key) => (
          <button
            key={key}
            ref={(element) => {
              if (element) tabRefs.current.set(key, element)
              else tabRefs.current.delete(key)
            }}
            id={`${idOf(key)}-tab`}
            type="button"
            role="tab"
            aria-selected={tab === key}
            aria-controls={`${idOf(key)}-panel`}
            tabIndex={tab === key ? 0 : -1}
            className={`run-sidebar__tab${tab === key ? ' run-sidebar__tab--active' : ''}`}
            onClick={() => setTab(key)}
            onKeyDown={onKeyDown}
          >
            {RUN_SIDEBAR_TABS[key]}
          </button>
        ))}
      </div>
      <div
        id={`${idOf(tab)}-panel`}
        role="tabpanel"
        aria-labelledby={`${idOf(tab)}-tab`}
        className="run-sidebar__panel"
        tabIndex={0}
      >
        <h2 className="run-sidebar__title">{RUN_SIDEBAR_TABS[tab]}</h2>
        {tab === 'jobs' && <JobsProgressTab simulation={simulation} />}
        {tab === 'validation' && (
          <InputValidationTab simulation={simulation} disabled={mode === 'postprocessor'} />
        )}
        {tab === 'alerts' && <AlertsTab simulation={simulation} />}
        {tab === 'download' && <DownloadTab simulation={simulation} />}
        {tab === 'info' && <GeneralInfoTab simulation={simulation} />}
        {tab === 'history' && <HistoryTab simulation={simulation} />}
      </div>
    </aside>
  )
}
