import type { UploadedFile } from '../submissions/store-submission';

/**
 * Whether a file fits a field's `accept` list as HTML reads it: an extension (`.pdf`) matches
 * the file name, `type/*` the declared type's family, `type/subtype` the declared type.
 */
export function fileMatchesAccept(
  file: Pick<UploadedFile, 'filename' | 'contentType'>,
  accept: string[] | undefined,
): boolean {
  if (!accept || accept.length === 0) return true;
  const name = file.filename.toLowerCase();
  const type = file.contentType.toLowerCase().split(';')[0]!.trim();
  return accept.some((entry) => {
    if (entry.startsWith('.')) return name.endsWith(entry);
    if (entry.endsWith('/*')) return type.startsWith(entry.slice(0, -1));
    return type === entry;
  });
}
