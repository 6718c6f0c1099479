// The demo chat: each message first recalls what Mnemo remembers about it (heartbeat_context:
// the memories that match, and whether the agent has something to raise), which goes into the
// prompt of the reply — from an OpenAI-compatible endpoint the user configures (Ollama,
// llama.cpp, a provider; its key stays in this page), or, without one, a reply that shows what
// was recalled. The page shows which memories reached the prompt and why, and the prompt
// itself. Then the message goes through Mnemo's write path (dedup, importance, types); the
// memory table shows what is stored, search shows why each memory matched, and the heartbeat
// decides, at the interval it suggests, whether the agent should speak up (and says why). A
// file dropped on the page is ingested as a document: its passages, summaries and tags are
// shown, and search and the chat find its passages. It uses only the public package. URL options: ?storage=opfs|idb|memory, ?embedder=minilm, ?user=.
import { Mnemo } from '../src/index.js';

const params = new URLSearchParams(location.search);
const user = params.get('user') ?? 'me';
const storage = params.get('storage') ?? (navigator.storage?.getDirectory ? 'opfs' : 'idb');
const session = `chat-${new Date().toISOString().slice(0, 10)}`;
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, attrs);
  e.append(...children);
  return e;
}

/** Adds a message to the chat; its recorded id, when known, is what its memories cite. */
function say(who, text, id) {
  const li = el('li', { className: who, textContent: text });
  if (id) li.dataset.message = id;
  $('chat').append(li);
  li.scrollIntoView({ block: 'end' });
  return li;
}

function fail(e) {
  $('status').textContent = `${e.code ?? 'error'}: ${e.message}`;
  $('status').className = 'error';
}

const fmt = (x) => (typeof x === 'number' ? x.toFixed(2) : String(x));

async function openStore() {
  let embed;
  let name = 'demo';
  if (params.get('embedder') === 'minilm') {
    const { transformersEmbedder } = await import('./transformers-embed.js');
    $('status').textContent = 'loading all-MiniLM-L6-v2…';
    embed = await transformersEmbedder();
    name = 'demo-minilm';
  }
  const m = await Mnemo.open({ name, storage, embed, summarise });
  const { model, dimension } = await m.embeddingModel();
  $('embedder').textContent = `${model} (${dimension}-d)`;
  $('storage').textContent = storage;
  return m;
}

async function refresh(m) {
  const page = await m.list({ entity_id: user, limit: 200 });
  // Documents' passages are listed with their documents, not here.
  const memories = page.memories.filter((x) => x.kind !== 'passage');
  $('count').textContent = `(${memories.length})`;
  const rows = memories.map((x) =>
    el(
      'tr',
      // Where it was said: the message whose id `remember` was given as its source.
      x.source_ref ? { title: `said in message ${x.source_ref}` } : {},
      el('td', { textContent: x.content }),
      el('td', { textContent: x.type }),
      el('td', { className: 'num', textContent: fmt(x.importance) }),
      el('td', { className: `state-${x.state}`, textContent: x.state }),
      el('td', { textContent: x.tier }),
    ),
  );
  $('memories').tBodies[0].replaceChildren(...rows);
}

/** What a maintenance pass and its consolidation did, in a line. */
function showMaintenance(r) {
  const c = r.consolidation;
  if (!c) return;
  const q = c.quantisation;
  const coarser = q.to_int8 + q.to_int4 + q.to_int2;
  const steps = [
    `${c.tags.tagged} tagged`,
    `${c.clusters.merged} merged in ${c.clusters.clusters} cluster${c.clusters.clusters === 1 ? '' : 's'}`,
    `${c.pruning.archived} archived`,
    `${c.edges.relationships_removed} stale relationship${c.edges.relationships_removed === 1 ? '' : 's'} removed`,
    `${c.relationships.linked} linked by what they share`,
    `${c.links.removed} co-recall link${c.links.removed === 1 ? '' : 's'} faded`,
    `${coarser} vector${coarser === 1 ? '' : 's'} stored with fewer bits`,
    `${r.to_stale + r.to_archived + r.to_deleted} faded by decay`,
  ];
  const written = c.summaries.passages + c.summaries.documents;
  if (written) steps.push(`${written} summar${written === 1 ? 'y' : 'ies'} written by the model`);
  if (c.summaries.failure) steps.push(c.summaries.failure);
  $('consolidation').textContent = `last consolidation ${new Date().toLocaleTimeString()}: ${steps.join(' · ')}${c.more ? ' · more to do' : ''}`;
}

