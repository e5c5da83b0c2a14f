import type { FormField } from '../../domain/forms/form-fields';
import { samplePayload } from '../../domain/forms/sample-payload';

const FREE_FORM_SAMPLE = { email: 'jane@example.com', name: 'Jane', message: 'Hello!' };

/** Single-quoted for a POSIX shell: a `'` inside closes, escapes and reopens the quote. */
const shellQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The form-encoded `--data-urlencode` arguments of a payload, repeated names for lists. */
function formArguments(sample: Record<string, unknown>): string {
  return Object.entries(sample)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [name, v]))
    .map(([name, value]) => `--data-urlencode ${shellQuoted(`${name}=${String(value)}`)}`)
    .join(' ');
}

/**
 * The `html` example of a Form: a pointer, not the markup again. A Form carries its snippet
 * once, in `embed_html`; the key stays so clients reading it get a string.
 */
export const HTML_EXAMPLE_POINTER = 'see embed_html';

/** Copy-paste request examples shown with every form; with fields, a payload it accepts. */
export function formExamples(
  urls: { submissionUrl: string; jsonUrl: string },
  fields: FormField[] | null = null,
) {
  const html = HTML_EXAMPLE_POINTER;
  if (!fields)
    return {
      curl: `curl -X POST '${urls.jsonUrl}' -H 'Content-Type: application/json' -d '${JSON.stringify(FREE_FORM_SAMPLE)}'`,
      curl_form: `curl -X POST '${urls.submissionUrl}' -d email=jane@example.com -d name=Jane -d 'message=Hello!'`,
      fetch: `fetch('${urls.jsonUrl}', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(${JSON.stringify(FREE_FORM_SAMPLE)}) }).then((res) => res.json())`,
      html,
    };
  const sample = samplePayload(fields);
  return {
    curl: `curl -X POST '${urls.jsonUrl}' -H 'Content-Type: application/json' -d ${shellQuoted(JSON.stringify(sample))}`,
    curl_form: `curl -X POST '${urls.submissionUrl}' ${formArguments(sample)}`,
    fetch: `fetch('${urls.jsonUrl}', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(${JSON.stringify(sample)}) }).then((res) => res.json())`,
    html,
  };
}
