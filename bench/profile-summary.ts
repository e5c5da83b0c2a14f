// `node .tmp/bench/dist/bench/profile-summary.js [--busiest S] DIR|FILE...`: where the CPU time of V8
// .cpuprofile files (from BENCH_CPU_PROF=1) went, by package / source folder and by function.
import fs from 'node:fs';
import path from 'node:path';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

/** A package name, a folder of this repository, or a V8 pseudo-frame like (garbage collector). */
function areaOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node: (core)';
  const dist = url.match(/\/dist\/((?:src\/)?[^/]+(?:\/[^/]+)?)\//);
  if (dist) return `formward ${dist[1]}`;
  return path.basename(url);
}

/** Sample counts per node id, over the whole profile or its busiest `windowS` seconds. */
function hitsPerNode(profile: Profile, windowS: number): { hits: Map<number, number>; ms: number } {
  const times: number[] = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((t += delta));
  const idle = new Set(
    profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id),
  );
  let [from, to] = [0, profile.samples.length];
  if (windowS > 0) {
    let best = -1;
    let busy = 0;
    for (let start = 0, end = 0; start < times.length; start++) {
      for (; end < times.length && times[end] - times[start] < windowS * 1e6; end++)
        if (!idle.has(profile.samples[end])) busy++;
      if (busy > best) [best, from, to] = [busy, start, end];
      if (!idle.has(profile.samples[start])) busy--;
    }
  }
  const hits = new Map<number, number>();
  for (let i = from; i < to; i++)
    hits.set(profile.samples[i], (hits.get(profile.samples[i]) ?? 0) + 1);
  const ms = ((times[to - 1] ?? 0) - (times[from] ?? 0)) / 1000;
  return { hits, ms };
}

function summarise(file: string, windowS: number): void {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const { hits: hitMap, ms: totalMs } = hitsPerNode(profile, windowS);
  const samples = [...hitMap.values()].reduce((a, b) => a + b, 0) || 1;
  const msPerSample = totalMs / samples;
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = hitMap.get(node.id) ?? 0;
    if (!hits) continue;
    const area = areaOf(node.callFrame);
    byArea.set(area, (byArea.get(area) ?? 0) + hits);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where} [${area}]`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  }
  // Inclusive: every sample counts once for each area / repository function on its stack.
  const parent = new Map<number, ProfileNode>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node);
  const inclusiveArea = new Map<string, number>();
  const inclusiveOwn = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = hitMap.get(node.id) ?? 0;
    if (!hits || node.callFrame.functionName === '(idle)') continue;
    busy += hits;
    const areas = new Set<string>();
    const own = new Set<string>();
    for (let n: ProfileNode | undefined = node; n; n = parent.get(n.id)) {
      const area = areaOf(n.callFrame);
      areas.add(area);
      if (area.startsWith('formward ') && n.callFrame.functionName)
        own.add(
          `${n.callFrame.functionName} ${path.basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`,
        );
    }
    for (const a of areas) inclusiveArea.set(a, (inclusiveArea.get(a) ?? 0) + hits);
    for (const f of own) inclusiveOwn.set(f, (inclusiveOwn.get(f) ?? 0) + hits);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([name, hits]) =>
          `  ${((100 * hits) / samples).toFixed(1).padStart(5)}%  ${(hits * msPerSample).toFixed(0).padStart(7)} ms  ${name}`,
      )
      .join('\n');
  const span = windowS > 0 ? `busiest ${windowS} s window` : 'whole profile';
  console.log(`\n${file} (${span}): ${(totalMs / 1000).toFixed(1)} s, ${samples} samples`);
  console.log(`self time by area:\n${top(byArea, 18)}`);
  console.log(`self time by function:\n${top(byFunction, 25)}`);
  console.log(`busy (not idle): ${((100 * busy) / samples).toFixed(1)}% of samples`);
  console.log(`inclusive time by area (% of all samples):\n${top(inclusiveArea, 18)}`);
  console.log(`inclusive time of repository functions:\n${top(inclusiveOwn, 25)}`);
}

// Arguments: [--busiest SECONDS] DIR|FILE... (--busiest: only the busiest window, e.g. the load).
const args = process.argv.slice(2);
const flag = args.indexOf('--busiest');
const windowS = flag >= 0 ? Number(args.splice(flag, 2)[1]) : 0;
if (args.length === 0) {
  console.error('usage: profile-summary [--busiest SECONDS] DIR|FILE.cpuprofile ...');
  process.exitCode = 2;
}
for (const input of args) {
  const files = fs.statSync(input).isDirectory()
    ? fs
        .readdirSync(input)
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => path.join(input, name))
    : [input];
  for (const file of files) summarise(file, windowS);
}
