import { AVATARS } from '../../../domain/account.ts'

/**
 * Name and badge class of avatar `id` (0–9: dolphin … whale, spec/account.md §2); anything else
 * falls back to the first. Each animal has its own colour (settings.css `.animal-avatar--N`) and
 * its initials, so it reads the same without an emoji font.
 */
export function avatarOf(id: number): { name: string; initials: string; className: string } {
  const index = Number.isInteger(id) && id >= 0 && id < AVATARS.length ? id : 0
  const animal = AVATARS[index] ?? AVATARS[0]
  return {
    name: animal.charAt(0).toUpperCase() + animal.slice(1),
    initials: animal.charAt(0).toUpperCase() + animal.charAt(1),
    className: `animal-avatar animal-avatar--${index}`,
  }
}
