import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/*
 * The accessibility gate's machinery (issue 23): each entry of a gate table (tests/e2e/a11y-*.spec.ts)
 * opens a route, optionally opens a dialog, menu or popup through the UI as a user would, and is
 * checked with axe-core. Any critical or serious violation fails the entry, naming the entry (the
 * page), the rule and the nodes.
 */

/** Ids the gate tables can name in a path as `{name}`, filled in by the spec. */
export type GateIds = Record<string, number | string>

/** A rule an entry does not check, with who owns the fix and why. Never a critical rule. */
export interface SkippedRule {
  rule: string
  /** The engineer (or area) that owns the page and the fix. */
  owner: string
  why: string
}

/** One row of a gate table: a route, in one state. */
export interface A11yCheck {
  /** What is checked, as a failure names it: "projects", "projects: New project dialog" … */
  name: string
  /** The route, with `{id}` placeholders filled from GateIds. */
  path: string
  /** Resolves once the page shows what is checked (a heading, a control, the drawn view). */
  ready: (page: Page) => Promise<void>
  /** Opens the dialog, menu or popup through the UI and waits until it shows; absent: the page. */
  open?: (page: Page) => Promise<void>
  /** Rules skipped for this entry only (see SkippedRule). */
  skip?: SkippedRule[]
}

/** Fills `{name}` placeholders of a path. */
export function fillPath(path: string, ids: GateIds): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = ids[key]
    if (value === undefined)
      throw new Error(`The gate path ${path} names {${key}}, which is unknown`)
    return String(value)
  })
}

/** One failure line per critical or serious violation: entry, rule, impact, nodes and help. */
export async function seriousViolations(page: Page, check: A11yCheck): Promise<string[]> {
  const skipped = new Set((check.skip ?? []).map((skip) => skip.rule))
  const results = await new AxeBuilder({ page }).analyze()
  const lines: string[] = []
  for (const violation of results.violations) {
    if (violation.impact !== 'critical' && violation.impact !== 'serious') continue
    // A skip hides a serious violation of its rule, never a critical one.
    if (violation.impact === 'serious' && skipped.has(violation.id)) continue
    const nodes = violation.nodes
      .slice(0, 5)
      .map(
        (node) =>
          `${node.target.join(' ')}${node.failureSummary ? ` (${firstLine(node.failureSummary)})` : ''}`,
      )
    const more = violation.nodes.length > 5 ? ` and ${violation.nodes.length - 5} more` : ''
    lines.push(
      `${check.name} [${page.url()}]: ${violation.id} (${violation.impact}) — ${violation.help}; at ${nodes.join(' | ')}${more}`,
    )
  }
  return lines
}

function firstLine(summary: string): string {
  const lines = summary.split('\n').map((line) => line.trim())
  return lines.find((line) => line !== '' && !line.startsWith('Fix')) ?? lines[0] ?? ''
}

/** Opens the entry's route (a fresh load, so nothing of the previous entry stays open) and checks it. */
export async function runCheck(page: Page, check: A11yCheck, ids: GateIds): Promise<void> {
  await page.goto(fillPath(check.path, ids))
  await check.ready(page)
  if (check.open) await check.open(page)
  // Colours are read as drawn: a dialog still fading in (120–180 ms) blends its text lighter.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().endTime === Infinity,
      ),
  )
  expect(await seriousViolations(page, check)).toEqual([])
}
