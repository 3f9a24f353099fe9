import type { User } from '../../../domain/account.ts'
import type { AccessGrant } from '../../../domain/accountAccess.ts'
import { TRUNCATE_CHARS } from '../../../domain/constants.ts'
import { formatDateTime } from '../../../domain/units.ts'
import { truncateText } from '../TruncatedText.tsx'

/** The selector's choice of null: act in the own organization (spec/account.md §4). */
export const OWN_ORGANIZATION_LABEL = 'My organization'

/** A name cut at the spec's 80 characters (spec/results.md §9 'Name truncation'), with an ellipsis. */
export function cutName(name: string): string {
  return name.length <= TRUNCATE_CHARS.name ? name : `${truncateText(name, TRUNCATE_CHARS.name)}…`
}

/** One grant the access-grant selector offers. */
export interface AccessGrantOption {
  grantId: number
  label: string
  expiry: string
}

/**
 * The grants the user may act through: their own, active ones, newest first, each named by its
 * organization and when it ends. A grant already chosen stays listed even if the list has not
 * caught up with it yet, so the select always shows what the user acts in.
 */
export function accessGrantOptions(
  grants: readonly AccessGrant[],
  user: Pick<User, 'id' | 'activeAccessGrantId' | 'organization'>,
): AccessGrantOption[] {
  const options = grants
    .filter((grant) => grant.requesterId === user.id && grant.state === 'active')
    .map((grant) => ({
      grantId: grant.id,
      label: `${cutName(grant.organization.name)} (until ${formatDateTime(grant.expiry)})`,
      expiry: grant.expiry,
    }))
  const active = user.activeAccessGrantId
  if (active !== null && !options.some((option) => option.grantId === active))
    options.unshift({ grantId: active, label: cutName(user.organization.name), expiry: '' })
  return options
}
