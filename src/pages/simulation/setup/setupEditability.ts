import { hasPermission, type User } from '../../../../domain/account.ts'
import type { Project, Simulation } from '../../../../domain/projects.ts'
import { SETUP_MESSAGES } from '../../../../domain/setupMessages.ts'
import type { SetupEditable } from './forms/fields/editable.ts'

/** Shown on disabled controls of a contributor who did not create the simulation or its project. */
export const READ_ONLY_SETUP_MESSAGE = 'Only the creator of this simulation may edit its setup.'

/**
 * Whether the person may edit this setup (spec/setup.md §6): not while it is locked by a run (the
 * Edit Setup hint), and a contributor only their own simulations (as the server rules).
 */
export function setupEditability(
  simulation: Simulation,
  user: Pick<User, 'id' | 'role'>,
  project: Pick<Project, 'creator'> | undefined,
): SetupEditable {
  if (simulation.setupLocked) return { editable: false, reason: SETUP_MESSAGES.lockedHint }
  const ownsIt = simulation.creator.id === user.id || project?.creator.id === user.id
  if (!hasPermission(user.role, 'PROJECTS_VIEW_ALL') && !ownsIt)
    return { editable: false, reason: READ_ONLY_SETUP_MESSAGE }
  return { editable: true, reason: null }
}
