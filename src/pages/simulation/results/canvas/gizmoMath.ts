/** Moved to src/components/viewport/chrome/gizmoMath.ts (shared by Results and Setup); import it there. */
export * from '../../../../components/viewport/chrome/gizmoMath.ts'
