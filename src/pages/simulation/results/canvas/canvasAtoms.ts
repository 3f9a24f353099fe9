import { atom } from 'jotai'

/** Velocity arrows over the fluids are drawn (vector field: at most 5000, 25 px apart). */
export const velocityArrowsAtom = atom<boolean>(false)
velocityArrowsAtom.debugLabel = 'velocityArrowsAtom'
