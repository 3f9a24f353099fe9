import { AVATARS } from '../../../domain/account.ts'

/** The picture of each of the ten animal avatars (spec/account.md §2), in AVATARS order. */
const AVATAR_GLYPHS: Record<(typeof AVATARS)[number], string> = {
  dolphin: '🐬',
  frog: '🐸',
  jellyfish: '🪼',
  nautilus: '🐚',
  nemo: '🐠',
  octopus: '🐙',
  pelican: '🐦',
  shark: '🦈',
  turtle: '🐢',
  whale: '🐋',
}

/** Name and picture of avatar `id` (0–9; anything else falls back to the first). */
export function avatarOf(id: number): { name: string; glyph: string } {
  const name = AVATARS[id] ?? AVATARS[0]
  return { name: name.charAt(0).toUpperCase() + name.slice(1), glyph: AVATAR_GLYPHS[name] }
}