/** Why a hit matched, in words a person reads, then the figures behind it. */
function explain(hit) {
  const w = hit.why;
  const reasons = [];
  // The engine names the words of the question the memory says (compared by stem).
  if (w.matched.length) reasons.push(`it says ${w.matched.map((x) => `“${x}”`).join(', ')}`);
  if (w.vector >= 0.5) reasons.push('it means nearly the same');
  else if (w.vector >= 0.3) reasons.push('it is close in meaning');
  const own = 0.5 * Math.max(0, w.vector) + 0.5 * w.text;
  if (w.context > own) reasons.push('it was said next to, or is often recalled with, something that matched');
  if (!reasons.length) reasons.push('only loosely related');
  const why = `${Math.round(w.relevance * 100)} % relevant: ${reasons.join('; ')}`;
  const lent = w.context > 0 ? `, lent by its conversation ${fmt(w.context)}` : '';
  return `${why} — relevance ${fmt(w.relevance)} (text ${fmt(w.text)}, vector ${fmt(w.vector)}${lent}) · recency ${fmt(w.recency)} · importance ${fmt(w.importance)} · ${w.mode}`;
}

/** A recalled memory as the reply quotes it: a passage with where it lies, cut short. */
const said = (h) =>
  h.passage
    ? `“${h.memory.content.replace(/\s+/g, ' ').slice(0, 300)}” (${from(h.passage)})`
    : `“${h.memory.content}”`;

/** Where a passage found lies: its document and section. */
const from = (p) => `from “${p.title}”${p.section.length ? ` › ${p.section.join(' › ')}` : ''}, passage ${p.position + 1} of ${p.passages}`;

function showHits(hits) {
  $('hits').replaceChildren(
    ...hits.map((h) =>
      el(
        'li',
        {},
        el('span', { className: 'score', textContent: `${fmt(h.why.relevance)} ` }),
        h.passage ? h.passage.summary : h.memory.content,
        ...(h.passage ? [el('div', { className: 'from', textContent: from(h.passage) })] : []),
        el('div', { className: 'why', textContent: explain(h) }),
      ),
    ),
  );
  if (!hits.length) $('hits').append(el('li', { textContent: 'nothing relevant — I was never told that' }));
}

/** The chat endpoint the user configured (the key is never stored), or none. */
const llm = { url: localStorage.getItem('mnemo-demo-llm-url') ?? '', model: localStorage.getItem('mnemo-demo-llm-model') ?? '', key: '' };

function showLlm() {
  $('llm-url').value = llm.url;
  $('llm-model').value = llm.model;
  $('llm-state').textContent = llm.url ? `${llm.model || 'default model'} at ${llm.url}` : 'none (replies show what was recalled)';
}

/** Whether a message asks rather than tells. */
const asks = (text) => /\?\s*$/.test(text);

/**
 * What a recall knows that bears on a message: memories with their own evidence (words or
 * meaning, not relevance lent by neighbouring messages), not the message itself, and not the
 * user's earlier questions (they say what was asked, not what is so).
 */
function ownEvidence(hits, text) {
  return hits.filter((h) => h.memory.content !== text && !asks(h.memory.content) && (h.why.text > 0.2 || h.why.vector >= 0.3));
}

/**
 * Summaries written by the chat endpoint when one is configured — a merged cluster's one text,
 * a document passage's or a whole document's summary, each checked by the engine — and none
 * without one: the engine's own stay, asked for again at the next consolidation.
 */
async function summarise(texts, context) {
  if (!llm.url) return null;
  const [what, most] =
    'id' in context
      ? ['these notes about the user as one note', 'one or two sentences']
      : context.position === null
        ? [`the document “${context.title}” from its passages' summaries`, 'at most three sentences']
        : [`this passage of the document “${context.title}”`, 'at most two sentences'];
  return complete({
    model: llm.model || undefined,
    messages: [
      { role: 'system', content: `Summarise ${what} in ${most}, shorter than the text. Answer with the summary only.` },
      { role: 'user', content: texts.join('\n\n') },
    ],
  });
}

/** The chat request for a reply: what is remembered, what the agent may raise, the conversation. */
function prompt(recalled, report, conversation) {
  const facts = recalled.map((h) => `- ${h.memory.content} (${h.memory.type.toLowerCase()}, remembered ${new Date(h.memory.created_at).toISOString().slice(0, 10)})`);
  const raise = report.should_act && report.summary ? `\nSomething you may raise if it fits: ${report.summary.split('\n').filter(Boolean).slice(0, 2).join(' ')}` : '';
  const system = [
    'You are a helpful assistant with a long-term memory of this user, kept in their browser.',
    facts.length ? `What you remember that bears on their message:\n${facts.join('\n')}` : 'You remember nothing that bears on their message.',
    'Use what you remember when it helps, and say so; do not invent memories.',
  ].join('\n') + raise;
  const turns = conversation.map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.content }));
  return { model: llm.model || undefined, messages: [{ role: 'system', content: system }, ...turns] };
}

