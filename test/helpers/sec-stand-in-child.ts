/**
 * The stand-in for SEC in a process of its own (startRemoteStandIn), so the arrival times it
 * records are not held up by the work of the process under test (as SEC's servers are not). The
 * parent sets answers and reads the arrivals over IPC.
 */
import { startSecStandIn } from './sec-stand-in.ts';

export type StandInMessage =
  | { type: 'set'; path: string; body: string | { status: number; body?: string } }
  | { type: 'hits'; id: number; from: number }
  | { type: 'close' };

if (!process.send) {
  console.error('test/helpers/sec-stand-in-child.ts runs as a child process of startRemoteStandIn');
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
