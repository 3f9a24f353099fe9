import { useId } from 'react'
import {
  MESHING_PARAMETER_BOUNDS,
  defaultMeshingParameters,
  type MeshingParameters,
} from '../../../../../domain/tessellation.ts'
import { formatNumber, unitSymbol } from '../../../../../domain/units.ts'
import type { Issue } from '../../../../../domain/validation.ts'
import { SwitchField } from '../forms/fields/ChoiceFields.tsx'
import { issuesOfField } from '../forms/fields/FieldIssues.tsx'
import { NumberField } from '../forms/fields/NumberField.tsx'
import type { MeshingPatch } from './useMeshingDraft.ts'

const { linearDeflectionFactor: LINEAR, angularDeflection: ANGULAR } = MESHING_PARAMETER_BOUNDS

/**
 * Under the Delabella switch: occt-import-js meshes with OCCT's default algorithm only, so the
 * server says so in a warning on each part tessellated with the choice (tessellationJob.ts).
 */
export const DELABELLA_HINT =
  'This server meshes with the default algorithm; parts tessellated with Delabella chosen get a warning saying so.'

/** Shown in the form while no part is chosen. */
export const CHOOSE_PARTS_HINT = 'Choose parts in the list to set how finely they are tessellated.'

/**
 * 'Meshing Parameters' of step 2 (spec/setup.md §2, §5 "Tessellation"): linear deflection factor
 * 0.1 to 10 (default 1), angular deflection 1 to 90° in whole degrees (default 15) and the Delabella
 * algorithm (off), for the chosen parts; Reset restores the defaults. Built from the Setup field
 * kit, so empty and half-typed values show the preliminary messages of §5.
 */
export function MeshingParametersForm(props: {
  shown: MeshingParameters
  mixed: Record<keyof MeshingParameters, boolean>
  issues: readonly Issue[]
  disabled: boolean
  onChange: (patch: MeshingPatch) => void
}) {
  const { shown, mixed, issues, disabled, onChange } = props
  const titleId = useId()
  return (
    <section className="assembly-meshing" aria-labelledby={titleId}>
      <div className="assembly-meshing__head">
        <h3 id={titleId} className="assembly-step__heading">
          Meshing Parameters
        </h3>
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={disabled}
          onClick={() => onChange(defaultMeshingParameters())}
        >
          Reset
        </button>
      </div>
      {disabled && <p className="field__hint">{CHOOSE_PARTS_HINT}</p>}
      <NumberField
        label="Linear deflection factor"
        unit=""
        value={shown.linearDeflectionFactor}
        placeholder={mixed.linearDeflectionFactor ? 'Mixed' : undefined}
        optional={mixed.linearDeflectionFactor}
        disabled={disabled}
        issues={issuesOfField(issues, 'meshingParameters.linearDeflectionFactor')}
        hint={`${formatNumber(LINEAR.min)} to ${formatNumber(LINEAR.max)}: smaller follows curved faces more closely, with more triangles.`}
        onCommit={(value) =>
          (value !== null || !mixed.linearDeflectionFactor) &&
          onChange({ linearDeflectionFactor: value })
        }
      />
      <NumberField
        label="Angular deflection"
        unit={unitSymbol('angle')}
        value={shown.angularDeflection}
        placeholder={mixed.angularDeflection ? 'Mixed' : undefined}
        optional={mixed.angularDeflection}
        disabled={disabled}
        issues={issuesOfField(issues, 'meshingParameters.angularDeflection')}
        hint={`${formatNumber(ANGULAR.min)} to ${formatNumber(ANGULAR.max)} ${unitSymbol('angle')} in steps of 1.`}
        onCommit={(value) =>
          (value !== null || !mixed.angularDeflection) && onChange({ angularDeflection: value })
        }
      />
      <SwitchField
        label="Use Delabella algorithm"
        checked={shown.useDelabellaAlgorithm}
        mixed={mixed.useDelabellaAlgorithm}
        hint={DELABELLA_HINT}
        disabled={disabled}
        onChange={(useDelabellaAlgorithm) => onChange({ useDelabellaAlgorithm })}
      />
    </section>
  )
}
