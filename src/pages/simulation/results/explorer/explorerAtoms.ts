import { atom } from 'jotai'
import type { ClipMaskInfo } from './explorerModel.ts'

/**
 * What is known of each volume clip's mask at the shown output, by clip id. Written by the
 * results-session bridge (useClipMaskInfo) and read by the volume clip items; a clip absent here
 * reads as missing ('Results can not be loaded yet, please wait.').
 */
export const clipMaskInfoAtom = atom<Record<number, ClipMaskInfo>>({})
clipMaskInfoAtom.debugLabel = 'clipMaskInfoAtom'

/**
 * Bumped when a sensor recomputation ends: whoever holds sensor samples (statistics, charts)
 * clears and refetches them.
 */
export const sensorDataVersionAtom = atom(0)
sensorDataVersionAtom.debugLabel = 'sensorDataVersionAtom'

/** The Results explorer's Air Drag item: the air drag grid is drawn over the results. */
export const airDragGridVisibleAtom = atom(false)
airDragGridVisibleAtom.debugLabel = 'airDragGridVisibleAtom'
