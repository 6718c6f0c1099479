// Type-checked by types.test.mjs (`tsc --noEmit --strict`): the package's declarations, generated
// from the engine's calls, are valid TypeScript and describe how the package is used.
import Mnemo, {
  type BridgeJudge,
  type Extractor,
  type HeartbeatReport,
  type Memory,
  type MnemoError,
  type SearchArgs,
  type SearchHit,
  type WriteReport,
} from '../src/index';
import { parseSources, type ParsedFile } from '../src/parser';

export async function usage(): Promise<void> {
  const extract: Extractor = async (content) => [{ content, type: 'EVENT', importance: 0.6 }];
  const judge: BridgeJudge = async ({ a, b, texts }) =>
    texts.length > 1 ? { related: true, relation: `${a} knows ${b}`, reason: texts[0] } : null;
  const m = await Mnemo.open({ storage: 'memory', now: 0, seed: 1, extract, judge });
  // @ts-expect-error a judge answers a decision, not text
  await Mnemo.open({ judge: async () => 'yes' });
  const report: WriteReport = await m.seed([
    { entity_id: 'ana', content: 'Ana drinks green tea', type: 'PREFERENCE', vector: new Float32Array(384) },
  ]);
  for (const o of report.outcomes) {
    if (o.action === 'merged') o.absorbed.toUpperCase();
    if (o.action === 'skipped') o.reason satisfies 'exact_duplicate' | 'semantic_duplicate' | 'subset' | 'not_significant' | 'corroborated';
  }
  const args: SearchArgs = { entity_id: 'ana', query: 'tea', mode: 'recent', limit: 3 };
  const hits: SearchHit[] = await m.search(args);
  const first: Memory = hits[0].memory;
  first.agent_id satisfies string | null;
  hits[0].why.semantic.toFixed(2);
  await m.update({ entity_id: 'ana', id: first.id, patch: { content: 'Ana drinks oolong', tags: ['tea'] } });
  await m.setStatus({ entity_id: 'ana', id: first.id, status: 'challenged', reason: 'said otherwise' });
  const beat: HeartbeatReport = await m.heartbeatCheck({ entity_id: 'ana', autonomy: 'act', dry_run: true });
  beat.signals.map((s) => s.kind);
  await m.import(await m.export({ entity_id: 'ana' }));
  (await m.embeddingModel()).dimension.toFixed(0);
  const flat = await m.embedVectors({ texts: ['tea'] });
  flat.vectors.subarray(0, flat.dimension) satisfies Float32Array;
  // @ts-expect-error embedVectors takes embed's arguments
  await m.embedVectors(['tea']);
  await m.maintain();
  // @ts-expect-error an unknown mode is not a ranking mode
  await m.search({ entity_id: 'ana', query: 'tea', mode: 'loudest' });
  // @ts-expect-error entity_id is required
  await m.stats({});
  try {
    await m.get({ entity_id: 'ana', id: 'missing' });
  } catch (e) {
    (e as MnemoError).code satisfies string;
  }
  const parsed = await parseSources([{ path: 'src/auth.rs', text: 'pub fn check() {}' }]);
  const read = parsed[0];
  if ('symbols' in read) (read satisfies ParsedFile).symbols[0].line satisfies number;
  await m.ingestCode({ entity_id: 'repo', files: parsed });
  // @ts-expect-error a source file needs its text
  await parseSources([{ path: 'src/auth.rs' }]);
  await m.close();
}
