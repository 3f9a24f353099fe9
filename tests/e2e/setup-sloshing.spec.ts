import { expect, test, type Locator } from '@playwright/test'
import { SetupPage } from './pages/SetupPage.ts'

/*
 * Issue 11 (b): a sloshing tank built only through the Setup editor — a closed tank, water filled
 * to a height, a paddle with a translatory movement and a point sensor — whose movement then plays
 * on the timeline: the time runs, the paddle moves in the view, and Space pauses it. Each step
 * leaves a screenshot in the test's output folder.
 */

const SIMULATION = 'Sloshing tank from Setup (e2e)'

/** The time the timeline shows, in seconds. */
async function shownTime(timeline: Locator): Promise<number> {
  return Number.parseFloat(await timeline.getByTestId('movement-time').innerText())
}

test('builds a sloshing tank with a moving paddle and a point sensor, and plays the movement', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000)
  const setup = await SetupPage.openNewSimulation(page, testInfo, SIMULATION)

  await setup.addBox('Solid', {
    name: 'Tank',
    dimensions: [1, 0.1, 0.6],
    position: [0.5, 0.05, 0.3],
  })
  await setup.addBox('Solid', {
    name: 'Paddle',
    dimensions: [0.04, 0.1, 0.4],
    position: [0.15, 0.05, 0.35],
  })
  await setup.addBox('Fluid', {
    name: 'Water',
    dimensions: [1, 0.1, 0.6],
    position: [0.5, 0.05, 0.3],
    fillHeight: 0.25,
  })
  await setup.openAddMenu('Settings')
  await setup.fillNumber('Particle diameter', 0.02)
  await setup.fillNumber('End time', 2)
  await setup.fillNumber('Output interval', 0.05)
  await setup.expectInitialized()
  await setup.shot('parts')

  // The paddle moves along x at 0.2 m/s for its first second.
  const timeline = page.getByRole('group', { name: 'Movement timeline' })
  await expect(timeline).toBeHidden()
  await setup.explorer.getByText('Paddle', { exact: true }).click()
  await page.getByRole('button', { name: 'Motion', exact: true }).click()
  await setup.form.getByRole('button', { name: 'Add movement' }).click()
  const movement = page.getByRole('dialog', { name: 'Add Movement' })
  await expect(movement.getByLabel('Name')).toHaveValue('translation 1')
  await movement.getByLabel('End', { exact: true }).fill('1')
  await movement.getByLabel('Velocity', { exact: true }).fill('0.2')
  await movement.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(movement).toBeHidden()
  await expect(setup.form.getByText('translation 1')).toBeVisible()
  await setup.shot('movement')

  // A point sensor near the far wall.
  await setup.openAddMenu('Sensor')
  const sensor = page.getByRole('dialog', { name: 'Add sensor' })
  await sensor.getByLabel('Name').fill('Probe')
  for (const [axis, value] of [
    ['x', '0.8'],
    ['y', '0.05'],
    ['z', '0.1'],
  ] as const)
    await sensor.getByLabel(`Position ${axis}`).fill(value)
  await sensor.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(sensor).toBeHidden()
  await expect(setup.explorer.getByText('Probe', { exact: true })).toBeVisible()
  await setup.expectInitialized()
  await setup.shot('sensor')

  // Play: the time runs and the paddle moves (tank and water hidden, so it alone is drawn); Space
  // pauses while no field has focus.
  await expect(timeline).toBeVisible()
  for (const name of ['Tank', 'Water']) {
    await setup.explorer.getByRole('checkbox', { name: `Show ${name}` }).uncheck()
    await expect(setup.explorer.getByRole('checkbox', { name: `Show ${name}` })).not.toBeChecked()
  }
  await page.getByRole('button', { name: 'Fit view' }).click()
  await page.waitForTimeout(1000)
  const canvas = setup.view.locator('canvas')
  const before = await canvas.screenshot()
  await timeline.getByRole('button', { name: 'Play movements' }).click()
  await expect.poll(() => shownTime(timeline), { timeout: 20_000 }).toBeGreaterThan(0.3)
  await setup.shot('playing')
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await page.keyboard.press('Space')
  await expect(timeline.getByRole('button', { name: 'Play movements' })).toBeVisible()
  const pausedAt = await shownTime(timeline)
  await page.waitForTimeout(500)
  expect(await shownTime(timeline)).toBe(pausedAt)
  expect(Buffer.compare(before, await canvas.screenshot())).not.toBe(0)
  await setup.shot('paused')
})
