import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { ProjectCreateSchema, SimulationMoveSchema } from '../../domain/projects.ts'
import { ApiError } from './apiError.ts'
import { methodsForPath, routePattern, toFastifyPath } from './routes.ts'
import { parseBody, requiredKeys } from './validation.ts'

describe('route paths', () => {
  it('turns {param} into :param under /api', () => {
    expect(toFastifyPath('/projects/{projectId}/simulations')).toBe(
      '/api/projects/:projectId/simulations',
    )
  })

  it('matches concrete paths against the ROUTES patterns', () => {
    expect(routePattern('/simulations/{id}/move').test('/api/simulations/12/move')).toBe(true)
    expect(routePattern('/simulations/{id}/move').test('/api/simulations/12/move/x')).toBe(false)
    expect(routePattern('/openapi.json').test('/api/openapiXjson')).toBe(false)
  })

  it('knows which methods a path has', () => {
    expect(methodsForPath('/api/projects/3')).toEqual(['GET', 'PUT', 'DELETE'])
    expect(methodsForPath('/api/simulations/3')).toEqual(['GET', 'PUT', 'POST', 'DELETE'])
    expect(methodsForPath('/api/unknown')).toEqual([])
  })
})

describe('body validation', () => {
  it('finds the keys a body cannot do without', () => {
    expect(requiredKeys(ProjectCreateSchema)).toEqual(['name'])
    expect(requiredKeys(v.string())).toEqual([])
  })

  it('reports missing keys as body_keys_missing and broken rules as validation_error', () => {
    const code = (run: () => unknown) => {
      try {
        run()
      } catch (error) {
        return error instanceof ApiError ? error.code : 'other'
      }
      return 'none'
    }
    expect(code(() => parseBody(SimulationMoveSchema, undefined))).toBe('body_keys_missing')
    expect(code(() => parseBody(SimulationMoveSchema, {}))).toBe('body_keys_missing')
    expect(code(() => parseBody(SimulationMoveSchema, { projectId: 'x' }))).toBe('validation_error')
    expect(code(() => parseBody(SimulationMoveSchema, [1]))).toBe('validation_error')
    expect(parseBody(SimulationMoveSchema, { projectId: 4 })).toEqual({ projectId: 4 })
  })
})
