/** The Projects page showing one project; view=all when the user did not create it. */
export function projectPageLink(
  project: { id: number; creator: { id: number } },
  userId: number,
): string {
  const params = new URLSearchParams({ projectIds: String(project.id) })
  if (project.creator.id !== userId) params.set('view', 'all')
  return `/projects?${params.toString()}`
}

/** The simulation page a row click opens. */
export function simulationPageLink(
  simulationId: number,
  mode: 'preprocessor' | 'dashboard' | 'postprocessor',
): string {
  return `/simulation/${simulationId}/${mode}`
}
