import { describe, expect, it } from 'vitest'
import {
  DEFAULT_PROJECTS_PARAMS,
  hasActiveFilters,
  parseProjectsParams,
  projectListQuery,
  serializeProjectsParams,
} from './projectsParams.ts'

const parse = (query: string) => parseProjectsParams(new URLSearchParams(query))

describe('parseProjectsParams', () => {
  it('gives the defaults for an empty URL', () => {
    expect(parse('')).toEqual({
      pageLimit: 10,
      pageNumber: 1,
      search: '',
      view: 'own',
      orderBy: 'updatedAt',
      createdBy: [],
      projectIds: [],
    })
  })

  it('reads every parameter', () => {
    expect(
      parse(
        'pageLimit=30&pageNumber=3&search=dam&view=all&orderBy=size&createdBy=2&createdBy=5&projectIds=7',
      ),
    ).toEqual({
      pageLimit: 30,
      pageNumber: 3,
      search: 'dam',
      view: 'all',
      orderBy: 'size',
      createdBy: [2, 5],
      projectIds: [7],
    })
  })

  it('accepts comma separated lists and drops duplicates and junk', () => {
    expect(parse('projectIds=1,2&projectIds=2&projectIds=x&createdBy=,3').projectIds).toEqual([
      1, 2,
    ])
    expect(parse('createdBy=,3').createdBy).toEqual([3])
  })

  it('falls back to defaults for values that are not allowed', () => {
    const params = parse('pageLimit=20&pageNumber=0&view=everything&orderBy=colour')
    expect(params.pageLimit).toBe(10)
    expect(params.pageNumber).toBe(1)
    expect(params.view).toBe('own')
    expect(params.orderBy).toBe('updatedAt')
    expect(parse('pageNumber=abc').pageNumber).toBe(1)
  })
})

describe('serializeProjectsParams', () => {
  it('leaves defaults out of the URL', () => {
    expect(serializeProjectsParams(DEFAULT_PROJECTS_PARAMS).toString()).toBe('')
  })

  it('repeats list keys and survives a round trip', () => {
    const params = {
      ...DEFAULT_PROJECTS_PARAMS,
      pageLimit: 15 as const,
      pageNumber: 2,
      search: 'dam break',
      view: 'all' as const,
      orderBy: 'name' as const,
      createdBy: [2, 5],
      projectIds: [9],
    }
    const text = serializeProjectsParams(params).toString()
    expect(text).toBe(
      'pageLimit=15&pageNumber=2&search=dam+break&view=all&orderBy=name&createdBy=2&createdBy=5&projectIds=9',
    )
    expect(parse(text)).toEqual(params)
  })
})

describe('hasActiveFilters', () => {
  it('counts search, user and project filters but not the view or sort', () => {
    expect(hasActiveFilters(parse('view=all&orderBy=name&pageLimit=30'))).toBe(false)
    expect(hasActiveFilters(parse('search=x'))).toBe(true)
    expect(hasActiveFilters(parse('search=%20%20'))).toBe(false)
    expect(hasActiveFilters(parse('createdBy=3'))).toBe(true)
    expect(hasActiveFilters(parse('projectIds=3'))).toBe(true)
  })
})

describe('projectListQuery', () => {
  const manager = { id: 2, canViewAll: true }
  const contributor = { id: 3, canViewAll: false }

  it('asks for the own projects in the My projects view', () => {
    expect(projectListQuery(parse('search=%20dam%20'), manager)).toEqual({
      pageLimit: 10,
      pageNumber: 1,
      orderBy: 'updatedAt',
      q: 'dam',
      createdBy: [2],
    })
  })

  it('asks for everyone (or the chosen users) in the All projects view', () => {
    expect(projectListQuery(parse('view=all'), manager).createdBy).toBeUndefined()
    expect(projectListQuery(parse('view=all&createdBy=3&projectIds=4'), manager)).toMatchObject({
      createdBy: [3],
      projectIds: [4],
    })
  })

  it('always asks for the own projects of a user who may not view all', () => {
    expect(projectListQuery(parse('view=all&createdBy=2'), contributor).createdBy).toEqual([3])
  })
})
