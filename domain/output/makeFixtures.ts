/**
 * Rebuilds the committed output-format fixtures in tests/fixtures/.
 * Run from the repository root: `npx tsx domain/output/makeFixtures.ts`.
 */
import { buildFixtures, FIXTURES_DIRECTORY, getFixtureFileSystem } from './fixtures.ts'

const fileSystem = getFixtureFileSystem()
fileSystem.mkdirSync(FIXTURES_DIRECTORY, { recursive: true })
let totalBytes = 0
for (const [name, bytes] of Object.entries(buildFixtures())) {
  fileSystem.writeFileSync(new URL(name, FIXTURES_DIRECTORY), bytes)
  totalBytes += bytes.length
  console.log(`${name}: ${bytes.length} bytes`)
}
console.log(`total: ${totalBytes} bytes`)
