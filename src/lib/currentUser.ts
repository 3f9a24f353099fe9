import { createContext, useContext } from 'react'
import type { Permission, User } from '../../domain/account.ts'

/** The logged-in user; RequireAuth provides it once GET /users succeeded. */
export const CurrentUserContext = createContext<User | null>(null)

export function useCurrentUser(): User {
  const user = useContext(CurrentUserContext)
  if (!user) throw new Error('useCurrentUser needs a logged-in user (inside RequireAuth)')
  return user
}

/** Permissions come with the user from the server, so an access grant is already accounted for. */
export function userCan(user: Pick<User, 'permissions'>, permission: Permission): boolean {
  return user.permissions.includes(permission)
}
