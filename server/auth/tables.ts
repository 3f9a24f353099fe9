/*
 * Login throttling (issue 13 item 3) in the database, so a restart keeps the counts and every
 * server process on the database shares them. A key (an account or an address) owns up to its
 * limit of slots; a slot holds the time of one failed attempt (or of one being checked) and is
 * free again once that time left the window.
 */

export interface LoginFailuresTable {
  /** 'account' (key: SHA-256 of the normalized e-mail) or 'address' (key: the client address). */
  scope: string
  key: string
  /** 0 … limit − 1 of the scope. */
  slot: number
  /** ISO-8601 time of the attempt. */
  failed_at: string
}
