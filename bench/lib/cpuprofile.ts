/**
 * Summary of a V8 CPU profile (.cpuprofile) as self time per function and per module (file, or npm package), so a bench run
 * says where time went without opening DevTools. Self time, not total: it names the code that
 * actually burns the CPU rather than every caller above it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './paths.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  total_ms: number;
  functions: SelfTime[];
  modules: SelfTime[];
}

function relative(url: string): string {
  return url.startsWith('file:') ? path.relative(REPO_ROOT, fileURLToPath(url)) : url;
}

/** One label per dependency: which package costs matters more than which of its files. */
function moduleOf(url: string): string {
  const rel = relative(url);
  const dep = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(rel);
  return dep ? `node_modules/${dep[1]}` : rel;
}

/**
 * tsx compiles each .ts file to a few long lines and V8 reports positions in that output, so a
 * line there points nowhere useful in the source; plain .js and node: internals keep theirs.
 */
function frameLabel(frame: ProfileNode['callFrame']): string {
  const fn = frame.functionName || '(anonymous)';
  const rel = relative(frame.url);
  return /\.[cm]?ts$/.test(rel) ? `${fn}  ${rel}` : `${fn}  ${rel}:${frame.lineNumber + 1}`;
}

/** Frames without a script: V8's (idle), (garbage collector), (program), and native bindings. */
function nativeLabel(name: string): string {
  return name.startsWith('(') ? name : `${name || '(anonymous)'}  (native)`;
}

export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const fns = new Map<string, number>();
  const modules = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    total += us;
    const fn = frame.url ? frameLabel(frame) : nativeLabel(frame.functionName);
    fns.set(fn, (fns.get(fn) ?? 0) + us);
    const mod = frame.url ? moduleOf(frame.url) : nativeLabel(frame.functionName);
    modules.set(mod, (modules.get(mod) ?? 0) + us);
  });
  const rank = (m: Map<string, number>): SelfTime[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: total > 0 ? Math.round((us / total) * 1000) / 1000 : 0 }));
  return { total_ms: Math.round(total / 1000), functions: rank(fns), modules: rank(modules) };
}
