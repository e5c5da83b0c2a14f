/**
 * A form's gates as stored in `forms.limits` (jsonb; docs/form-limits.md): how many accepted
 * (non-spam) submissions it takes, when it opens and closes (ISO 8601, UTC), the field whose
 * value may come only once, and what a closed form says. `null` on the form: no gate.
 */
export type FormLimits = {
  max_submissions: number | null;
  opens_at: string | null;
  closes_at: string | null;
  unique_field: string | null;
  closed_message: string | null;
};
