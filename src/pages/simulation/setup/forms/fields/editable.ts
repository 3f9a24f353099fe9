import { createContext, useContext } from 'react'

/** Whether the setup may be edited here, and why not (shown as the disabled controls' tooltip). */
export interface SetupEditable {
  editable: boolean
  /** Why editing is off: the locked hint, 'Sensors cannot be …', read-only access. */
  reason: string | null
}

/** Provided by the Setup editor from the simulation's state; editable by default (tests). */
export const SetupEditableContext = createContext<SetupEditable>({ editable: true, reason: null })

/** Whether inputs, deletes and mutations are enabled in the Setup view. */
export function useSetupEditable(): SetupEditable {
  return useContext(SetupEditableContext)
}
