import { useState } from 'react'

/**
 * Text cut at `maxChars` (on a word boundary when one is near) with a Read more / Read less toggle.
 */
export function TruncatedText({ text, maxChars }: { text: string; maxChars: number }) {
  const [expanded, setExpanded] = useState(false)
  if (text.length <= maxChars) return <span>{text}</span>
  return (
    <span>
      {expanded ? text : `${truncateText(text, maxChars)}… `}
      {expanded && ' '}
      <button
        type="button"
        className="link-button"
        aria-expanded={expanded}
        onClick={() => setExpanded(!expanded)}
      >
        {expanded ? 'Read less' : 'Read more'}
      </button>
    </span>
  )
}

/** The first `maxChars` characters, without a dangling half word or trailing space. */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const cut = text.slice(0, maxChars)
  const lastSpace = cut.lastIndexOf(' ')
  // Break at a word only when that keeps most of the text.
  return (lastSpace > maxChars * 0.8 ? cut.slice(0, lastSpace) : cut).trimEnd()
}
