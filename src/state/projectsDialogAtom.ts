import { atom } from 'jotai'

/**
 * The one dialog or side form open on the Projects page. It holds ids only: the project and
 * simulation themselves are read from the projects query, so they stay current.
 */
export type ProjectsDialog =
  | { kind: 'new-project' }
  | { kind: 'filter' }
  | { kind: 'edit-project'; projectId: number }
  | { kind: 'delete-project'; projectId: number }
  | { kind: 'new-simulation'; projectId: number }
  | { kind: 'rename-simulation'; projectId: number; simulationId: number }
  | { kind: 'move-simulation'; projectId: number; simulationId: number }
  | { kind: 'upload-simulation'; projectId: number; simulationId: number }
  | { kind: 'delete-simulation'; projectId: number; simulationId: number }

export const projectsDialogAtom = atom<ProjectsDialog | null>(null)
projectsDialogAtom.debugLabel = 'projectsDialogAtom'
