/**
 * A small reader for the RFC 822 / MIME messages the mailer writes (dev mailbox listing and
 * `formward mailbox show`): headers with RFC 2047 encoded words, multipart bodies, and the
 * quoted-printable and base64 transfer encodings. It reads messages, it does not validate them.
 */

export type MimeHeader = { name: string; value: string };

export type MimePart = {
  /** Headers in message order, unfolded and decoded to text. */
  headers: MimeHeader[];
  /** Lower-cased media type, `text/plain` when the part names none. */
  contentType: string;
  /** The decoded body of a leaf part; empty for a multipart container. */
  body: string;
  /** The sub-parts of a multipart container. */
  parts: MimePart[];
};

/** Parses a raw message (as bytes, or as text already decoded). */
export function readMimeMessage(raw: Buffer | string): MimePart {
  // latin1 maps every byte to one character, so 8-bit parts keep their exact bytes until
  // their own charset decodes them.
  return readPart(
    typeof raw === 'string' ? Buffer.from(raw, 'utf8').toString('latin1') : raw.toString('latin1'),
  );
}

/** The first header of that name (case-insensitive), decoded. */
export function headerValue(source: { headers: MimeHeader[] }, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return source.headers.find((header) => header.name.toLowerCase() === wanted)?.value;
}

/** The first leaf part of that media type, depth first (e.g. the text/plain alternative). */
export function findPart(part: MimePart, contentType: string): MimePart | undefined {
  if (part.parts.length === 0) return part.contentType === contentType ? part : undefined;
  for (const child of part.parts) {
    const found = findPart(child, contentType);
    if (found) return found;
  }
  return undefined;
}

/** Only the header block, for listings that need not read bodies. */
export function readMimeHeaders(raw: Buffer | string): MimeHeader[] {
  const binary =
    typeof raw === 'string' ? Buffer.from(raw, 'utf8').toString('latin1') : raw.toString('latin1');
  return parseHeaderBlock(splitHeadAndBody(binary).head);
}

function readPart(binary: string): MimePart {
  const { head, body } = splitHeadAndBody(binary);
  const headers = parseHeaderBlock(head);
  const rawType = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  const { mediaType, params } = parseContentType(rawType);
  if (mediaType.startsWith('multipart/') && params.boundary) {
    return {
      headers,
      contentType: mediaType,
      body: '',
      parts: splitMultipart(body, params.boundary).map(readPart),
    };
  }
  const encoding = (
    headers.find((h) => h.name.toLowerCase() === 'content-transfer-encoding')?.value ?? '7bit'
  )
    .trim()
    .toLowerCase();
  const bytes =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')
        : Buffer.from(body, 'latin1');
  const text = decodeCharset(bytes, params.charset);
  // Text travels with CRLF line breaks; readers want the platform's \n.
  const decoded = mediaType.startsWith('text/') ? text.replace(/\r\n/g, '\n') : text;
  return { headers, contentType: mediaType, body: decoded, parts: [] };
}

function splitHeadAndBody(binary: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(binary);
  if (!match) return { head: binary, body: '' };
  return { head: binary.slice(0, match.index), body: binary.slice(match.index + match[0].length) };
}

function parseHeaderBlock(head: string): MimeHeader[] {
  const headers: MimeHeader[] = [];
  for (const line of head.split(/\r?\n/)) {
    const last = headers[headers.length - 1];
    if (/^[ \t]/.test(line) && last) {
      // A folded continuation line belongs to the header above it.
      last.value += line;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1) });
  }
  return headers.map(({ name, value }) => ({
    name,
    // Raw 8-bit header bytes (SMTPUTF8) are UTF-8; encoded words carry their own charset.
    value: decodeEncodedWords(decodeCharset(Buffer.from(value.trim(), 'latin1'), 'utf-8')),
  }));
}

function parseContentType(value: string): { mediaType: string; params: Record<string, string> } {
  const [type = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq <= 0) continue;
    const key = param.slice(0, eq).trim().toLowerCase();
    params[key] = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { mediaType: type.trim().toLowerCase() || 'text/plain', params };
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | null = null;
  for (const line of body.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      if (current) parts.push(current.join('\r\n'));
      current = [];
      continue;
    }
    // Lines before the first boundary are the preamble, which readers ignore.
    current?.push(line);
  }
  if (current) parts.push(current.join('\r\n'));
  return parts;
}

/** Quoted-printable (RFC 2045 §6.7) to bytes: `=XX` escapes and `=` soft line breaks. */
export function decodeQuotedPrintable(text: string): Buffer {
  // Trailing whitespace on a line was added in transport and is not part of the text.
  return decodeHexEscapes(text.replace(/[ \t]+(?=\r?\n|$)/g, '').replace(/=\r?\n/g, ''));
}

/** `=XX` escapes to bytes; everything else byte for byte (a stray `=` stays). */
function decodeHexEscapes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(text.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

/**
 * RFC 2047 encoded words to text. Adjacent words of one charset are decoded together, since
 * an encoder may split a multi-byte character between two words.
 */
export function decodeEncodedWords(value: string): string {
  // Whitespace between two encoded words is not part of the text (RFC 2047 §6.2).
  const compact = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  const pieces: Array<{ text: string } | { charset: string; bytes: Buffer }> = [];
  let last = 0;
  for (const match of compact.matchAll(ENCODED_WORD)) {
    const [word, rawCharset = '', kind = '', data = ''] = match;
    if (match.index > last) pieces.push({ text: compact.slice(last, match.index) });
    pieces.push({
      charset: rawCharset.split('*')[0]!.toLowerCase(),
      bytes:
        kind.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64')
          : decodeHexEscapes(data.replace(/_/g, ' ')),
    });
    last = match.index + word.length;
  }
  pieces.push({ text: compact.slice(last) });

  let result = '';
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if ('text' in piece) {
      result += piece.text;
      continue;
    }
    const run = [piece.bytes];
    let next = pieces[i + 1];
    while (next && 'charset' in next && next.charset === piece.charset) {
      run.push(next.bytes);
      next = pieces[++i + 1];
    }
    result += decodeCharset(Buffer.concat(run), piece.charset);
  }
  return result;
}

function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 is the likeliest reading today.
    return new TextDecoder('utf-8').decode(bytes);
  }
}
