import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'

/** After any project or simulation change: every list, picker, storage figure and detail refetches. */
export function useInvalidateProjects(): () => Promise<void> {
  const queryClient = useQueryClient()
  return useCallback(async () => {
    await Promise.all(
      ['listProjects', 'storageConsumption', 'getProject', 'getSimulation'].map((name) =>
        queryClient.invalidateQueries({ queryKey: [name] }),
      ),
    )
  }, [queryClient])
}
