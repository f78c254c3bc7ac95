// ESLint over the web player's scripts (nonopress/assets): classic browser scripts, each one
// function wrapped in 'use strict'. Run from the repository's root by `npm run lint` here.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {ignores: ['**/*.d.ts']},
  js.configs.recommended,
  {
    files: ['nonopress/assets/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: {...globals.browser},
    },
    rules: {
      'strict': ['error', 'global'],
      'eqeqeq': ['error', 'always'],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-implicit-globals': 'error',
      'no-unused-vars': ['error', {argsIgnorePattern: '^_', caughtErrors: 'none'}],
      'no-shadow': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
];
