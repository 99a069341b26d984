/**
 * The freshness bench's stand-in for SEC in a process of its own, so the arrival times it records
 * are not held up by the service's work in the bench's process (as SEC's servers are not). The
 * parent sets answers and reads the arrivals over IPC.
 */
import { startSecStandIn } from '../../test/helpers/sec-stand-in.ts';

export type StandInMessage =
  | { type: 'set'; path: string; body: string | { status: number; body?: string } }
  | { type: 'hits'; id: number; from: number }
  | { type: 'close' };

if (!process.send) {
  console.error('bench/lib/stand-in-child.ts runs as a child process of the freshness bench');
  process.exit(2);
}
const sec = await startSecStandIn();
process.on('message', (m: StandInMessage) => {
  if (m.type === 'set') sec.answers.set(m.path, m.body);
  else if (m.type === 'hits') process.send!({ type: 'hits', id: m.id, hits: sec.hits.slice(m.from) });
  else if (m.type === 'close') void sec.close().then(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', origin: sec.origin });
