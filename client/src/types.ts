import type { components, paths } from './generated/api.js';

/*
 * Names for the generated types (src/generated/api.ts, from the server's OpenAPI document):
 * each is the schema of its route, so a request or answer that the API would not take or give
 * does not compile.
 */

type Schemas = components['schemas'];

export type Form = Schemas['Form'];
export type FormLimits = Schemas['FormLimits'];
/** A form's field list (null: free-form). */
export type FormFields = Form['fields'];
/** A form's hosted page (null: none). */
export type FormPage = Form['page'];
export type Submission = Schemas['Submission'];
export type Plugin = Schemas['Plugin'];
export type Domain = Schemas['Domain'];
export type FormStats = Schemas['FormStats'];
export type AccountStats = Schemas['AccountStats'];
export type IngestResult = Schemas['IngestResult'];
export type Link = Schemas['Link'];
export type ListMeta = Schemas['ListMeta'];
export type ErrorBody = Schemas['Error'];
export type PluginDeleted = Schemas['PluginDeleted'];
export type DomainDeleted = Schemas['DomainDeleted'];

/** The JSON request body of an operation. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The query parameters of an operation (all optional here, as in the API). */
export type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

export type CreateFormBody = RequestBody<'/api/forms', 'post'>;
export type UpdateFormBody = RequestBody<'/api/forms/{id}', 'patch'>;
export type CreatePluginBody = RequestBody<'/api/forms/{form_id}/plugins', 'post'>;
export type UpdatePluginBody = RequestBody<'/api/forms/{form_id}/plugins/{id}', 'patch'>;
export type CreateDomainBody = RequestBody<'/api/domains', 'post'>;
export type SubmissionFields = RequestBody<'/json/{endpoint_token}', 'post'>;

export type FormListQuery = Query<'/api/forms', 'get'>;
export type SubmissionListQuery = Query<'/api/submissions', 'get'>;

/** Every error code an operation of the document declares (its `x-error-codes`). */
export type ErrorCode = {
  [P in keyof paths]: {
    [M in keyof paths[P]]: paths[P][M] extends { responses: infer R }
      ? {
          [S in keyof R]: R[S] extends { content: { 'application/json': { error: infer C } } }
            ? C extends string
              ? C
              : never
            : never;
        }[keyof R]
      : never;
  }[keyof paths[P]];
}[keyof paths];

export type FormList = Schemas['FormListEnvelope'];
export type SubmissionList = Schemas['SubmissionListEnvelope'];
export type PluginList = Schemas['PluginListEnvelope'];
export type DomainList = Schemas['DomainListEnvelope'];
export type DomainListQuery = Query<'/api/domains', 'get'>;
