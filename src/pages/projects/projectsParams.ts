import {
  DEFAULT_PROJECT_PAGE_SIZE,
  PROJECT_ORDER_BY,
  PROJECT_PAGE_SIZES,
  PROJECT_VIEWS,
  type ProjectOrderBy,
  type ProjectView,
} from '../../../domain/limits.ts'
import type { ProjectListInput } from '../../queries/queries.ts'

export type ProjectPageSize = (typeof PROJECT_PAGE_SIZES)[number]

/** Everything the Projects page shows is in its URL, so a link or the back button restores it. */
export interface ProjectsParams {
  pageLimit: ProjectPageSize
  pageNumber: number
  search: string
  view: ProjectView
  orderBy: ProjectOrderBy
  createdBy: readonly number[]
  projectIds: readonly number[]
}

export const DEFAULT_PROJECTS_PARAMS: ProjectsParams = {
  pageLimit: DEFAULT_PROJECT_PAGE_SIZE,
  pageNumber: 1,
  search: '',
  view: 'own',
  orderBy: 'updatedAt',
  createdBy: [],
  projectIds: [],
}

function oneOf<T extends string | number>(options: readonly T[], value: unknown, fallback: T): T {
  return options.find((option) => String(option) === value) ?? fallback
}

/** Ids from repeated (`a=1&a=2`) or comma separated (`a=1,2`) parameters; junk is dropped. */
function parseIds(search: URLSearchParams, key: string): number[] {
  const ids = search
    .getAll(key)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => /^\d{1,12}$/.test(value))
    .map(Number)
  return [...new Set(ids)]
}

/** Reads the page state from the URL; a missing or invalid value means its default. */
export function parseProjectsParams(search: URLSearchParams): ProjectsParams {
  const pageNumberText = search.get('pageNumber') ?? ''
  const pageNumber = /^\d{1,7}$/.test(pageNumberText) ? Number(pageNumberText) : 1
  return {
    pageLimit: oneOf(
      PROJECT_PAGE_SIZES,
      search.get('pageLimit'),
      DEFAULT_PROJECTS_PARAMS.pageLimit,
    ),
    pageNumber: Math.max(pageNumber, 1),
    search: (search.get('search') ?? '').slice(0, 200),
    view: oneOf(PROJECT_VIEWS, search.get('view'), DEFAULT_PROJECTS_PARAMS.view),
    orderBy: oneOf(PROJECT_ORDER_BY, search.get('orderBy'), DEFAULT_PROJECTS_PARAMS.orderBy),
    createdBy: parseIds(search, 'createdBy'),
    projectIds: parseIds(search, 'projectIds'),
  }
}

/** Writes the page state to URL parameters, leaving defaults out and repeating list keys. */
export function serializeProjectsParams(params: ProjectsParams): URLSearchParams {
  const search = new URLSearchParams()
  if (params.pageLimit !== DEFAULT_PROJECTS_PARAMS.pageLimit)
    search.set('pageLimit', String(params.pageLimit))
  if (params.pageNumber !== 1) search.set('pageNumber', String(params.pageNumber))
  if (params.search !== '') search.set('search', params.search)
  if (params.view !== DEFAULT_PROJECTS_PARAMS.view) search.set('view', params.view)
  if (params.orderBy !== DEFAULT_PROJECTS_PARAMS.orderBy) search.set('orderBy', params.orderBy)
  for (const id of params.createdBy) search.append('createdBy', String(id))
  for (const id of params.projectIds) search.append('projectIds', String(id))
  return search
}

/** Whether search or filters narrow the list (which picks the 'No projects found' empty state). */
export function hasActiveFilters(params: ProjectsParams): boolean {
  return params.search.trim() !== '' || params.createdBy.length > 0 || params.projectIds.length > 0
}

/**
 * GET /projects query for the page state. My projects asks for the user's own projects; so does a
 * user who may not view all projects, whatever the URL says.
 */
export function projectListQuery(
  params: ProjectsParams,
  user: { id: number; canViewAll: boolean },
): ProjectListInput {
  const ownOnly = !user.canViewAll || params.view === 'own'
  const createdBy = ownOnly ? [user.id] : [...params.createdBy]
  const query: ProjectListInput = {
    pageLimit: params.pageLimit,
    pageNumber: params.pageNumber,
    orderBy: params.orderBy,
  }
  const q = params.search.trim()
  if (q) query.q = q
  if (createdBy.length > 0) query.createdBy = createdBy
  if (params.projectIds.length > 0) query.projectIds = [...params.projectIds]
  return query
}
