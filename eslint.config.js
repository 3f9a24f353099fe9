// One lint setup for the whole tree: type-checked typescript-eslint plus per-folder import walls.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const noUi = {
  patterns: [
    {
      group: [
        'react',
        'react-dom',
        'react-dom/*',
        'jotai',
        'jotai/*',
        '@tanstack/*',
        'react-router',
      ],
      message: 'No React or UI state outside src/.',
    },
    { group: ['**/src/**', '../src/*', '../../src/*'], message: 'Nothing imports from src/.' },
  ],
}

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      'test-results',
      'playwright-report',
      'coverage',
      '.tmp',
      'validation',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', '.ci/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-expect-error': 'allow-with-description' },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use `as const` objects and unions, not enums.' },
        {
          selector:
            "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']",
          message: 'No .only in committed tests.',
        },
      ],
    },
  },
  {
    // Config files and e2e specs live in tsconfig.node.json, which the project service cannot find by name.
    files: ['*.config.ts', 'tests/e2e/**/*.ts', 'tests/setup/**/*.ts', 'scripts/*.ts'],
    languageOptions: {
      parserOptions: { projectService: false, project: './tsconfig.node.json' },
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['three', 'three/*'],
              message: 'three.js lives in the render worker (engine/render).',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      'domain/**/*.ts',
      'engine/**/*.ts',
      'workers/**/*.ts',
      'server/**/*.ts',
      'solver/**/*.ts',
    ],
    rules: { 'no-restricted-imports': ['error', noUi] },
  },
  {
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noUi.patterns,
            {
              group: ['../server/*', '../engine/*', '../solver/*', 'fastify', 'kysely', 'three'],
              message: 'domain/ imports nothing of ours but domain/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts', 'bench/**/*.ts', 'scripts/**', '.ci/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
)
