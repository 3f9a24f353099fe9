import { useId, useState } from 'react'
import { SEARCH_DEBOUNCE_MS } from '../../../domain/constants.ts'
import type { ProjectOrderBy, ProjectView } from '../../../domain/limits.ts'
import { IconFilter, IconSearch } from '../../components/icons.tsx'
import { useDebouncedCallback } from '../../lib/useDebouncedCallback.ts'

const SORT_OPTIONS: readonly { value: ProjectOrderBy; label: string }[] = [
  { value: 'updatedAt', label: 'Date' },
  { value: 'name', label: 'Name' },
  { value: 'size', label: 'Size' },
]

export interface ProjectsControlBarProps {
  search: string
  view: ProjectView
  orderBy: ProjectOrderBy
  activeFilterCount: number
  /** With PROJECTS_VIEW_ALL: the My projects / All projects toggle. */
  canViewAll: boolean
  onSearchChange: (search: string) => void
  onViewChange: (view: ProjectView) => void
  onOrderByChange: (orderBy: ProjectOrderBy) => void
  onOpenFilters: () => void
  storage: React.ReactNode
}

/** Search, filter, My/All toggle, sort and storage; contributors get it without the toggle. */
export function ProjectsControlBar({
  search,
  view,
  orderBy,
  activeFilterCount,
  canViewAll,
  onSearchChange,
  onViewChange,
  onOrderByChange,
  onOpenFilters,
  storage,
}: ProjectsControlBarProps) {
  const sortId = useId()
  return (
    <div className={`control-bar${canViewAll ? '' : ' control-bar--slim'}`}>
      <SearchInput value={search} onChange={onSearchChange} />
      <button type="button" className="button button--secondary" onClick={onOpenFilters}>
        <IconFilter />
        Filter
        {activeFilterCount > 0 && (
          <span className="badge" aria-label={`${activeFilterCount} active`}>
            {activeFilterCount}
          </span>
        )}
      </button>
      {canViewAll && (
        <div className="segmented" role="group" aria-label="Projects shown">
          {(
            [
              ['own', 'My projects'],
              ['all', 'All projects'],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              className="segmented__option"
              aria-pressed={view === value}
              onClick={() => onViewChange(value)}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      <div className="control-bar__sort">
        <label htmlFor={sortId}>Sort by</label>
        <select
          id={sortId}
          className="select select--compact"
          value={orderBy}
          onChange={(event) => onOrderByChange(event.target.value as ProjectOrderBy)}
        >
          {SORT_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="control-bar__end">{storage}</div>
    </div>
  )
}

/** Typing updates the URL 200 ms after the last key; a URL change (back button) updates the box. */
function SearchInput({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [draft, setDraft] = useState(value)
  const [syncedValue, setSyncedValue] = useState(value)
  const publish = useDebouncedCallback(onChange, SEARCH_DEBOUNCE_MS.billing)
  if (value !== syncedValue) {
    setSyncedValue(value)
    setDraft(value)
  }
  return (
    <div className="search">
      <IconSearch className="search__icon" />
      <input
        className="input search__input"
        type="search"
        aria-label="Search"
        placeholder="Simulation or project name"
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value)
          publish(event.target.value)
        }}
      />
    </div>
  )
}
