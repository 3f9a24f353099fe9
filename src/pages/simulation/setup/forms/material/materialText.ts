import { materialLabel, type Material } from '../../../../../../domain/materials.ts'

/** A material's name, or its label ('Fluid 1') while it has none. */
export function materialName(material: Pick<Material, 'id' | 'name'>): string {
  return material.name.trim() === '' ? materialLabel(material.id) : material.name
}
