import type { ReactNode } from 'react'
import { Tooltip } from '../../../../components/Tooltip.tsx'

/** A disabled control with the reason as its tooltip, or the control as it is. */
export function WithReason({ reason, children }: { reason: string | null; children: ReactNode }) {
  return reason ? <Tooltip content={reason}>{children}</Tooltip> : <>{children}</>
}
