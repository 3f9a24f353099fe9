/** Name and description limits (spec/account.md §9, spec/results.md §5). */
export const PROJECT_NAME_MAX = 100
export const PROJECT_DESCRIPTION_MAX = 500
/** Simulation inputs accept one more character than allowed, so the limit can be flagged. */
export const SIMULATION_NAME_MAX = 100
export const SIMULATION_NAME_INPUT_MAX = 101
export const SIMULATION_DESCRIPTION_MAX = 500
export const SIMULATION_DESCRIPTION_INPUT_MAX = 501
/** Project descriptions are cut at 120 characters in the list, with Read more / Read less. */
export const PROJECT_DESCRIPTION_TRUNCATE = 120

export const PROJECT_PAGE_SIZES = [10, 15, 30] as const
export const DEFAULT_PROJECT_PAGE_SIZE = 10
/** slim project lists (pickers) return up to 1000 rows. */
export const SLIM_PAGE_LIMIT = 1000
export const PROJECT_ORDER_BY = ['updatedAt', 'name', 'size'] as const
export type ProjectOrderBy = (typeof PROJECT_ORDER_BY)[number]
export const PROJECT_VIEWS = ['own', 'all'] as const
export type ProjectView = (typeof PROJECT_VIEWS)[number]
