import { expect, test, type Locator, type Page } from '@playwright/test'
import { ensureResultsDemo, openResults, type ResultsDemo } from './support/resultsDemo.ts'

/*
 * The Results explorer against the real server: volume clips get masks from the results session,
 * and a point sensor is sampled by the sensor recomputation job over the run's real outputs.
 * The dam break's water starts in x 0…0.4, y 0…0.38, z 0…0.14 m inside a 1 × 0.38 × 0.28 m tank.
 */

let demo: ResultsDemo

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000)
  demo = await ensureResultsDemo(request)
})

function explorer(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Results explorer' })
}

async function fillVector(dialog: Locator, label: string, values: [string, string, string]) {
  for (const [index, axis] of (['x', 'y', 'z'] as const).entries())
    await dialog.getByLabel(`${label} ${axis} (m)`).fill(values[index]!)
}

async function addCubeClip(
  page: Page,
  name: string,
  center: [string, string, string],
  size: [string, string, string],
) {
  await explorer(page).getByRole('button', { name: 'Add volume clip' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add volume clip' })
  await dialog.getByLabel('Name').fill(name)
  await expect(dialog.getByLabel('Shape')).toHaveValue('cube')
  await fillVector(dialog, 'Center', center)
  await fillVector(dialog, 'Dimensions', size)
  await dialog.getByRole('button', { name: 'Add' }).click()
  await expect(dialog).toBeHidden()
}

test('a cube volume clip around the water is valid, one far away is empty', async ({ page }) => {
  test.setTimeout(120_000)
  await openResults(page, demo)
  await expect(explorer(page).getByRole('list', { name: 'Fluids' })).toContainText('Water')

  await addCubeClip(page, 'Clip around water', ['0.4', '0.05', '0.25'], ['1', '1', '1'])
  const around = explorer(page).getByRole('listitem', { name: 'Clip around water' })
  await expect(around).toBeVisible()
  await expect(around).toHaveAttribute('data-state', 'valid', { timeout: 30_000 })
  await expect(around).not.toContainText('Results can not be loaded yet')

  await addCubeClip(page, 'Clip far away', ['5', '5', '5'], ['0.1', '0.1', '0.1'])
  const far = explorer(page).getByRole('listitem', { name: 'Clip far away' })
  await expect(far).toContainText(
    'Volume Clip is empty at current output. Check position and normal orientation.',
    { timeout: 30_000 },
  )

  // Deleting needs a double click: the first click only arms the button.
  const remove = far.getByRole('button', { name: 'Delete Clip far away' })
  await remove.click()
  await expect(far).toBeVisible()
  await far.getByRole('button', { name: 'Confirm: Delete Clip far away' }).click()
  await expect(far).toBeHidden()
})

test('a point sensor is computed by the sensor job and then reads in post mode', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await openResults(page, demo)
  const panel = explorer(page)
  await panel.getByRole('button', { name: 'Add sensor' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add sensor' })
  await dialog.getByLabel('Name').fill('Bottom probe')
  await fillVector(dialog, 'Position', ['0.1', '0.05', '0.03'])
  await dialog.getByRole('button', { name: 'Add' }).click()
  await expect(dialog).toBeHidden()

  const sensors = panel.getByRole('list', { name: 'Sensor list' })
  await expect(sensors).toContainText('Bottom probe')
  await expect(sensors.getByLabel('Bottom probe mode')).toHaveText('Pre')
  await expect(sensors).toContainText('Compute Sensors after changing its definition')

  await panel.getByRole('button', { name: 'Compute Sensors' }).click()
  // Scheduled or running shows Stop computation; the job ends and Compute Sensors returns.
  await expect(panel.getByRole('button', { name: 'Compute Sensors' })).toBeVisible({
    timeout: 150_000,
  })
  await expect(sensors.getByLabel('Bottom probe mode')).toHaveText('Post', { timeout: 15_000 })
  await expect(sensors).not.toContainText('Compute Sensors after changing its definition')
})
