import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/*
 * Files for the CAD import and mesh-health specs (issue 16 items 11 and 12): a real STEP assembly
 * of occt-import-js's own test files, and an STL with known holes and a non-manifold edge.
 */

/** occt-import-js's CAx-IF assembly AS1 (as1-oc-214.stp, 442 KB, millimetres; 22 components). */
export const AS1_STEP = fileURLToPath(
  new URL(
    '../../../node_modules/occt-import-js/test/testfiles/cax-if/as1-oc-214.stp',
    import.meta.url,
  ),
)

/**
 * A 0.2 m box without its top, with a fin on one bottom edge (ASCII STL, metres): two holes (the
 * open top's rim and the fin's free edges) and one non-manifold edge (the edge the fin shares).
 */
export function holedBoxStl(): string {
  const s = 0.2
  const v = (x: number, y: number, z: number) => [x * s, y * s, z * s]
  const quads = [
    [v(0, 0, 0), v(0, 1, 0), v(1, 1, 0), v(1, 0, 0)],
    [v(0, 0, 0), v(1, 0, 0), v(1, 0, 1), v(0, 0, 1)],
    [v(1, 0, 0), v(1, 1, 0), v(1, 1, 1), v(1, 0, 1)],
    [v(1, 1, 0), v(0, 1, 0), v(0, 1, 1), v(1, 1, 1)],
    [v(0, 1, 0), v(0, 0, 0), v(0, 0, 1), v(0, 1, 1)],
  ]
  const triangles = quads.flatMap(([a, b, c, d]) => [
    [a!, b!, c!],
    [a!, c!, d!],
  ])
  triangles.push([v(0, 0, 0), v(1, 0, 0), v(0.5, -0.5, -0.5)])
  const facets = triangles.map(
    (t) =>
      ` facet normal 0 0 0\n  outer loop\n${t.map((p) => `   vertex ${p.join(' ')}`).join('\n')}\n  endloop\n endfacet`,
  )
  return `solid holed\n${facets.join('\n')}\nendsolid holed\n`
}

/** Writes the holed box as `holed-box.stl` under `dir` (default: the system's temp folder). */
export function writeHoledBoxStl(dir: string = tmpdir()): string {
  const file = join(dir, 'holed-box.stl')
  writeFileSync(file, holedBoxStl())
  return file
}
