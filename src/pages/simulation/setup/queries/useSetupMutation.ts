import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import type { FieldError } from '../../../../../domain/errors.ts'
import type { RouteName } from '../../../../../domain/rest.ts'
import {
  setupFailureTitle,
  type SetupAction,
  type SetupEntity,
} from '../../../../../domain/setupMessages.ts'
import { isApiError, messageOf } from '../../../../api/ApiError.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'

/** A change made to a cached query before the server answers, undone when it refuses. */
export interface OptimisticUpdate<TInput> {
  queryKey: QueryKey
  /** The cached value with the edit applied (undefined when nothing is cached: left alone). */
  update: (cached: never, input: TInput) => unknown
}

/** How a setup edit is sent, shown while pending, undone on refusal and reported. */
export interface SetupMutationOptions<TInput, TResult> {
  mutationFn: (input: TInput) => Promise<TResult>
  /** The failure toast's title: 'Updating part failed' (or a title of its own). */
  failure: { action: SetupAction; entity: SetupEntity } | { title: string }
  /** Edits applied to cached queries at once and rolled back if the server refuses. */
  optimistic?: readonly OptimisticUpdate<TInput>[]
  /**
   * Routes whose queries are refetched once the edit settles. The setup validation and the
   * simulation (its updatedAt, the Run button) always are.
   */
  invalidate?: readonly RouteName[]
  onSuccess?: (result: TResult, input: TInput) => void
  /** Field errors of a 400 (validation_error) go here as well as into the toast. */
  onFieldErrors?: (errors: readonly FieldError[], input: TInput) => void
}

const ALWAYS_INVALIDATED: readonly RouteName[] = ['getSetupValidation', 'getSimulation']

/** The failure toast's title of an edit. */
export function failureTitleOf(failure: SetupMutationOptions<never, never>['failure']): string {
  return 'title' in failure ? failure.title : setupFailureTitle(failure.action, failure.entity)
}

/**
 * A setup edit (spec/setup.md §8): applied to the caches at once when `optimistic` says how, rolled
 * back when the server refuses, with the spec's failure toast ('Updating part failed' and the
 * server's reason), then the affected queries refetch.
 */
export function useSetupMutation<TInput, TResult>(options: SetupMutationOptions<TInput, TResult>) {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  return useMutation({
    mutationFn: options.mutationFn,
    onMutate: async (input: TInput) => {
      const updates = options.optimistic ?? []
      const snapshots: { queryKey: QueryKey; data: unknown }[] = []
      for (const { queryKey, update } of updates) {
        await queryClient.cancelQueries({ queryKey })
        const data = queryClient.getQueryData(queryKey)
        snapshots.push({ queryKey, data })
        if (data !== undefined) queryClient.setQueryData(queryKey, update(data as never, input))
      }
      return { snapshots }
    },
    onError: (error, input, context) => {
      for (const { queryKey, data } of context?.snapshots ?? [])
        queryClient.setQueryData(queryKey, data)
      const fieldErrors = isApiError(error) ? (error.body?.errors ?? []) : []
      if (fieldErrors.length > 0) options.onFieldErrors?.(fieldErrors, input)
      pushToast({
        kind: 'error',
        title: failureTitleOf(options.failure),
        description: messageOf(error),
      })
    },
    onSuccess: (result, input) => options.onSuccess?.(result, input),
    onSettled: () =>
      Promise.all(
        [...ALWAYS_INVALIDATED, ...(options.invalidate ?? [])].map((name) =>
          queryClient.invalidateQueries({ queryKey: [name] }),
        ),
      ),
  })
}
