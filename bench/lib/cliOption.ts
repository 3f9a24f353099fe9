/** The value after `--name` on the command line of a bench script, or `fallback`. */
export function cliOption(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? process.argv[at + 1]! : fallback
}
