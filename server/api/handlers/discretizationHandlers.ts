import { canDiscretize, DISCRETIZATION_BLOCKED } from '../../../domain/discretization.ts'
import type { RUN_ROUTES } from '../../../domain/rest/runRoutes.ts'
import { jobRunnerFor } from '../../jobs/services.ts'
import {
  ACTIVE_JOB_STATES,
  findLatestDiscretization,
  toDiscretization,
} from '../../jobs/records.ts'
import { findEditableSimulation } from '../../setup/access.ts'
import { assertStorageAvailable } from '../../storage/usage.ts'
import { findAccessibleSimulation } from '../access.ts'
import { notFound } from '../apiError.ts'
import type { AreaHandlers } from '../context.ts'
import { blockedError, checkSetupForRun, conflict, loadSetupOf } from './runChecks.ts'

/* Discretizations of a setup (spec/setup.md §7 "Discretization"): the latest, start, cancel. */

type Handlers = AreaHandlers<typeof RUN_ROUTES>

const getDiscretization: Handlers['getDiscretization'] = async ({ params }, { db, user }) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const row = await findLatestDiscretization(db, simulation.id)
  return row ? toDiscretization(row) : null
}

const startDiscretization: Handlers['startDiscretization'] = async (
  { params },
  { db, user, clock },
) => {
  // Discretizing rewrites the parts' particles: an edit like any other, refused (409) while the
  // setup is locked or uploaded, and by a contributor on another's simulation (403).
  const simulation = await findEditableSimulation(db, user, params.id)
  const latest = await findLatestDiscretization(db, simulation.id)
  if (latest && (ACTIVE_JOB_STATES as readonly string[]).includes(latest.state))
    throw conflict('A discretization is already running.')
  const runner = jobRunnerFor(db)
  const issues = await checkSetupForRun(db, await loadSetupOf(db, simulation.id))
  if (!canDiscretize(issues))
    throw blockedError(
      DISCRETIZATION_BLOCKED.text,
      issues.filter((i) => i.level !== 'warning'),
    )
  // A discretization writes point clouds: refused while the organization's storage is full.
  await assertStorageAvailable(db, simulation.organization_id, 0)
  const nowIso = clock.nowIso()
  const row = await db
    .insertInto('jobs')
    .values({
      simulation_id: simulation.id,
      kind: 'discretization',
      state: 'scheduled',
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  runner.enqueue(row.id)
  runner.notifyDiscretizationChanged(simulation.id)
  return toDiscretization(row)
}

const cancelDiscretization: Handlers['cancelDiscretization'] = async ({ params }, { db, user }) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const latest = await findLatestDiscretization(db, simulation.id)
  if (!latest) throw notFound('Discretization')
  if (!(ACTIVE_JOB_STATES as readonly string[]).includes(latest.state))
    throw conflict('The discretization is not running.')
  const row = await jobRunnerFor(db).cancelDiscretization(latest.id)
  return toDiscretization(row)
}
/** The discretization handlers of RUN_ROUTES. */
export const discretizationHandlers = {
  getDiscretization,
  startDiscretization,
  cancelDiscretization,
} satisfies Partial<Handlers>
