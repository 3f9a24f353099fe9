import type { Kysely } from 'kysely'
import type { FieldError } from '../../../domain/errors.ts'
import { validateSetup } from '../../../domain/setupValidation.ts'
import { blocksRun, type Issue } from '../../../domain/validation.ts'
import type { RunSetup } from '../../../solver/setup.ts'
import type { Database } from '../../db/schema.ts'
import { jobRunnerFor } from '../../jobs/services.ts'
import { readDatatableInfos } from '../../setup/store.ts'
import { ApiError } from '../apiError.ts'

/* Checks the run and discretization handlers share: the setup they start from and its issues. */

type Db = Kysely<Database>

/**
 * The Input Validation bar of a run's setup, with the simulation's datatables, so a part or
 * material naming a table that does not exist is an error here too.
 */
export async function checkSetupForRun(db: Db, setup: RunSetup): Promise<Issue[]> {
  return validateSetup({
    settings: setup.settings,
    materials: setup.materials,
    parts: setup.parts,
    movements: setup.movements,
    datatables: await readDatatableInfos(db, setup.simulationId),
    // the stored air drag domain (loadRunSetup reads it while settings.airDrag is on)
    airDrag: setup.airDragDomain ?? null,
  })
}

/** Issues that block a run or a discretization: errors and missing (info) items. */
export async function blockingIssues(db: Db, setup: RunSetup): Promise<Issue[]> {
  const issues = await checkSetupForRun(db, setup)
  return blocksRun(issues) ? issues.filter((i) => i.level !== 'warning') : []
}

export function blockedError(message: string, issues: readonly Issue[]): ApiError {
  const errors: FieldError[] = [
    { path: 'setup', message },
    ...issues.map((i) => ({ path: i.field, message: i.message })),
  ]
  return new ApiError('validation_error', message, errors)
}

/** The setup of a simulation, or a 400 with the reason it cannot be read (e.g. a missing STL). */
export async function loadSetupOf(db: Db, simulationId: number): Promise<RunSetup> {
  try {
    return await jobRunnerFor(db).loadSetup(simulationId)
  } catch (error) {
    if (error instanceof Error && error.name === 'RunSetupError')
      throw new ApiError('wrong_input', error.message)
    throw error
  }
}

export function conflict(message: string): ApiError {
  return new ApiError('conflict', message)
}
