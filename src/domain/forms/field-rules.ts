import type { FormField } from '../../db/entities/form-fields';
import type { FormLimits } from '../../db/entities/form-limits';
import { limitsProblem } from './form-limits';

/**
 * A field list with a `file` field on a form that refuses uploads would take no answer at all:
 * the pair is refused, with what to change. Null when the pair is fine.
 */
export function fileFieldsProblem(
  fields: FormField[] | null | undefined,
  acceptFiles: boolean,
): string | null {
  const file = fields?.find((field) => field.type === 'file');
  if (!file || acceptFiles) return null;
  return `fields: "${file.name}" is a file field, but the form does not accept files; set accept_files to true as well`;
}

/** A form's fields and upload setting that cannot go together (fileFieldsProblem). */
export class FileFieldsRefusedError extends Error {
  override name = 'FileFieldsRefusedError';
}

/** Throws FileFieldsRefusedError when the pair would leave a file field without uploads. */
export function refuseFileFieldsWithoutUploads(
  fields: FormField[] | null | undefined,
  acceptFiles: boolean,
): void {
  const problem = fileFieldsProblem(fields, acceptFiles);
  if (problem) throw new FileFieldsRefusedError(problem);
}

/** A form's limits that name a unique field outside its fields (limitsProblem). */
export class LimitsRefusedError extends Error {
  override name = 'LimitsRefusedError';
}

/** Throws LimitsRefusedError when `limits.unique_field` is not a field of `fields`. */
export function refuseLimitsOutsideFields(
  fields: FormField[] | null | undefined,
  limits: FormLimits | null | undefined,
): void {
  const problem = limitsProblem(fields, limits);
  if (problem) throw new LimitsRefusedError(problem);
}
