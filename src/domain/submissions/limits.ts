/** Ingest limits in docs/api-conventions.md, Limits. */
export const INGEST_LIMITS = {
  jsonBodyBytes: 1024 * 1024,
  urlencodedBodyBytes: 1024 * 1024,
  multipartBodyBytes: 25 * 1024 * 1024,
  fileBytes: 10 * 1024 * 1024,
  files: 10,
  fields: 200,
  fieldNameChars: 128,
  fieldValueBytes: 100 * 1024,
  /** All of a submission's field names and values together, files aside. */
  fieldsBytes: 1024 * 1024,
} as const;

export const fieldsTooLargeMessage = `the fields of a submission, files aside, are larger than ${
  INGEST_LIMITS.fieldsBytes / 1024 / 1024
} MiB`;
