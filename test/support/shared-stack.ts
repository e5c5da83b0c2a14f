import { inject, type ProvidedContext } from 'vitest';

/**
 * The PostgreSQL and Temporal dev server that test/global-setup.ts starts for the integration
 * project. The unit project (`*.test.ts`) has no global setup: a unit test that reaches for the
 * stack stops here, saying so, instead of failing on an undefined property further on.
 */
export function sharedStack(): ProvidedContext['stack'] {
  const stack: ProvidedContext['stack'] | undefined = inject('stack');
  if (!stack)
    throw new Error(
      'no test stack: this file runs without test/global-setup.ts (a unit test, `*.test.ts`, gets ' +
        'no PostgreSQL and no Temporal); a test that needs them is named *.int.test.ts',
    );
  return stack;
}
