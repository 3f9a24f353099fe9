import type { Movement } from '../../../../../domain/movements.ts'
import { openTargetOf, type OpenTarget } from '../explorer/openObject.ts'
import { objectId, type PartFolder, type SetupObjectId } from '../state/setupAtoms.ts'

/** Where an Input Validation item leads: the objects to select and what to open. */
export interface IssueTarget {
  select: SetupObjectId[]
  open: OpenTarget
}

/** Settings shown in the Physics form; every other 'settings.…' field is in the Settings form. */
export const PHYSICS_SETTINGS: readonly string[] = [
  'multiphase',
  'surfaceTension',
  'sigma',
  'thermodynamics',
  'ambientTemperature',
  'airDrag',
  'rotatingSystem',
  'rotationVelocity',
  'rotationAxis',
  'rotationCenter',
]

/** Deletion boundary settings (its own small form). */
const CALC_DOMAIN_SETTINGS = ['calcDomainActive', 'calcDomainMin', 'calcDomainMax']

/** Component fields of the Boundary Conditions folder. */
const BOUNDARY_CONDITION_FIELDS = [
  'thermoKind',
  'heatFlux',
  'boundaryTemperature',
  'referenceTemperature',
  'heatTransferCoefficient',
  'velocityKind',
  'velocityConditionMovementId',
  'contactAngle',
]

/**
 * The part form folder that shows a part field (the path after 'parts.{id}.'): name, shape, seed
 * point and fill height → Geometry; appearance and metalness → Appearance; material → Material;
 * initial values → Initial Conditions; io…, thermal and wall velocity conditions → Boundary
 * Conditions; anything else (discretization messages) → Information.
 */
export function partFolderOfField(path: readonly string[]): PartFolder {
  const [head, sub = ''] = path
  if (head === 'name' || head === 'shape' || head === 'seedPoint') return 'geometry'
  if (head === 'appearance') return 'appearance'
  if (head === 'materialId') return 'material'
  if (head === 'component') {
    if (sub === 'height') return 'geometry'
    if (sub === 'metalness') return 'appearance'
    if (sub.startsWith('initial')) return 'initial_conditions'
    if (sub.startsWith('io') || BOUNDARY_CONDITION_FIELDS.includes(sub))
      return 'boundary_conditions'
  }
  return 'information'
}

const idOf = (text: string | undefined) => (text !== undefined && /^\d+$/.test(text) ? Number(text) : null)

/**
 * Where an issue's field leads (domain/setupValidation.ts field paths):
 * - 'parts.12.component.height' → part 12, its form at the field's folder;
 * - 'materials.0.density' → material 0 and its form;
 * - 'movements.3.start' → the moving part and its motion form;
 * - 'settings.endTime' → the Settings form ('settings.multiphase' → Physics, 'settings.calcDomainMin'
 *   → the Deletion Boundary);
 * - 'sensors.3.…', 'volumeClips.4.…' → the object and its dialog; 'refinements.2.…' → the zone and its form;
 * - 'airDrag…' → the Physics form (its switch; the domain has no form here).
 * Null where nothing can be shown ('parts' of an empty scene, a periodic boundary, a movement that
 * is gone).
 */
export function issueTargetOf(
  field: string,
  movements: readonly Pick<Movement, 'id' | 'partId'>[],
): IssueTarget | null {
  const [head, second, ...rest] = field.split('.')
  const id = idOf(second)
  switch (head) {
    case 'parts': {
      if (id === null) return null
      const part = objectId('part', id)
      return { select: [part], open: openTargetOf(part, partFolderOfField(rest)) }
    }
    case 'materials': {
      if (id === null) return null
      const material = objectId('material', id)
      return { select: [material], open: openTargetOf(material) }
    }
    case 'movements': {
      const movement = movements.find((m) => m.id === id)
      if (!movement) return null
      const part = objectId('part', movement.partId)
      return { select: [part], open: openTargetOf(part, 'motion') }
    }
    case 'settings': {
      if (second !== undefined && CALC_DOMAIN_SETTINGS.includes(second))
        return { select: ['calc_domain'], open: openTargetOf('calc_domain') }
      const physics = second !== undefined && PHYSICS_SETTINGS.includes(second)
      return { select: [], open: { form: { kind: physics ? 'physics' : 'settings' } } }
    }
    case 'airDrag':
      return { select: [], open: { form: { kind: 'physics' } } }
    case 'sensors':
    case 'volumeClips':
    case 'refinements': {
      if (id === null) return null
      const kind = { sensors: 'sensor', volumeClips: 'volume_clip', refinements: 'refinement' }[head]
      const object = objectId(kind, id)
      return { select: [object], open: openTargetOf(object) }
    }
    default:
      return null
  }
}
