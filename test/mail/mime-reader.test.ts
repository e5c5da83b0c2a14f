import { describe, expect, it } from 'vitest';
import {
  decodeEncodedWords,
  decodeQuotedPrintable,
  findPart,
  headerValue,
  readMimeMessage,
} from '../../src/domain/mail/mime-reader';

// Hand-written messages, independent of the composer the mailer uses.
const MULTIPART = [
  'From: Formward <no-reply@example.org>',
  'To: a@example.com,',
  ' b@example.com',
  'Subject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?= aus =?UTF-8?B?S8O2bG4=?=',
  'Content-Type: multipart/alternative;',
  ' boundary="--b1"',
  '',
  'This is the preamble.',
  '----b1',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Zo=C3=AB wrote a very long line that the encoder had to break into two =',
  'pieces=3D fine',
  'second line   ',
  '----b1',
  'Content-Type: text/html; charset="utf-8"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('<p>Zoë &amp; co</p>').toString('base64'),
  '----b1--',
  'epilogue',
].join('\r\n');

describe('readMimeMessage', () => {
  it('reads folded and encoded headers and both alternatives', () => {
    const message = readMimeMessage(Buffer.from(MULTIPART, 'utf8'));
    expect(message.contentType).toBe('multipart/alternative');
    expect(headerValue(message, 'TO')).toBe('a@example.com, b@example.com');
    expect(headerValue(message, 'subject')).toBe('Grüße aus Köln');
    expect(message.parts).toHaveLength(2);
    expect(findPart(message, 'text/plain')!.body).toBe(
      'Zoë wrote a very long line that the encoder had to break into two pieces= fine\nsecond line',
    );
    expect(findPart(message, 'text/html')!.body).toBe('<p>Zoë &amp; co</p>');
    expect(findPart(message, 'image/png')).toBeUndefined();
  });

  it('reads a single-part 8-bit message and a message given as text', () => {
    const raw = 'Subject: Grüße\nContent-Type: text/plain; charset=utf-8\n\nÄpfel\nund Birnen\n';
    for (const message of [readMimeMessage(Buffer.from(raw, 'utf8')), readMimeMessage(raw)]) {
      expect(headerValue(message, 'subject')).toBe('Grüße');
      expect(message.body).toBe('Äpfel\nund Birnen\n');
      expect(message.parts).toEqual([]);
    }
  });

  it('decodes a non-UTF-8 charset', () => {
    const raw = Buffer.concat([
      Buffer.from('Content-Type: text/plain; charset=iso-8859-1\r\n\r\n'),
      Buffer.from([0x4b, 0xf6, 0x6c, 0x6e]),
    ]);
    expect(readMimeMessage(raw).body).toBe('Köln');
  });
});

describe('decodeEncodedWords', () => {
  it('joins a character split between two adjacent words', () => {
    // "ü" is C3 BC; an encoder may end one word after C3.
    expect(decodeEncodedWords('=?UTF-8?Q?Gr=C3?= =?UTF-8?Q?=BC=C3=9Fe?=')).toBe('Grüße');
    expect(decodeEncodedWords('=?utf-8?Q?trailing_?=space')).toBe('trailing space');
    expect(decodeEncodedWords('=?utf-8?q?a_b?= plain =?ISO-8859-1?Q?K=F6ln?=')).toBe(
      'a b plain Köln',
    );
  });

  it('leaves text without encoded words alone', () => {
    expect(decodeEncodedWords('New submission to "Contact" =? not a word')).toBe(
      'New submission to "Contact" =? not a word',
    );
  });
});

describe('decodeQuotedPrintable', () => {
  it('decodes escapes and soft breaks and keeps a lone equals sign', () => {
    expect(decodeQuotedPrintable('a=3Db=\r\nc =XY').toString('latin1')).toBe('a=bc =XY');
  });
});
