/*
 * Sheet names, spreadsheet ids and A1 ranges of the Google Sheets plugin (docs/plugins.md).
 * A sheet name is always quoted in a range ('It''s'!A1), so spaces, quotes and `!` in it
 * cannot change which cells a request names; the characters Google refuses in a sheet's name
 * are refused here too.
 */

export const MAX_SHEET_NAME_CHARS = 100;

/** Google refuses these in a sheet's name; control characters have no business there either. */
const FORBIDDEN_IN_SHEET_NAME = /[[\]*?/\\:\p{Cc}]/u;

/** Why a sheet name cannot be used, or null when it can. */
export function sheetNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > MAX_SHEET_NAME_CHARS)
    return `must be at most ${MAX_SHEET_NAME_CHARS} characters`;
  if (name.trim() !== name) return 'must not start or end with a space';
  if (FORBIDDEN_IN_SHEET_NAME.test(name))
    return 'must not contain [ ] * ? / \\ : or control characters';
  return null;
}

/** The sheet name as A1 notation needs it: in single quotes, a quote doubled. */
export function quotedSheetName(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

/** The column letters of a 1-based column number: 1 → A, 27 → AA, 703 → AAA. */
export function columnLetters(column: number): string {
  if (!Number.isInteger(column) || column < 1) throw new RangeError(`no column ${column}`);
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** The whole first row (the header): `'Sheet1'!1:1`. */
export function headerRowRange(sheet: string): string {
  return `${quotedSheetName(sheet)}!1:1`;
}

/** The first-row cells from a 1-based column on: `'Sheet1'!D1`. */
export function headerCellRange(sheet: string, fromColumn: number): string {
  return `${quotedSheetName(sheet)}!${columnLetters(fromColumn)}1`;
}

/** Where rows are appended: the whole sheet (Google finds the table's last row). */
export function sheetRange(sheet: string): string {
  return quotedSheetName(sheet);
}

/** Ids are letters, digits, `-` and `_`; that keeps them safe in a URL path as they are. */
const SPREADSHEET_ID = /^[A-Za-z0-9_-]{10,128}$/;
const ID_IN_URL = /\/spreadsheets\/d\/([A-Za-z0-9_-]+)/;

/**
 * The spreadsheet id of an id or of the spreadsheet's address as pasted from the browser
 * (`https://docs.google.com/spreadsheets/d/<id>/edit#gid=0`); null when it holds none.
 */
export function spreadsheetIdOf(text: string): string | null {
  const trimmed = text.trim();
  if (SPREADSHEET_ID.test(trimmed)) return trimmed;
  const found = /^https:\/\/docs\.google\.com\//.test(trimmed) ? ID_IN_URL.exec(trimmed) : null;
  return found && SPREADSHEET_ID.test(found[1]!) ? found[1]! : null;
}
