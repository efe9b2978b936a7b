// A DNS server of the tests' own on 127.0.0.1 (UDP), answering from a zone given as data: dns-packet (mafintosh's
// encoder and decoder, the one most Node DNS servers build on) reads the questions and writes the answers. A name in
// the zone with no record of the asked type is NODATA; a name not in it, NXDOMAIN. Every query is counted.
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import * as packet from 'dns-packet';

/** `SERVFAIL`: the name's every question is answered with SERVFAIL (a broken zone); `SILENT`: never answered (a
 * zone whose name servers are down: the client times out); `STOP`: the server stops at this name's question (a
 * resolver that dies midway: the questions after it are refused). */
export type Zone = Record<
  string,
  {
    TXT?: string[];
    MX?: Array<{ preference: number; exchange: string }>;
    A?: string[];
    AAAA?: string[];
    SERVFAIL?: boolean;
    SILENT?: boolean;
    STOP?: boolean;
  }
>;

export interface TestDns {
  /** "127.0.0.1:PORT", for --resolver. */
  address: string;
  queries: string[];
  close(): Promise<void>;
}

/** A TXT record's text as DNS carries it: strings of at most 255 bytes. */
const chunks = (text: string) => text.match(/[\s\S]{1,255}/g) ?? [''];

export async function startTestDns(zone: Zone): Promise<TestDns> {
  const socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (message, peer) => {
    const query = packet.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    queries.push(`${question.type} ${name}`);
    const records = zone[name];
    if (records?.STOP) return void socket.close();
    if (records?.SILENT) return;
    const answers: packet.Answer[] = records?.SERVFAIL
      ? []
      : question.type === 'TXT'
        ? (records?.TXT ?? []).map((text) => ({ type: 'TXT', name: question.name, ttl: 60, data: chunks(text) }))
        : question.type === 'MX'
          ? (records?.MX ?? []).map((data) => ({ type: 'MX', name: question.name, ttl: 60, data }))
          : question.type === 'A' || question.type === 'AAAA'
            ? (records?.[question.type] ?? []).map((data) => ({
                type: question.type as 'A' | 'AAAA',
                name: question.name,
                ttl: 60,
                data,
              }))
            : [];
    const reply = packet.encode({
      id: query.id,
      type: 'response',
      // Authoritative; recursion available (the client asks for it); NXDOMAIN for a name not in the zone.
      flags:
        packet.AUTHORITATIVE_ANSWER |
        packet.RECURSION_DESIRED |
        packet.RECURSION_AVAILABLE |
        (records?.SERVFAIL ? 2 : records ? 0 : 3),
      questions: [question],
      answers,
    });
    socket.send(reply, peer.port, peer.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    // Closed once (a STOP in the zone may have closed it already).
    close: () =>
      new Promise((resolve) => {
        try {
          socket.close(() => resolve());
        } catch {
          resolve();
        }
      }),
  };
}
