/**
 * The Setup view's user-facing catalogue (spec/setup.md §8) that is not a validation rule: failure
 * toasts of setup edits, uploads, geometry updates and the scene's messages. Validation messages
 * live with their rules (parts.ts, materials.ts, settingsRules.ts, movements.ts, …).
 */

/** Setup entities whose add, update and delete failures get a toast (spec/setup.md §8). */
export const SETUP_ENTITY_LABELS = {
  part: 'part',
  refinement: 'refinement zone',
  material: 'material',
  mesh: 'mesh',
  movement: 'movement',
  sensor: 'sensor',
  volumeClip: 'volume clip',
  periodic: 'periodic boundary',
  settings: 'settings',
  calcDomain: 'deletion boundary',
} as const
/** One setup entity with failure toasts. */
export type SetupEntity = keyof typeof SETUP_ENTITY_LABELS

/** What an edit did. */
export type SetupAction = 'add' | 'update' | 'delete'

const ACTION_VERBS: Record<SetupAction, string> = {
  add: 'Adding',
  update: 'Updating',
  delete: 'Deleting',
}

/** The title of a failed edit's toast: 'Adding part failed', 'Updating part failed', … */
export function setupFailureTitle(action: SetupAction, entity: SetupEntity): string {
  return `${ACTION_VERBS[action]} ${SETUP_ENTITY_LABELS[entity]} failed`
}

/** 'The upload of {file} failed' (spec/setup.md §8). */
export function uploadFailedMessage(fileName: string): string {
  return `The upload of ${fileName} failed`
}

/** 'Could not update geometry: {message}' (spec/setup.md §8). */
export function geometryUpdateFailedMessage(message: string): string {
  return `Could not update geometry: ${message}`
}

/**
 * The rest of the catalogue, word for word. Messages that belong to a rule live with it:
 * PART_MESSAGES of parts.ts (security risk, 'Part has potential issues…', the table deletion
 * question), settingsRules.ts ('Advanced Settings Were Adjusted'), datatable.ts (table errors),
 * movements.ts (keyframes and loading), jobs.ts JOB_TEXTS (discretization), runRoutes.ts RUN_TEXTS
 * ('Edit Setup').
 */
export const SETUP_MESSAGES = {
  updatingPartFailed: 'Updating part failed',
  accelerationUploadFailed: 'Uploading acceleration file failed',
  loadedPointclouds: 'Loaded pointclouds',
  /** Tooltip over the calculation domain box in the view. */
  deletionBoundaryTooltip: 'Deletion Boundary',
  /** Tooltip of disabled editing controls while the setup is locked (spec/setup.md §1). */
  lockedHint:
    'Click "Edit Setup" to edit this field. The simulation will have to be restarted from the 0th output.',
} as const
