import { useAtom } from 'jotai'
import { useEffect, useMemo } from 'react'
import { useSearchParams } from 'react-router'
import { PROJECT_PAGE_SIZES } from '../../../domain/limits.ts'
import type { Project } from '../../../domain/projects.ts'
import { messageOf } from '../../api/ApiError.ts'
import { EmptyState } from '../../components/EmptyState.tsx'
import { IconClose, IconFolder, IconPlus, IconSearch } from '../../components/icons.tsx'
import { Pagination } from '../../components/Pagination.tsx'
import { LoadingBlock, Spinner } from '../../components/Spinner.tsx'
import { StorageBar } from '../../components/StorageBar.tsx'
import { useCurrentUser, userCan } from '../../lib/currentUser.ts'
import { usePageTitle } from '../../lib/usePageTitle.ts'
import {
  useHasFeature,
  useProjectsQuery,
  useSlimProjectsQuery,
  useTeamUsersQuery,
} from '../../queries/queries.ts'
import { projectsDialogAtom } from '../../state/projectsDialogAtom.ts'
import { ProjectsDialogs } from './dialogs/ProjectsDialogs.tsx'
import { ProjectCard } from './ProjectCard.tsx'
import { ProjectsControlBar } from './ProjectsControlBar.tsx'
import {
  hasActiveFilters,
  parseProjectsParams,
  projectListQuery,
  serializeProjectsParams,
  type ProjectPageSize,
  type ProjectsParams,
} from './projectsParams.ts'
import { trackEvent } from '../../analytics/analytics.ts'

/** Only full projects are listed here (slim ones come from pickers). */
function isFullProject(project: { id: number }): project is Project {
  return 'simulations' in project && 'size' in project && 'description' in project
}

