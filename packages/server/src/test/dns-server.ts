// A tiny authoritative DNS answerer on loopback UDP, so tests resolve names through a real
// resolver (dns.Resolver with setServers). It answers A and TXT questions from a table the test
// changes as it goes; any other name or type gets an empty answer (NODATA) or NXDOMAIN.
import dgram from 'node:dgram';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS / setServers. */
  address: string;
  /** Sets (replaces) the A records of a name. */
  setA(name: string, addresses: string[]): void;
  /** Sets (replaces) the TXT records of a name. */
  setTxt(name: string, values: string[]): void;
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_TXT = 16;

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, { a: string[]; txt: string[] }>();
  const entry = (name: string) => {
    const key = name.toLowerCase().replace(/\.$/, '');
    let found = records.get(key);
    if (!found) records.set(key, (found = { a: [], txt: [] }));
    return found;
  };
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    const answer = respond(query, records);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    setA: (name, addresses) => void (entry(name).a = addresses),
    setTxt: (name, values) => void (entry(name).txt = values),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function respond(query: Buffer, records: Map<string, { a: string[]; txt: string[] }>): Buffer | undefined {
  if (query.length < 12) return undefined;
  // The question: labels from byte 12 to a zero byte, then type and class.
  const labels: string[] = [];
  let at = 12;
  while (at < query.length && query[at] !== 0) {
    const length = query[at];
    labels.push(query.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  const questionEnd = at + 5;
  if (questionEnd > query.length) return undefined;
  const type = query.readUInt16BE(at + 1);
  const found = records.get(labels.join('.').toLowerCase());
  const rdatas: Buffer[] = [];
  if (found && type === TYPE_A) for (const ip of found.a) rdatas.push(Buffer.from(ip.split('.').map(Number)));
  if (found && type === TYPE_TXT) {
    for (const text of found.txt) {
      const bytes = Buffer.from(text, 'utf8');
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 255) {
        const chunk = bytes.subarray(i, i + 255);
        parts.push(Buffer.from([chunk.length]), chunk);
      }
      rdatas.push(Buffer.concat(parts));
    }
  }
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // id
  // Response, authoritative, recursion desired copied, recursion available; NXDOMAIN for unknown names.
  header.writeUInt16BE(0x8480 | (query.readUInt16BE(2) & 0x0100) | (found ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rdatas.length, 6);
  const answers = rdatas.map((rdata) => {
    const head = Buffer.alloc(12);
    head.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    head.writeUInt16BE(type, 2);
    head.writeUInt16BE(1, 4); // class IN
    head.writeUInt32BE(1, 6); // TTL 1 s
    head.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([head, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
}
