/** Moved to src/components/viewport/chrome/ViewGizmos.tsx (shared by Results and Setup); import it there. */
export * from '../../../../components/viewport/chrome/ViewGizmos.tsx'
