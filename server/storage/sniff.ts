/*
 * What a file really is, by its first bytes: an upload that claims to be an STL or a CSV but is an
 * image, an archive or a program is a potential security risk (spec/setup.md §5: status 503).
 */

/** Signatures of formats no STL or CSV ever starts with. */
const SIGNATURES: readonly { format: string; bytes: readonly number[] }[] = [
  { format: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { format: 'zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { format: 'zip', bytes: [0x50, 0x4b, 0x05, 0x06] },
  { format: 'elf', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { format: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { format: 'gzip', bytes: [0x1f, 0x8b] },
  { format: 'jpeg', bytes: [0xff, 0xd8, 0xff] },
  { format: 'gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { format: '7z', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { format: 'rar', bytes: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
  { format: 'mach-o', bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { format: 'mach-o', bytes: [0xfe, 0xed, 0xfa, 0xcf] },
  { format: 'java class', bytes: [0xca, 0xfe, 0xba, 0xbe] },
  { format: 'wasm', bytes: [0x00, 0x61, 0x73, 0x6d] },
  { format: 'script', bytes: [0x23, 0x21] },
]

/** The format a file's first bytes give away (png, zip, elf, …), or null when none matches. */
export function detectForeignFormat(bytes: Uint8Array): string | null {
  for (const { format, bytes: signature } of SIGNATURES)
    if (signature.every((byte, i) => bytes[i] === byte)) return format
  // 'MZ' and a PE offset: a Windows executable.
  if (bytes[0] === 0x4d && bytes[1] === 0x5a && bytes.length >= 64) return 'exe'
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 256)).trimStart().toLowerCase()
  if (
    head.startsWith('<!doctype') ||
    head.startsWith('<html') ||
    head.startsWith('<?xml') ||
    head.startsWith('<svg')
  )
    return 'markup'
  return null
}

/** True when the bytes are printable text (tabs and line breaks allowed) in their first 4 KiB. */
export function isPrintableText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, Math.min(bytes.length, 4096))
  for (const byte of sample)
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte === 0x7f) return false
  return true
}
