import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/** The names of a form's field list, in order; null when the form declares none (free-form). */
export async function selectFormFieldNames(
  em: EntityManager,
  formId: string,
): Promise<string[] | null> {
  const [row] = await selectRows<{ names: string[] | null }>(
    em,
    `select case when fields is null then null else
              coalesce((select jsonb_agg(field ->> 'name') from jsonb_array_elements(fields) field), '[]'::jsonb)
            end as names
       from forms where id = ?`,
    [formId],
  );
  return row?.names ?? null;
}
