/**
 * Why a load failed, in words for the snapshot's error line: LoadError and the mapping of the
 * reader's format errors (docs/output-format.md "Errors") to it.
 */
import { OutputFormatError } from '../../domain/outputFormat.ts'
import { isAbortError } from './scheduler.ts'

/** Why a load failed. The format codes are the reader's (docs/output-format.md "Errors"). */
export const LOAD_ERROR_CODES = [
  'not_found',
  'forbidden',
  'http',
  'network',
  'truncated',
  'corrupt',
  'unsupported_version',
  'missing_column',
  'missing_object',
] as const
/** One reason a load failed. */
export type LoadErrorCode = (typeof LOAD_ERROR_CODES)[number]

/** A failed load, with a message fit for the snapshot's error line. */
export class LoadError extends Error {
  readonly code: LoadErrorCode
  readonly outputNo: number

  constructor(code: LoadErrorCode, outputNo: number, message: string) {
    super(message)
    this.name = 'LoadError'
    this.code = code
    this.outputNo = outputNo
  }
}

export function describeFormatError(outputNo: number, error: OutputFormatError): LoadError {
  switch (error.code) {
    case 'truncated':
      return new LoadError(
        'truncated',
        outputNo,
        `Output ${outputNo} could not be loaded: its data is incomplete (truncated).`,
      )
    case 'unsupported_version':
      return new LoadError(
        'unsupported_version',
        outputNo,
        `Output ${outputNo} could not be loaded: ${error.message} Reload the page to update Dive.`,
      )
    case 'missing_column':
    case 'wrong_column_type':
      return new LoadError(
        'missing_column',
        outputNo,
        `Output ${outputNo} could not be loaded: ${error.message}`,
      )
    default:
      return new LoadError(
        'corrupt',
        outputNo,
        `Output ${outputNo} could not be loaded: its data is corrupt (${error.message})`,
      )
  }
}

/** Rethrows aborts as they are, format errors as LoadErrors, anything else as `corrupt`. */
export function toLoadError(outputNo: number, error: unknown): Error {
  if (isAbortError(error) || error instanceof LoadError) return error as Error
  if (error instanceof OutputFormatError) return describeFormatError(outputNo, error)
  const reason = error instanceof Error ? error.message : String(error)
  return new LoadError(
    'corrupt',
    outputNo,
    `Output ${outputNo} could not be loaded: its data is corrupt (${reason}).`,
  )
}