/** The model's reply to `request`, from the configured endpoint. */
async function complete(request) {
  const res = await fetch(`${llm.url.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(llm.key ? { authorization: `Bearer ${llm.key}` } : {}) },
    body: JSON.stringify(request),
  });
  if (!res.ok) throw Object.assign(new Error(`${llm.url} answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`), { code: 'llm_error' });
  const body = await res.json();
  const text = body?.choices?.[0]?.message?.content;
  if (typeof text !== 'string') throw Object.assign(new Error(`${llm.url} answered no choices[0].message.content`), { code: 'llm_error' });
  return text.trim();
}

/** Shows which memories went into the prompt, and why each was recalled. */
function showPrompt(recalled, request) {
  $('prompt-memories').replaceChildren(
    ...recalled.map((h) => el('li', {}, h.memory.content, el('div', { className: 'why', textContent: explain(h) }))),
  );
  if (!recalled.length) $('prompt-memories').append(el('li', { textContent: 'no memory bears on this message' }));
  $('prompt').textContent = JSON.stringify(request, null, 2);
}

const outcomeText = {
  created: () => 'Noted.',
  merged: (o) => `Noted — merged with something you told me before (similarity ${fmt(o.similarity)}).`,
  skipped: (o) =>
    o.reason === 'not_significant'
      ? 'Nothing to remember there.'
      : `I already knew that (${o.reason.replaceAll('_', ' ')}).`,
};

// The owner's UTC offset, so the heartbeat knows their time of day.
const utcOffset = -new Date().getTimezoneOffset();
let beatTimer;

/** One heartbeat check: shows the decision and the signals; speaks up when it should. */
async function heartbeat(m) {
  clearTimeout(beatTimer);
  const r = await m.heartbeatCheck({ entity_id: user, utc_offset_minutes: utcOffset });
  const tier = r.urgency_tier ? `, ${r.urgency_tier}` : '';
  $('decision').textContent = `${r.should_act ? 'speak up' : 'stay quiet'} — ${r.decision_reason.replaceAll('_', ' ')}${tier} · ${r.time_period.replace('_', ' ')} · confluence ${r.confluence_score} · fingerprint ${r.fingerprint || '—'}`;
  $('signals').replaceChildren(
    ...r.signals.map((sig) =>
      el(
        'li',
        { className: sig.surfaced ? 'surfaced' : '' },
        el('span', { className: `tier-${sig.tier}`, textContent: `${sig.kind.replaceAll('_', ' ')} (${sig.tier})` }),
        `: ${sig.summary}`,
      ),
    ),
  );
  if (!r.signals.length) $('signals').append(el('li', { textContent: 'no signals' }));
  if (r.should_act) {
    const text = r.decision_reason === 'first_contact'
      ? 'Hi! I keep what you tell me in this browser, and I will speak up when something needs you.'
      : r.summary.split('\n').filter(Boolean).slice(0, 3).join(' ');
    $('chat').append(el('li', { className: 'nudge', textContent: text }));
    await m.recordMessage({ entity_id: user, role: 'agent', content: text, act_id: r.act_id ?? undefined });
  }
  $('next-beat').textContent = `${Math.round(r.next_tick_ms / 60_000)} min`;
  beatTimer = setTimeout(() => heartbeat(m).catch(fail), r.next_tick_ms);
  return r;
}

async function main() {
  let m;
  try {
    m = await openStore();
  } catch (e) {
    return fail(e);
  }
  $('status').textContent = `remembering for "${user}" in this browser only`;
  // The conversation so far, as recorded (oldest first), so a reload loses nothing.
  for (const msg of (await m.messages({ entity_id: user, limit: 100 })).reverse()) {
    say(msg.role === 'user' ? 'user' : msg.act_id ? 'nudge' : 'agent', msg.content, msg.id);
  }
  // Maintenance on opening: decay, and consolidation once a day.
  showMaintenance(await m.maintain());
  await refresh(m);
  $('beat').onclick = () => heartbeat(m).catch(fail);
  showLlm();
  $('llm-form').onsubmit = (ev) => {
    ev.preventDefault();
    llm.url = $('llm-url').value.trim();
    llm.model = $('llm-model').value.trim();
    llm.key = $('llm-key').value;
    localStorage.setItem('mnemo-demo-llm-url', llm.url);
    localStorage.setItem('mnemo-demo-llm-model', llm.model);
    showLlm();
  };
  $('consolidate').onclick = async () => {
    try {
      showMaintenance(await m.consolidate());
      await refresh(m);
      await showDocuments();
    } catch (e) {
      fail(e);
    }
  };

  $('say').onsubmit = async (ev) => {
    ev.preventDefault();
    const text = $('message').value.trim();
    if (!text) return;
    $('message').value = '';
    const line = say('user', text);
    try {
      const recorded = await m.recordMessage({ entity_id: user, role: 'user', content: text, session_id: session });
      line.dataset.message = recorded.id;
      // Recall before storing, so the reply draws on what was known before this message:
      // the memories that match it (only those with their own evidence, words or meaning,
      // not relevance lent by neighbouring messages) and whether the agent has something to
      // raise. A dry run: answering is not the agent speaking up by itself.
      const context = await m.heartbeatContext({ entity_id: user, query: text, top_k: 5, dry_run: true, utc_offset_minutes: utcOffset });
      const recalled = ownEvidence(context.relevant_memories, text).slice(0, 3);
      const conversation = (await m.messages({ entity_id: user, limit: 12 })).reverse();
      const request = prompt(recalled, context.report, conversation);
      showPrompt(recalled, request);
      // The message's id as its statements' source: search then lets one message's
      // statements give way to other messages' hits.
      const report = await m.remember({ entity_id: user, content: text, session_id: session, source_ref: recorded.id });
      const o = report.outcomes[0];
      // Without a model: a question is answered with what was recalled; a statement is
      // acknowledged with what the write path did, and what it brought back.
      let reply;
      if (llm.url) reply = await complete(request);
      else if (asks(text)) {
        reply = recalled.length
          ? `From what you told me: ${recalled.map(said).join(' ')}`
          : 'I do not remember anything about that — tell me, and I will keep it.';
      } else {
        reply = outcomeText[o.action](o);
        if (recalled.length) reply += ` That reminds me: “${recalled[0].memory.content}”.`;
      }
      say('agent', reply);
      await m.recordMessage({ entity_id: user, role: 'agent', content: reply, session_id: session });
      await refresh(m);
    } catch (e) {
      say('agent', `(${e.code}) ${e.message}`);
    }
  };

  $('find').onsubmit = async (ev) => {
    ev.preventDefault();
    const query = $('query').value.trim();
    if (!query) return;
    try {
      showHits(await m.search({ entity_id: user, query, mode: $('mode').value, limit: 8 }));
      await refresh(m);
    } catch (e) {
      fail(e);
    }
  };

  /** The owner's documents, newest first; a click shows one's passages and their summaries. */
  const showDocuments = async () => {
    const docs = await m.documents({ entity_id: user });
    $('documents').replaceChildren(
      ...docs.map((d) => {
        const li = el(
          'li',
          {},
          el('b', { textContent: d.title }),
          ` — ${d.passages} passage${d.passages === 1 ? '' : 's'}, ${d.format}: ${d.summary} `,
          el('span', { className: 'tags', textContent: [...d.manual_tags, ...d.auto_tags].map((t) => `#${t}`).join(' ') }),
        );
        li.onclick = async () => {
          const { passages } = await m.document({ entity_id: user, id: d.id });
          $('passages').replaceChildren(
            ...passages.map((p) => el('li', {}, el('div', { className: 'from', textContent: p.section.join(' › ') || d.title }), p.summary)),
          );
        };
        return li;
      }),
    );
  };
  const ingest = async (file) => {
    try {
      const r = await m.ingestFile(file, { entity_id: user });
      $('ingested').textContent = `${file.name}: ${r.action === 'unchanged' ? 'already stored' : `${r.document.passages} passages`} — ask about it, or search`;
      $('ingested').className = '';
      await showDocuments();
    } catch (e) {
      $('ingested').textContent = `${file.name}: ${e.code}: ${e.message}`;
      $('ingested').className = 'error';
    }
  };
  $('file').onchange = () => [...$('file').files].reduce((done, f) => done.then(() => ingest(f)), Promise.resolve());
  $('drop').ondragover = (ev) => {
    ev.preventDefault();
    $('drop').classList.add('over');
  };
  $('drop').ondragleave = () => $('drop').classList.remove('over');
  $('drop').ondrop = (ev) => {
    ev.preventDefault();
    $('drop').classList.remove('over');
    [...ev.dataTransfer.files].reduce((done, f) => done.then(() => ingest(f)), Promise.resolve());
  };
  await showDocuments();

  $('export').onclick = async () => {
    const jsonl = await m.export({ entity_id: user });
    const a = el('a', { href: URL.createObjectURL(new Blob([jsonl], { type: 'application/x-ndjson' })), download: `mnemo-${user}.jsonl` });
    a.click();
  };

  $('forget-all').onclick = async () => {
    for (const d of await m.documents({ entity_id: user })) await m.forgetDocument({ entity_id: user, id: d.id });
    const page = await m.list({ entity_id: user, limit: 1000 });
    for (const x of page.memories) await m.forget({ entity_id: user, id: x.id });
    $('chat').replaceChildren();
    $('hits').replaceChildren();
    $('passages').replaceChildren();
    await showDocuments();
    await refresh(m);
  };
  await heartbeat(m).catch(fail);
  window.mnemoDemoReady = true;
}

main();
