/**
 * Every string value a submitter typed, at any depth (JSON ingest may nest objects and
 * arrays). Upload entries that ingest wrote into the payload (`{filename, content_type,
 * size, url}` pointing at this submission's own download link) are skipped: their URL is
 * ours, not the submitter's. Field names are not included. Iterative, so a deeply nested
 * JSON body cannot overflow the stack.
 */
export function submittedText(payload: Record<string, unknown>, submissionId: string): string[] {
  const texts: string[] = [];
  const pending: unknown[] = [payload];
  // Children go on the stack last-first so texts come out in payload order; one push per
  // child, as spreading a huge array into push() would exceed the argument limit.
  const pushChildren = (children: unknown[]) => {
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  };
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) pushChildren(value);
    else if (isObject(value) && !isUploadEntry(value, submissionId))
      pushChildren(Object.values(value));
  }
  return texts;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const UPLOAD_KEYS = ['content_type', 'filename', 'size', 'url'].join(',');

function isUploadEntry(value: Record<string, unknown>, submissionId: string): boolean {
  if (Object.keys(value).sort().join(',') !== UPLOAD_KEYS) return false;
  const url = value.url;
  return (
    typeof url === 'string' && new RegExp(`/api/submissions/${submissionId}/files/\\d+$`).test(url)
  );
}
