import type { CaseResult } from './store-measure.js';
import { PG_CASES, POSTGRES_VS_FILE_GOAL, type PostgresSectionResult } from './store-postgres-section.js';

const int = (v: number) => Math.round(v).toLocaleString('en-US');
const micros = (v: number) => (v >= 100 ? int(v) : v.toFixed(1));
const spread = (r: CaseResult) => `${micros(r.median)} (${micros(r.min)}–${micros(r.max)})`;
const times = (v: number) => `×${v >= 10 ? v.toFixed(1) : v.toFixed(2)}`;

/** PostgresRunStore ÷ FileRunStore (medians) on each place measured. */
export function postgresRatios(section: PostgresSectionResult): { place: string; ratio: number; met: boolean }[] {
  return section.places.flatMap((p) => {
    const file = p.cases[PG_CASES.file];
    const pg = p.cases[PG_CASES.postgres];
    return file && pg ? [{ place: p.place.name, ratio: pg.median / file.median, met: pg.median / file.median <= POSTGRES_VS_FILE_GOAL }] : [];
  });
}

/**
 * The section's table: per place, orchestra with each store in µs per
 * stage beside its floor, the INSERT round trips the database floor is made
 * of, then PostgreSQL ÷ file per place and the goal (on disk). Returns the
 * lines, and the goal's verdict (undefined when not measured).
 */
export function postgresTable(section: PostgresSectionResult, runs: number, warmup: number): { lines: string[]; missed?: string } {
  const lines: string[] = [];
  const n = int(section.nodes);
  lines.push(`PostgreSQL beside the file store: ${n}-stage chain of simulated LLM stages (runPipeline with simulationBackend; prompt.md, response.md, status.json, journal, events per stage)`);
  if (section.skipped) {
    lines.push(`  skipped: ${section.skipped}`);
    return { lines };
  }
  lines.push(`  µs per stage (run time / ${n}), median (min–max) of ${runs} timed runs after ${warmup} warm-up runs; CPU user/sys: this process only (the server's CPU is not in it)`);
  const st = section.statements;
  if (st) {
    lines.push(
      `  PostgresRunStore sends ${st.perNode.toFixed(2)} statements per stage (${int(st.total)} in a run), ${st.synchronousPerNode.toFixed(3)} of them synchronous commits (${st.synchronous} checkpoints in a run; the others commit with synchronous_commit=off)`,
    );
  }
  const widths = [56, 22, 13, 9, 7];
  const row = (cells: string[]) => `    ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}`;
  for (const p of section.places) {
    lines.push(`  ${p.place.name}: run directories under ${p.place.dir} (${p.place.fs}); PostgreSQL data in ${p.dataDir} (fsync on)`);
    lines.push(row(['case', 'µs/stage', 'CPU user/sys', 'floor', '× floor']));
    const c = p.cases;
    const fileFloor = c[PG_CASES.fileFloor];
    for (const [name, floor] of [
      [PG_CASES.file, fileFloor?.median],
      [PG_CASES.postgres, p.postgresFloorMicros],
    ] as const) {
      const r = c[name];
      if (!r) continue;
      lines.push(row([name, spread(r), `${micros(r.cpu.user)}/${micros(r.cpu.system)}`, floor !== undefined ? micros(floor) : '—', floor ? times(r.median / floor) : '—']));
    }
    if (fileFloor) lines.push(row([`${PG_CASES.fileFloor} (per stage)`, spread(fileFloor), `${micros(fileFloor.cpu.user)}/${micros(fileFloor.cpu.system)}`, '', '']));
    for (const name of [PG_CASES.insertAsync, PG_CASES.insertSync]) {
      const r = c[name];
      if (r) lines.push(row([`${name} (per INSERT)`, spread(r), `${micros(r.cpu.user)}/${micros(r.cpu.system)}`, '', '']));
    }
  }
  lines.push('  file floor: per stage mkdir, prompt.md, response.md and status.json written, one journal line appended (src/stage-floor.ts; no events line)');
  lines.push('  PostgreSQL floor: per stage, (statements − synchronous ones) × the INSERT round trip + synchronous ones × the INSERT commit, medians: what the round trips alone cost');
  const ratios = postgresRatios(section);
  if (ratios.length) lines.push(`  PostgresRunStore ÷ FileRunStore (medians): ${ratios.map((r) => `${r.place} ${times(r.ratio)}`).join('; ')}`);
  const disk = ratios.find((r) => r.place === 'disk');
  let missed: string | undefined;
  if (disk) {
    lines.push(`  goal: PostgresRunStore on disk within ×${POSTGRES_VS_FILE_GOAL} of FileRunStore on disk per stage — ${times(disk.ratio)} ${disk.met ? 'met' : 'MISSED'}`);
    if (!disk.met) missed = `PostgresRunStore ÷ FileRunStore on disk, ${n} stages: ${times(disk.ratio)} vs goal ≤ ×${POSTGRES_VS_FILE_GOAL}`;
  }
  return { lines, ...(missed ? { missed } : {}) };
}
