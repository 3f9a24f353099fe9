// domain/ is imported by every side, so a cycle in it breaks whichever module loads first; the
// README also keeps its imports inside domain/ (valibot and apache-arrow aside).
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = dirname(fileURLToPath(import.meta.url))
const allowedPackages = ['valibot', 'apache-arrow']

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : []
  })
}

/** Module specifiers of the file's static imports and re-exports; `values` leaves out `import type`. */
function specifiers(path: string, values = false): string[] {
  const text = readFileSync(path, 'utf8')
  return [...text.matchAll(/^\s*(import|export)\s(type\s)?[^'"]*?from\s+'([^']+)'/gm)]
    .filter((m) => !(values && m[2]))
    .map((m) => m[3]!)
}

/** Value imports only: a cycle through `import type` is erased at build and runs fine. */
function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>()
  for (const file of sourceFiles(root)) {
    const local = specifiers(file, true)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(dirname(file), s))
    edges.set(file, local)
  }
  return edges
}

/** Every cycle's files, found by depth-first search (each reported once per entry point). */
function cycles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    stack.push(file)
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)))
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of edges.keys()) if (!state.has(file)) visit(file)
  return found
}

describe('domain import graph', () => {
  it('has no import cycles', () => {
    const found = cycles(graph()).map((cycle) => cycle.map((f) => relative(root, f)).join(' → '))
    expect(found).toEqual([])
  })

  it('imports nothing of ours outside domain/ and only the allowed packages', () => {
    const stray: string[] = []
    for (const file of sourceFiles(root)) {
      for (const s of specifiers(file)) {
        const outside =
          s.startsWith('.') && relative(root, resolve(dirname(file), s)).startsWith('..')
        const pkg = !s.startsWith('.') && !s.startsWith('node:') && !allowedPackages.includes(s)
        if (outside || pkg) stray.push(`${relative(root, file)}: ${s}`)
      }
    }
    expect(stray).toEqual([])
  })

  it('finds a cycle when there is one', () => {
    const a = '/d/a.ts'
    const b = '/d/b.ts'
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([[a, b]])
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, []],
        ]),
      ),
    ).toEqual([])
  })
})
