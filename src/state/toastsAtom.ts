import { atom } from 'jotai'
import { TOAST_DURATION_MS } from '../../domain/constants.ts'

export const TOAST_KINDS = ['info', 'success', 'warning', 'error'] as const
export type ToastKind = (typeof TOAST_KINDS)[number]

/** A link shown in a toast, e.g. to a simulation's dashboard. */
export interface ToastLink {
  label: string
  to: string
}

export interface Toast {
  id: string
  kind: ToastKind
  title: string
  description?: string
  links?: readonly ToastLink[]
  /** Auto-close after this long; 6 s by default, 10 s for simulation toasts. */
  durationMs: number
}

export interface ToastInput extends Omit<Toast, 'id' | 'durationMs'> {
  /** A toast with the id of one already shown replaces it instead of stacking a copy. */
  id?: string
  durationMs?: number
}

let nextToastId = 1

/** Toasts on screen, oldest first. */
export const toastsAtom = atom<readonly Toast[]>([])
toastsAtom.debugLabel = 'toastsAtom'

/** Shows a toast; returns its id. */
export const pushToastAtom = atom(null, (get, set, input: ToastInput): string => {
  const id = input.id ?? `toast-${nextToastId++}`
  const toast: Toast = { ...input, id, durationMs: input.durationMs ?? TOAST_DURATION_MS.default }
  set(toastsAtom, [...get(toastsAtom).filter((t) => t.id !== id), toast])
  return id
})
pushToastAtom.debugLabel = 'pushToastAtom'

export const dismissToastAtom = atom(null, (get, set, id: string) => {
  set(
    toastsAtom,
    get(toastsAtom).filter((toast) => toast.id !== id),
  )
})
dismissToastAtom.debugLabel = 'dismissToastAtom'