/** /projects: the user's (or every) project with their simulations; all state lives in the URL. */
export function ProjectsPage() {
  usePageTitle('Projects')
  const user = useCurrentUser()
  const canViewAll = userCan(user, 'PROJECTS_VIEW_ALL')
  const uploadEnabled = useHasFeature(user.organization.id, 'upload_preprocessing')
  const [searchParams, setSearchParams] = useSearchParams()
  const params = useMemo(() => parseProjectsParams(searchParams), [searchParams])
  const [dialog, setDialog] = useAtom(projectsDialogAtom)
  const projectsQuery = useProjectsQuery(projectListQuery(params, { id: user.id, canViewAll }))
  const page = projectsQuery.data
  const projects = useMemo(() => (page?.results ?? []).filter(isFullProject), [page])

  // A dialog belongs to this visit of the page.
  useEffect(() => () => setDialog(null), [setDialog])

  function update(
    changes: Partial<ProjectsParams>,
    options: { replace?: boolean; preventScrollReset?: boolean } = {},
  ) {
    // Anything but paging changes the result set, so it starts again at page 1.
    const resetsPage = !('pageNumber' in changes)
    const next = { ...params, ...(resetsPage && { pageNumber: 1 }), ...changes }
    setSearchParams(serializeProjectsParams(next), options)
  }

  // Past the last page (after a delete or with a hand-written URL): show the last one.
  const pageCount = page?.pageCount ?? 0
  useEffect(() => {
    if (pageCount > 0 && params.pageNumber > pageCount)
      setSearchParams(serializeProjectsParams({ ...params, pageNumber: pageCount }), {
        replace: true,
      })
  }, [pageCount, params, setSearchParams])

  const filtered = hasActiveFilters(params)
  const activeFilterCount = params.createdBy.length + params.projectIds.length

  return (
    <div className="page">
      <header className="page__header">
        <div>
          <h1 className="page__title">Projects</h1>
          <p className="page__subtitle">
            {page ? `${page.resultCount} ${page.resultCount === 1 ? 'project' : 'projects'}` : ' '}
            {projectsQuery.isFetching && page && <Spinner label="Refreshing projects" size={12} />}
          </p>
        </div>
        <button
          type="button"
          className="button button--primary"
          onClick={() => setDialog({ kind: 'new-project' })}
        >
          <IconPlus />
          New project
        </button>
      </header>

      <ProjectsControlBar
        search={params.search}
        view={params.view}
        orderBy={params.orderBy}
        activeFilterCount={activeFilterCount}
        canViewAll={canViewAll}
        onSearchChange={(search) => update({ search }, { replace: true, preventScrollReset: true })}
        onViewChange={(view) => {
          update({ view, ...(view === 'own' && { createdBy: [] }) })
          trackEvent('ui_project-view_changed', { view })
        }}
        onOrderByChange={(orderBy) => update({ orderBy })}
        onOpenFilters={() => setDialog({ kind: 'filter' })}
        storage={<StorageBar variant="detailed" />}
      />

      {activeFilterCount > 0 && (
        <FilterChips
          params={params}
          canViewAll={canViewAll}
          onChange={(changes) => update(changes)}
        />
      )}

      {projectsQuery.isError && !page ? (
        <div className="alert alert--error" role="alert">
          Could not load the projects: {messageOf(projectsQuery.error)}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => void projectsQuery.refetch()}
          >
            Try again
          </button>
        </div>
      ) : !page ? (
        <LoadingBlock label="Loading projects" />
      ) : projects.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={<IconSearch width={24} height={24} />}
            title="No projects found. Please adjust your search parameters."
            action={
              <button
                type="button"
                className="button button--secondary"
                onClick={() => update({ search: '', createdBy: [], projectIds: [] })}
              >
                Clear search and filters
              </button>
            }
          />
        ) : (
          <EmptyState
            icon={<IconFolder width={24} height={24} />}
            title="Start creating your great project"
            action={
              <button
                type="button"
                className="button button--primary"
                onClick={() => setDialog({ kind: 'new-project' })}
              >
                <IconPlus />
                Create a project
              </button>
            }
          >
            Projects group your simulations. Create one, then add simulations to it.
          </EmptyState>
        )
      ) : (
        <div className="project-list">
          {projects.map((project) => (
            <ProjectCard
              key={project.id}
              project={project}
              userId={user.id}
              showOwner={canViewAll}
              uploadEnabled={uploadEnabled}
            />
          ))}
        </div>
      )}

      {page && page.resultCount > 0 && (
        <Pagination
          pageNumber={Math.min(params.pageNumber, Math.max(page.pageCount, 1))}
          pageCount={page.pageCount}
          pageLimit={params.pageLimit}
          pageSizes={PROJECT_PAGE_SIZES}
          pageSizeLabel="Projects per page"
          onPageChange={(pageNumber) => update({ pageNumber })}
          onPageLimitChange={(pageLimit) => update({ pageLimit: pageLimit as ProjectPageSize })}
        />
      )}

      {dialog && (
        <ProjectsDialogs
          projects={projects}
          params={params}
          canViewAll={canViewAll}
          onApplyFilters={(filters) =>
            update({
              createdBy: canViewAll ? filters.createdBy : [],
              projectIds: filters.projectIds,
              // A user filter only means something among all projects.
              ...(canViewAll && filters.createdBy.length > 0 && { view: 'all' as const }),
            })
          }
        />
      )}
    </div>
  )
}

/** The active user and project filters, each removable. */
function FilterChips({
  params,
  canViewAll,
  onChange,
}: {
  params: ProjectsParams
  canViewAll: boolean
  onChange: (changes: Partial<ProjectsParams>) => void
}) {
  const users = useTeamUsersQuery(canViewAll && params.createdBy.length > 0).data ?? []
  const projects = useSlimProjectsQuery(params.projectIds.length > 0).data?.results ?? []
  const chips = [
    ...params.createdBy.map((id) => ({
      key: `user-${id}`,
      label: `Created by ${users.find((u) => u.id === id)?.fullName ?? `user ${id}`}`,
      remove: () => onChange({ createdBy: params.createdBy.filter((other) => other !== id) }),
    })),
    ...params.projectIds.map((id) => ({
      key: `project-${id}`,
      label: `Project: ${projects.find((p) => p.id === id)?.name ?? `#${id}`}`,
      remove: () => onChange({ projectIds: params.projectIds.filter((other) => other !== id) }),
    })),
  ]
  return (
    <ul className="chips" aria-label="Active filters">
      {chips.map((chip) => (
        <li key={chip.key} className="chip">
          <span>{chip.label}</span>
          <button
            type="button"
            className="chip__remove"
            aria-label={`Remove filter ${chip.label}`}
            onClick={chip.remove}
          >
            <IconClose width={12} height={12} />
          </button>
        </li>
      ))}
      <li>
        <button
          type="button"
          className="link-button"
          onClick={() => onChange({ createdBy: [], projectIds: [] })}
        >
          Clear filters
        </button>
      </li>
    </ul>
  )
}
