/**
 * Field lists of an exact serialized size (JSON, UTF-8), for the form definition's byte budget
 * (docs/form-fields.md, Limits): text fields with long labels, placeholders and help, the last
 * few shorter so the list is `bytes` long. Every value is as the schema stores it.
 */
type TextField = {
  name: string;
  label: string;
  type: 'text';
  required: boolean;
  placeholder?: string;
  help: string;
};

const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

const full = (i: number): TextField => ({
  name: `f${i}`,
  label: 'L'.repeat(200),
  type: 'text',
  required: false,
  placeholder: 'P'.repeat(200),
  help: 'H'.repeat(500),
});

/** A field whose own JSON is `bytes` long (from about 70 to 570 bytes). */
function sized(i: number, bytes: number): TextField {
  const base: TextField = { name: `f${i}`, label: 'L', type: 'text', required: false, help: 'H' };
  const help = 1 + bytes - sizeOf(base);
  if (help < 1 || help > 500) throw new Error(`no field of ${bytes} bytes`);
  return { ...base, help: 'H'.repeat(help) };
}

export function fieldsOfSize(bytes: number): TextField[] {
  const fields: TextField[] = [];
  while (bytes - sizeOf([...fields, full(fields.length)]) > 1200) fields.push(full(fields.length));
  // The rest in shorter fields of about 450 bytes each, each with its comma.
  const left = bytes - sizeOf(fields);
  const count = Math.ceil(left / 450);
  const rest = left - (fields.length > 0 ? count : count - 1);
  for (let k = 0; k < count; k++) {
    const share = Math.floor(rest / count) + (k < rest % count ? 1 : 0);
    fields.push(sized(fields.length, share));
  }
  if (sizeOf(fields) !== bytes) throw new Error(`made ${sizeOf(fields)} bytes, not ${bytes}`);
  return fields;
}
