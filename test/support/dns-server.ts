import dgram from 'node:dgram';
import net from 'node:net';

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP only) so DNS-dependent code can be tested
 * against real resolver traffic instead of mocks. Answers A, AAAA, CNAME and TXT from a table:
 * unknown name -> NXDOMAIN; known name without the type -> NOERROR, no answers; a name with a
 * CNAME answers the CNAME (and the target's records when the target is in the table).
 */

export type DnsRecordSet = { A?: string[]; AAAA?: string[]; CNAME?: string; TXT?: string[][] };
export type DnsRecords = Record<string, DnsRecordSet>;

export type DnsServer = {
  /** `127.0.0.1:PORT`, the form dns.Resolver#setServers and DNS_SERVERS take. */
  address: string;
  port: number;
  setRecords(records: DnsRecords): void;
  close(): Promise<void>;
};

const TYPE = { A: 1, CNAME: 5, TXT: 16, AAAA: 28, OPT: 41 } as const;
const RCODE = { NOERROR: 0, FORMERR: 1, NXDOMAIN: 3, NOTIMP: 4 } as const;
const FLAG = { QR: 0x8000, AA: 0x0400, TC: 0x0200, RD: 0x0100 } as const;
const CLASS_IN = 1;
const TTL = 60;
const HEADER_BYTES = 12;
const MAX_CNAME_HOPS = 8;

type Query = { id: number; flags: number; name: string; type: number; question: Buffer };

const canonical = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** Reads a (possibly compressed) domain name; returns it and the offset just past it. */
function readName(message: Buffer, start: number): { name: string; next: number } {
  const labels: string[] = [];
  let offset = start;
  let next: number | undefined;
  for (let jumps = 0; ;) {
    const length = message.readUInt8(offset);
    if (length === 0) break;
    if ((length & 0xc0) === 0xc0) {
      if (++jumps > 16) throw new Error('compression loop');
      next ??= offset + 2;
      offset = message.readUInt16BE(offset) & 0x3fff;
      continue;
    }
    if (length > 63 || offset + 1 + length > message.length) throw new Error('bad label');
    labels.push(message.toString('latin1', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return { name: labels.join('.'), next: next ?? offset + 1 };
}

/** The UDP payload size the client accepts: 512, or more when it sent an EDNS OPT record. */
function udpLimit(message: Buffer, afterQuestion: number): number {
  let offset = afterQuestion;
  const records = message.readUInt16BE(6) + message.readUInt16BE(8) + message.readUInt16BE(10);
  for (let i = 0; i < records; i++) {
    offset = readName(message, offset).next;
    const type = message.readUInt16BE(offset);
    const size = message.readUInt16BE(offset + 2);
    if (type === TYPE.OPT) return Math.max(512, size);
    offset += 10 + message.readUInt16BE(offset + 8);
  }
  return 512;
}

function parseQuery(message: Buffer): Query & { limit: number } {
  if (message.readUInt16BE(4) !== 1) throw new Error('expected exactly one question');
  const { name, next } = readName(message, HEADER_BYTES);
  const type = message.readUInt16BE(next);
  const question = message.subarray(HEADER_BYTES, next + 4);
  return {
    id: message.readUInt16BE(0),
    flags: message.readUInt16BE(2),
    name,
    type,
    question,
    limit: udpLimit(message, next + 4),
  };
}

/** Keeps the case as written, so tests can check that callers compare names case-insensitively. */
function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([
    ...labels.map((label) => {
      const bytes = Buffer.from(label, 'latin1');
      return Buffer.concat([Buffer.from([bytes.length]), bytes]);
    }),
    Buffer.from([0]),
  ]);
}

function ipv6Bytes(address: string): Buffer {
  if (!net.isIPv6(address) || address.includes('.')) {
    throw new Error(`AAAA records take hex-group IPv6 addresses, not ${address}`);
  }
  const words = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const [head, tail = ''] = address.split('::') as [string, string?];
  const headWords = words(head);
  const tailWords = words(tail);
  const zeros = address.includes('::') ? 8 - headWords.length - tailWords.length : 0;
  const bytes = Buffer.alloc(16);
  [...headWords, ...new Array<number>(zeros).fill(0), ...tailWords].forEach((word, i) =>
    bytes.writeUInt16BE(word, i * 2),
  );
  return bytes;
}

/** TXT character-strings hold at most 255 bytes, so longer values are split into chunks. */
function txtRdata(strings: string[]): Buffer {
  const chunks = strings.flatMap((value) => {
    const bytes = Buffer.from(value, 'utf8');
    if (bytes.length === 0) return [Buffer.from([0])];
    const parts: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 255) {
      const part = bytes.subarray(i, i + 255);
      parts.push(Buffer.concat([Buffer.from([part.length]), part]));
    }
    return parts;
  });
  return Buffer.concat(chunks);
}

function resourceRecord(owner: Buffer, type: number, rdata: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(CLASS_IN, 2);
  fixed.writeUInt32BE(TTL, 4);
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([owner, fixed, rdata]);
}

function recordsOfType(owner: Buffer, set: DnsRecordSet, type: number): Buffer[] {
  switch (type) {
    case TYPE.A:
      return (set.A ?? []).map((ip) =>
        resourceRecord(owner, TYPE.A, Buffer.from(ip.split('.').map(Number))),
      );
    case TYPE.AAAA:
      return (set.AAAA ?? []).map((ip) => resourceRecord(owner, TYPE.AAAA, ipv6Bytes(ip)));
    case TYPE.TXT:
      return (set.TXT ?? []).map((strings) => resourceRecord(owner, TYPE.TXT, txtRdata(strings)));
    case TYPE.CNAME:
      return set.CNAME === undefined
        ? []
        : [resourceRecord(owner, TYPE.CNAME, encodeName(set.CNAME))];
    default:
      return [];
  }
}

function answer(
  table: Map<string, DnsRecordSet>,
  query: Query,
): { rcode: number; answers: Buffer[] } {
  const answers: Buffer[] = [];
  // The first owner name repeats the question as asked (resolvers may vary its case).
  let owner = query.question.subarray(0, query.question.length - 4);
  let name = canonical(query.name);
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    const set = table.get(name);
    if (!set) return { rcode: hop === 0 ? RCODE.NXDOMAIN : RCODE.NOERROR, answers };
    if (set.CNAME === undefined || query.type === TYPE.CNAME) {
      answers.push(...recordsOfType(owner, set, query.type));
      break;
    }
    answers.push(resourceRecord(owner, TYPE.CNAME, encodeName(set.CNAME)));
    name = canonical(set.CNAME);
    owner = encodeName(name);
  }
  return { rcode: RCODE.NOERROR, answers };
}

function header(id: number, flags: number, questions: number, answers: number): Buffer {
  const bytes = Buffer.alloc(HEADER_BYTES);
  bytes.writeUInt16BE(id, 0);
  bytes.writeUInt16BE(flags, 2);
  bytes.writeUInt16BE(questions, 4);
  bytes.writeUInt16BE(answers, 6);
  return bytes;
}

function respond(table: Map<string, DnsRecordSet>, message: Buffer): Buffer | null {
  if (message.length < HEADER_BYTES || message.readUInt16BE(2) & FLAG.QR) return null;
  let query: Query & { limit: number };
  try {
    query = parseQuery(message);
  } catch {
    const flags = FLAG.QR | (message.readUInt16BE(2) & FLAG.RD) | RCODE.FORMERR;
    return header(message.readUInt16BE(0), flags, 0, 0);
  }
  const opcode = query.flags & 0x7800;
  const baseFlags = FLAG.QR | FLAG.AA | opcode | (query.flags & FLAG.RD);
  if (opcode !== 0)
    return Buffer.concat([header(query.id, baseFlags | RCODE.NOTIMP, 1, 0), query.question]);
  const { rcode, answers } = answer(table, query);
  const full = Buffer.concat([
    header(query.id, baseFlags | rcode, 1, answers.length),
    query.question,
    ...answers,
  ]);
  if (full.length <= query.limit) return full;
  // No TCP here: a truncated answer makes a resolver retry over TCP, which then fails loudly.
  return Buffer.concat([header(query.id, baseFlags | FLAG.TC | rcode, 1, 0), query.question]);
}

function toTable(records: DnsRecords): Map<string, DnsRecordSet> {
  return new Map(Object.entries(records).map(([name, set]) => [canonical(name), set]));
}

/** Starts the server on a random UDP port of 127.0.0.1. */
export async function startDnsServer(records: DnsRecords): Promise<DnsServer> {
  let table = toTable(records);
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, peer) => {
    const reply = respond(table, message);
    if (reply) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.off('error', reject);
      // A stray send failure must not crash the test run; the resolver will just time out.
      socket.on('error', () => {});
      resolve();
    });
  });
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    port,
    setRecords(next) {
      table = toTable(next);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
