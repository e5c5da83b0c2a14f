import type { FieldProblem } from '../../domain/forms/field-problems';
import type { SubmissionProblem } from '../../domain/submissions/prepare-submission';
import { translate, type MessageValues } from '../../i18n/catalogue';
import type { Language } from '../../i18n/languages';

/** What a problem's message is filled with: its facts, lists as text. */
function valuesOf(problem: FieldProblem): MessageValues {
  const { code: _code, ...facts } = problem;
  return Object.fromEntries(
    Object.entries(facts).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : value,
    ]),
  );
}

/** One field's problem in words, in `language` (English: the API's wording). */
export const fieldProblemText = (problem: FieldProblem, language: Language): string =>
  translate(language, `field.${problem.code}`, valuesOf(problem));

/** Each field's problem in words, by field name. */
export const fieldErrorsIn = (
  problems: Record<string, FieldProblem>,
  language: Language,
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(problems).map(([name, problem]) => [name, fieldProblemText(problem, language)]),
  );

/**
 * A refused submission's `errors` lines, in English as the API gives them: `name: problem`
 * for each field's problem, then the problems of no field.
 */
export const problemLines = (problem: SubmissionProblem): string[] => [
  ...Object.entries(problem.fieldProblems ?? {}).map(
    ([name, fieldProblem]) => `${name}: ${fieldProblemText(fieldProblem, 'en')}`,
  ),
  ...problem.errors,
];
