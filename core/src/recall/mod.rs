//! Recall: hybrid search of one owner's memories, top to bottom in `search`:
//!
//! 1. candidates — from the cache, else the owner's nearest vectors and best BM25 matches,
//!    fused into one relevance, with relevance lent along a conversation (`candidates`);
//!    a question naming a speaker of transcript lines counts the others' lines for less
//!    (`speaker`); an entity filter keeps only (and adds every) memory naming the entities
//!    asked for; a question naming a span of time reads it first, and what its memories say
//!    of the span, said inside it or not, counts (`when`);
//! 2. admission — fresh rows, with the accesses not yet written applied; status, state,
//!    recall filter and types decide which may appear (`rank::admits`);
//! 3. the gate and the mode — relevance decides which qualify, the mode's composite score
//!    orders them, the rest follow in relevance order (`rank`);
//! 4. diversity — a hit nearly identical to one above it is dropped (`diversity`);
//! 5. the hits count as accesses, and the top ones as recalled together (co-recall links),
//!    written with the next transaction.

mod cache;
mod candidates;
mod diversity;
mod hop;
pub mod rank;
mod speaker;
mod when;

use serde::{Deserialize, Serialize};

pub(crate) use cache::Cache;
pub use candidates::Candidate;
use candidates::Found;
use diversity::Diverse;
pub use hop::{Hop, MAX_HOPS};
pub use rank::{PeriodMatch, RankMode, ScoreBreakdown, Weights, WHEN_BOOST};
use when::{
    anchored, due_in, names_a_time, names_nothing, tells_of, READ_WHOLE_MS, TELLS_WITHIN_MS,
};

use crate::clock::{check_time, Millis, Window};
use crate::decay::{self, RetentionConfig};
use crate::dedup;
use crate::document::{self, PassageOf};
use crate::embed;
use crate::error::{Error, Result};
use crate::field::{Id, Limit, Owner, MAX_LIMIT};
use crate::graph;
use crate::links;
use crate::model::{Kind, Memory, MemoryType, RecallFilter};
use crate::period;
use crate::store::memories::{self, Reach};
use crate::store::View;
use crate::text;
use crate::vectors::OwnerVectors;

/// Default number of search results.
pub(crate) const DEFAULT_LIMIT: usize = 10;
/// Longest search query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 10_000;
/// Relevance below which a hit is not an answer (`recall.min_relevance`'s default).
pub const MIN_RELEVANCE: f64 = 0.1;

// Declared by `string_enum!`, which cannot carry `#[default]`.
#[allow(clippy::derivable_impls)]
impl Default for RecallFilter {
    fn default() -> Self {
        RecallFilter::FullContext
    }
}

/// A search. Only `entity_id` and `query` (or `vector`) are required.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("required" = ["entity_id", "query"]))]
pub struct SearchRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// With `agent_id`: false to search only the agent's own memories, as Keyoku's client
    /// asks when it is not team-aware (default true: everything the agent may see).
    pub team_aware: Option<bool>,
    /// What to look for, in words: at most 10,000 characters; may be empty when `vector` is given.
    #[schemars(length(max = MAX_QUERY_CHARS))]
    pub query: String,
    /// The query's vector, when the caller embeds it; else the engine's embedder is used.
    #[schemars(extend("x-embeds" = "query"))]
    pub vector: Option<Vec<f32>>,
    /// Results wanted, 1 to 1,000 (default 10).
    pub limit: Option<Limit>,
    /// How hits are ordered among comparably relevant ones (default balanced).
    #[serde(default)]
    pub mode: RankMode,
    /// Which kinds of memory may appear (default full_context: every kind).
    #[serde(default)]
    pub recall: RecallFilter,
    /// Search ARCHIVED memories too (default false: only when the others give too few good
    /// answers).
    #[serde(default)]
    pub include_archived: bool,
    /// Only these types (any when empty).
    #[serde(default)]
    pub types: Vec<MemoryType>,
    /// Drop hits whose relevance (`why.relevance`, 0 to 1, comparable across queries) is below this
    /// (default: the configuration's `recall.min_relevance`, 0.1; 0 with `entities`).
    pub min_score: Option<f64>,
    /// Only memories that name one of these entities of the owner's graph (names or aliases).
    #[serde(default)]
    pub entities: Vec<String>,
    /// Only these kinds (any the recall filter admits when empty): `["passage"]` searches
    /// documents only, `["fact"]` leaves them out.
    #[serde(default)]
    pub kinds: Vec<Kind>,
    /// Most passages of one document in the results, 1 to 1,000 (default 3): a long document
    /// does not fill the list by itself.
    pub per_document: Option<Limit>,
    /// Only memories said at or after this time (milliseconds since the Unix epoch; a memory is
    /// said at its `created_at`).
    pub after: Option<Millis>,
    /// Only memories said before this time (milliseconds since the Unix epoch); with `after`,
    /// later than it.
    pub before: Option<Millis>,
    /// What "now" is for this question (milliseconds since the Unix epoch): the time its words
    /// such as "yesterday", "last weekend" or "next Friday" are read against (default the
    /// engine's clock). Without `after` and `before`, a span the query names ranks first the
    /// memories said in it, those said outside it that name a time in it ("last month", said
    /// later; "next Friday", said before), and those due in it (`expires_at`).
    pub as_of: Option<Millis>,
}

impl SearchRequest {
    /// A search of `owner`'s memories for `query`, every option left to its default.
    pub fn new(owner: Owner, query: impl Into<String>) -> SearchRequest {
        SearchRequest {
            entity_id: owner,
            agent_id: None,
            team_aware: None,
            query: query.into(),
            vector: None,
            limit: None,
            mode: RankMode::default(),
            recall: RecallFilter::default(),
            include_archived: false,
            types: Vec::new(),
            min_score: None,
            entities: Vec::new(),
            kinds: Vec::new(),
            per_document: None,
            after: None,
            before: None,
            as_of: None,
        }
    }

    /// The time window the request keeps to.
    pub fn window(&self) -> Window {
        Window {
            after: self.after,
            before: self.before,
        }
    }
}

/// One search result and why it ranked there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SearchHit {
    /// The memory found.
    pub memory: Memory,
    /// Its composite score under the search's mode (higher ranks first).
    pub score: f64,
    /// How the score was made.
    pub why: ScoreBreakdown,
    /// For a passage of a document: which document, and where in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passage: Option<PassageOf>,
}

/// Recall (search) settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RecallConfig {
    /// Share of the vector relevance in a memory's own relevance (the rest is BM25).
    pub vector_weight: f64,
    /// Candidates taken from each of the vector scan and FTS5 before ranking.
    pub candidates: usize,
    /// A memory lends this share of its relevance to the memories written just before and
    /// after it in the same session, and 0.85 of it to the ones two places away (an answer
    /// rarely repeats the words of its question).
    pub context_weight: f64,
    /// How many of the most relevant candidates lend relevance to their neighbours.
    pub context_parents: usize,
    /// A memory lends this share × the link's strength of its relevance to the memories
    /// searches keep returning with it (co-recall links). Off (0) by default: LoCoMo dev
    /// recall is the same at every weight from 0 to 1, and where a few memories are linked
    /// to many, following the links costs a search milliseconds.
    pub link_weight: f64,
    /// Memories less relevant than this share of the best match are ranked only when fewer
    /// than `limit` are above it: relevance decides what qualifies, the mode's weights decide
    /// the order among comparably relevant memories.
    pub relevance_gate: f64,
    /// Hits less relevant than this are not answers and are left out, unless a search asks
    /// for another `min_score`.
    pub min_relevance: f64,
    /// An ordinary search looks through hot and warm memories, and through the archive tier
    /// too when fewer than `limit` of those are at least this relevant (a word asked about
    /// that only an archived memory says still finds it).
    pub archive_relevance: f64,
    /// A hit more similar than this to a hit already kept, and saying nothing it does not, is
    /// dropped (diversity).
    pub diversity_threshold: f64,
    /// Multiplier on the score of STALE memories.
    pub stale_penalty: f64,
    /// Entries in the LRU cache of recent search candidates.
    pub cache_entries: usize,
}

impl Default for RecallConfig {
    fn default() -> Self {
        // vector_weight, context_weight and relevance_gate were tuned on the LoCoMo dev split;
        // 50 candidates per source give the same LoCoMo recall as 100 at lower cost, and 10
        // lenders along conversations the same as 5 or 30 (LoCoMo, the timeline and meaning
        // sets) for a third of 30's neighbour lookups: what the tenth lends is already small.
        RecallConfig {
            vector_weight: 0.5,
            candidates: 50,
            context_weight: 0.7,
            context_parents: 10,
            link_weight: 0.0,
            relevance_gate: 0.8,
            min_relevance: MIN_RELEVANCE,
            archive_relevance: 0.3,
            diversity_threshold: 0.9,
            stale_penalty: 0.7,
            cache_entries: 500,
        }
    }
}

/// A hit on its way through ranking: its row, its score, and the key diversity compares by.
struct Ranked {
    pk: i64,
    memory: Memory,
    /// The composite score of a qualified hit; −∞ for the rest, which keep relevance order.
    order: f64,
    why: ScoreBreakdown,
}

/// Checks a search request's own fields (the owner is checked by the caller); returns its
/// limit.
pub(crate) fn check(req: &SearchRequest) -> Result<usize> {
    let limit = Limit::or(req.limit, DEFAULT_LIMIT);
    let n = req.query.chars().count();
    if n > MAX_QUERY_CHARS {
        return Err(Error::invalid(
            "query",
            format!("is {n} characters; at most {MAX_QUERY_CHARS} allowed"),
        ));
    }
    if req.query.trim().is_empty() && req.vector.is_none() {
        return Err(Error::invalid("query", "give a query text or a vector"));
    }
    if req.min_score.is_some_and(|s| !s.is_finite()) {
        return Err(Error::invalid("min_score", "must be a finite number"));
    }
    for (field, t) in [
        ("after", req.after),
        ("before", req.before),
        ("as_of", req.as_of),
    ] {
        if let Some(t) = t {
            check_time(field, t)?;
        }
    }
    if let (Some(after), Some(before)) = (req.after, req.before) {
        if after >= before {
            return Err(Error::invalid(
                "before",
                format!("{before} is not later than after ({after}): the window holds no time"),
            ));
        }
    }
    Ok(limit)
}

/// Runs a search. Every returned hit is recorded as an access of its memory.
pub(crate) fn search(
    view: &mut View,
    cache: &mut Cache,
    cfg: &RecallConfig,
    owner: &Owner,
    req: &SearchRequest,
) -> Result<Vec<SearchHit>> {
    let now = view.now()?;
    let mut search = Search::new(view, cfg, owner, req, now)?;
    if search.named.is_none() && req.window().is_open() {
        // An event the question places its answer against, when the rest of it names nothing
        // ("what did I do right after the Sintra trip?"): a question that names what it asks
        // about is matched by that, since memories said in one sitting share their time.
        let anchor = period::anchored(&req.query)
            .filter(|a| names_nothing(&period::without(&req.query, &a.words)));
        if let Some(anchor) = anchor {
            if let Some(named) = anchored(view, cache, &search, &anchor, now)? {
                search.text = named.without(&req.query);
                search.order = anchor.order().or_else(|| period::ordering(&search.text));
                search.only_time = true;
                search.named = Some(named);
            }
        }
    }
    let Some(named) = search.named.clone() else {
        let kept = search.ranked(view, cache)?;
        return search.record_hits(view, kept, now);
    };
    // The span the question names first; then, should it hold too few, the rest.
    let mut kept = search.within(named.window).ranked(view, cache)?;
    let short = |w: Window| {
        w.before
            .zip(w.after)
            .is_some_and(|(b, a)| b - a <= READ_WHOLE_MS)
    };
    if kept.is_empty() && short(named.window) {
        // Nothing of a day or a week answers in words: its few memories may, in others ("what
        // happened at work on 27 March?", "Demoed the new dashboard to the client").
        let whole = Search {
            only_time: true,
            ..search.within(named.window)
        };
        kept = whole.ranked(view, cache)?;
    }
    if kept.len() < search.limit {
        for r in search.ranked(view, cache)? {
            if kept.len() >= search.limit {
                break;
            }
            if !kept.iter().any(|k| k.pk == r.pk) {
                kept.push(r);
            }
        }
        // Each pass kept its own few passages of a document: together, no more than a pass.
        kept = crowd(view, kept, search.per_document)?;
    }
    search.record_hits(view, kept, now)
}

/// How a question asking for several things begins: its first word, or its first words.
const SEVERAL_FIRST: &[&str] = &["list", "which"];
/// Words of a question asking for several things, wherever they stand.
const SEVERAL_WORDS: &[&[&str]] = &[
    &["how", "many"],
    &["all", "the"],
    &["what", "have"],
    &["what", "are"],
    &["what", "kind"],
    &["what", "kinds"],
];

/// Whether a question asks for several things ("Which books have I read?", "How many times
/// did I run?", "What have I cooked?"): their answers are spread over what was said, each
/// sharing fewer of the question's words.
fn asks_for_several(query: &str) -> bool {
    let words = text::words(query);
    words
        .first()
        .is_some_and(|w| SEVERAL_FIRST.contains(&w.as_str()))
        || SEVERAL_WORDS
            .iter()
            .any(|phrase| words.windows(phrase.len()).any(|w| w == *phrase))
}

/// The share of the minimum relevance an answer needs when the question says more of where
/// its answers are than its words do: a memory said in the span it names (the span says it is
/// about then: "what physical transformation did Nate undergo in April 2022?" answered by
/// "dyed my hair last week", said that April), or any memory when it asks for several things
/// (each shares fewer of its words).
pub const RELAXED_RELEVANCE_SHARE: f64 = 0.5;

/// A candidate admitted, with its memory's fresh row and what they are multiplied by.
type Admitted = (Candidate, Memory, Weighed);

/// What an admitted memory's relevance (for the gate) and score are multiplied by, worked out
/// once when it is admitted.
#[derive(Debug, Clone, Copy)]
struct Weighed {
    /// Less for the codebase layer's file of tests when the query is not about tests.
    test_file: f64,
    /// More for a memory naming a time when the query asks when.
    when: f64,
    /// Less for another speaker's line when the query names a speaker.
    speaker: f64,
}

impl Weighed {
    fn product(self) -> f64 {
        self.test_file * self.when * self.speaker
    }
}

/// Candidates that may answer, in relevance order, not read yet.
type Waiting = std::iter::Peekable<std::vec::IntoIter<Candidate>>;

/// What the steps of one search share: the request, the settings, and what follows from them.
#[derive(Clone)]
struct Search<'a> {
    cfg: &'a RecallConfig,
    owner: &'a Owner,
    req: &'a SearchRequest,
    /// The query's vector.
    query: Vec<f32>,
    /// The query's words, lower case and sorted, as speakers' names are looked for among
    /// them.
    asked: Vec<String>,
    /// Results wanted.
    limit: usize,
    /// Candidates taken from each of the vector scan and the text index.
    k: usize,
    /// Only memories naming the entities asked for are searched.
    by_entity: bool,
    /// Relevance below which a candidate is not an answer: the caller's own minimum, else none
    /// for an entity search (an entity's memories may share no word with the query), else the
    /// configuration's.
    min_relevance: f64,
    /// Most passages of one document kept.
    per_document: usize,
    /// The span of time candidates are chosen from: the request's `after`/`before`, or (in a
    /// search's first pass) the span its query names.
    window: Window,
    /// The span the query names, when no window was given.
    named: Option<period::Named>,
    /// The days of the week the query keeps to inside that span ("on weekends in March").
    days: Option<period::Days>,
    /// The end of a run of events the query asks for ("the first", "the most recent"): the
    /// memories as relevant as the best are then ranked in that order of time.
    order: Option<period::Order>,
    /// The words the text index matches: the query without those naming its span.
    text: String,
    /// The query asks about tests or benchmarks: their files in the codebase layer rank as
    /// any other.
    tests_asked: bool,
    /// The query asks when, and names no span: memories naming a time rank higher.
    asks_when: bool,
    /// The query asks for several things: an answer needs less relevance.
    several: bool,
    /// The relations the query names ("my sister", "Ana's husband"), each with who the
    /// owner's graph says it is: their names are matched in their place.
    hops: Vec<Hop>,
    /// The question asks about nothing but its span ("what did I do last week?", "what did I
    /// do right after the Sintra trip?"): every memory said inside it answers, in order of
    /// time when it asks for one.
    only_time: bool,
}

/// What a question's words say: the span of time they name, the days kept to inside it, the
/// relations named and who they are, and the words left to match.
struct Words {
    named: Option<period::Named>,
    days: Option<period::Days>,
    /// The order of time it asks for ("the first"), its words taken out of `text`.
    order: Option<period::Order>,
    resolved: hop::Resolved,
    /// The query without the words naming its span, each relation followed read as who it is.
    text: String,
}

impl Words {
    fn of(view: &View, owner: &Owner, req: &SearchRequest, now: Millis) -> Result<Words> {
        let named = if req.window().is_open() {
            period::named(&req.query, req.as_of.unwrap_or(now))
        } else {
            None
        };
        let mut text = named
            .as_ref()
            .map_or_else(|| req.query.clone(), |n| n.without(&req.query));
        // The days of the week it keeps to inside its span ("on weekends in March").
        let days = named.is_some().then(|| period::days_named(&text)).flatten();
        if let Some(d) = &days {
            text = period::without(&text, &d.words);
        }
        // The order of time it asks for ("the first", "most recent") is read from its words,
        // not matched: "my first run" is not "ran with the club for the first time". (The
        // question is embedded as asked: its meaning keeps them.)
        let order = period::ordering_words(&text).map(|(order, at)| {
            text = period::without(&text, &at);
            order
        });
        // Who the relations it names are ("my sister": Ana) is matched in their place, and
        // embedded there when the engine embeds the question: "which city does Ana live in?"
        // is nearer "Ana lives in Lisbon" than "I live in Porto", as "my sister" is not.
        let resolved = hop::resolve(view, owner, &text)?;
        let text = resolved.in_place(&text);
        Ok(Words {
            named,
            days,
            order,
            resolved,
            text,
        })
    }

    /// The texts `query` is embedded as, in the order tried: with who the relations it names
    /// are in place, when it names any, then as asked.
    fn to_embed(&self, query: &str) -> Vec<String> {
        let in_place = self.resolved.in_place(query);
        match in_place == query {
            true => vec![in_place],
            false => vec![in_place, query.to_string()],
        }
    }
}

/// The texts a search embeds when no vector comes with it: the question with who the
/// relations it names are in their place ("which city does Ana live in?"), when it names any,
/// then the question itself. What a host that embeds ahead of the call (a page's embedding
/// model) embeds and hands over, as [`crate::document::texts`] for a document.
pub(crate) fn texts(view: &View, owner: &Owner, req: &SearchRequest) -> Result<Vec<String>> {
    check(req)?;
    if req.vector.is_some() {
        return Ok(Vec::new());
    }
    Ok(Words::of(view, owner, req, view.now()?)?.to_embed(&req.query))
}

impl<'a> Search<'a> {
    /// Checks the request and finds its query's vector.
    fn new(
        view: &View,
        cfg: &'a RecallConfig,
        owner: &'a Owner,
        req: &'a SearchRequest,
        now: Millis,
    ) -> Result<Self> {
        let limit = check(req)?;
        let by_entity = !req.entities.is_empty();
        let min_relevance = match req.min_score {
            Some(min) => min,
            None if by_entity => 0.0,
            None => cfg.min_relevance,
        };
        let words = Words::of(view, owner, req, now)?;
        let query = match &req.vector {
            Some(supplied) => view.vector_for(&req.query, Some(supplied))?,
            // Each reading in turn: a host embedder may fail on one (or, handing vectors
            // over ahead of the call, lack it) and still have the next.
            None => {
                let mut texts = words.to_embed(&req.query).into_iter();
                let first = texts.next().unwrap_or_default();
                texts.fold(view.vector_for(&first, None), |found, text| {
                    found.or_else(|_| view.vector_for(&text, None))
                })?
            }
        };
        let Words {
            named,
            days,
            order,
            resolved,
            text,
        } = words;
        let named_span = named.is_some();
        let hops = resolved.hops;
        Ok(Search {
            cfg,
            owner,
            req,
            query,
            asked: speaker::words(&req.query),
            limit,
            k: cfg.candidates.max(limit),
            by_entity,
            min_relevance,
            per_document: Limit::or(req.per_document, document::PER_DOCUMENT),
            window: req.window(),
            named,
            days,
            order,
            only_time: named_span && names_nothing(&text),
            tests_asked: crate::codebase::asks_about_tests(&req.query),
            asks_when: !named_span && period::asks_when(&req.query),
            several: asks_for_several(&req.query),
            hops,
            text,
        })
    }

    /// This search kept to `window`.
    fn within(&self, window: Window) -> Search<'a> {
        Search {
            window,
            ..self.clone()
        }
    }

    /// Whether this pass reads every memory of its span as an answer: a question about
    /// nothing but the span, kept to it.
    fn whole_span(&self) -> bool {
        self.only_time && !self.window.is_open()
    }

    /// 1–4: the memories that answer, ranked, before they are recorded as hits.
    fn ranked(&self, view: &mut View, cache: &mut Cache) -> Result<Vec<Ranked>> {
        let (candidates, speaking) = self.candidates(view, cache)?;
        let (admitted, rest) = self.admit_qualifying(view, candidates, speaking)?;
        let scoring = self.scoring(view, &admitted, speaking)?;
        let ranked = crowd(view, scoring.rank(admitted), self.per_document)?;
        scoring.keep_diverse(view, ranked, rest)
    }

    fn relevance(&self, c: &Candidate) -> f64 {
        c.relevance(self.cfg.vector_weight)
    }

    /// What memory `m`'s relevance (for the gate) and score are multiplied by; `speaking`:
    /// the query names the speaker of a candidate line.
    fn weighed(&self, m: &Memory, speaking: bool) -> Weighed {
        Weighed {
            speaker: if speaking && speaker::line_named(&m.content, &self.asked) == Some(false) {
                speaker::OTHERS_MULTIPLIER
            } else {
                1.0
            },
            test_file: if !self.tests_asked && crate::codebase::is_test_file(m) {
                rank::TEST_FILE_PENALTY
            } else {
                1.0
            },
            when: if self.asks_when && names_a_time(&m.content, m.created_at) {
                rank::WHEN_BOOST
            } else {
                1.0
            },
        }
    }

    /// The most any memory's relevance is multiplied by in this search.
    fn most_multiplied(&self) -> f64 {
        if self.asks_when {
            rank::WHEN_BOOST
        } else {
            1.0
        }
    }

    /// 1. The candidates — of hot and warm memories; of the archive tier too when asked, or
    ///    when those give fewer than `limit` answers of `archive_relevance` — with relevance
    ///    lent along co-recall links, and only (and every) memory naming the entities asked
    ///    for, when asked.
    fn candidates(&self, view: &mut View, cache: &mut Cache) -> Result<(Vec<Candidate>, bool)> {
        let reach = if self.req.include_archived {
            Reach::All
        } else {
            Reach::Warm
        };
        let mut found = self.fused(view, cache, reach)?;
        if reach == Reach::Warm
            && self.answers(&found.candidates) < self.limit
            && view.vectors(self.owner)?.has_cold()
        {
            found = self.fused(view, cache, Reach::Live)?;
        }
        let Found {
            mut candidates,
            speaking,
        } = found;
        if self.in_named_span() {
            let told = self.telling_of_span(view, cache, reach, &candidates)?;
            candidates.extend(told);
        }
        lend_along_links(view, self.cfg, self.owner, &mut candidates, &self.query)?;
        if self.by_entity {
            let names = &self.req.entities;
            candidates = naming(view, self.cfg, self.owner, names, candidates, &self.query)?;
        }
        Ok((candidates, speaking))
    }

    /// Whether this pass keeps to the span the query names (not to a window the caller gave).
    fn in_named_span(&self) -> bool {
        self.req.window().is_open() && !self.window.is_open()
    }

    /// Whether `at` is on the days of the week the query keeps to inside its span (any day
    /// when it names none).
    fn on_named_days(&self, at: Millis) -> bool {
        self.days.as_ref().is_none_or(|d| d.hold(at))
    }

    /// The query's candidates said outside this pass's span that tell of it — their words name
    /// a time inside it ("a convention last month", said in April, when March is asked about;
    /// "the dentist next Friday", said before it) — and the memories due inside it.
    fn telling_of_span(
        &self,
        view: &mut View,
        cache: &mut Cache,
        reach: Reach,
        have: &[Candidate],
    ) -> Result<Vec<Candidate>> {
        // The query's candidates in the whole store, and those said within a month after the
        // span, which the whole store's may not reach ("a castle during my trip to the UK last
        // Friday", of "the second week of November").
        let mut whole = self
            .within(Window::default())
            .fused(view, cache, reach)?
            .candidates;
        // And those said in the month before a span still to come: plans ("what do I have
        // next week?").
        let now = self.req.as_of.map_or_else(|| view.now(), Ok)?;
        let ahead = self
            .window
            .after
            .filter(|_| self.window.before.is_none_or(|b| b > now));
        let nearby = [
            self.window
                .before
                .map(|end| (end, end.saturating_add(TELLS_WITHIN_MS))),
            ahead.map(|start| (start.saturating_sub(TELLS_WITHIN_MS), start)),
        ];
        for (after, before) in nearby.into_iter().flatten() {
            let span = Window {
                after: Some(after),
                before: Some(before),
            };
            let seen: std::collections::BTreeSet<i64> = whole.iter().map(|c| c.pk).collect();
            let near = self.within(span).fused(view, cache, reach)?.candidates;
            whole.extend(near.into_iter().filter(|c| !seen.contains(&c.pk)));
        }
        let mut found: std::collections::BTreeSet<i64> = have.iter().map(|c| c.pk).collect();
        // What is due inside the span, whatever its words say.
        let due = memories::due_within(view.conn(), self.owner, self.window, self.k)?;
        let set = view.vectors(self.owner)?;
        let mut told: Vec<Candidate> = due
            .into_iter()
            .filter(|pk| found.insert(*pk))
            .map(|pk| Candidate::near(pk, set.similarity(pk, &self.query).unwrap_or(0.0)))
            .collect();
        // Said outside the span, not found already.
        let later: Vec<(Candidate, Millis)> = whole
            .into_iter()
            .filter(|c| !found.contains(&c.pk))
            .filter_map(|c| set.said(c.pk).map(|t| (c, t)))
            .filter(|(_, t)| !self.window.contains(*t))
            .collect();
        let pks: Vec<i64> = later.iter().map(|(c, _)| c.pk).collect();
        let contents = memories::contents(view.conn(), &pks)?;
        told.extend(
            later
                .into_iter()
                .filter(|(c, said)| {
                    contents
                        .get(&c.pk)
                        .is_some_and(|text| tells_of(self.window, text, *said))
                })
                .map(|(c, _)| c),
        );
        Ok(told)
    }

    /// How many of `candidates` are good answers: at least `archive_relevance` relevant (or
    /// the minimum asked for, when higher).
    fn answers(&self, candidates: &[Candidate]) -> usize {
        let good = self.min_relevance.max(self.cfg.archive_relevance);
        candidates
            .iter()
            .filter(|c| self.relevance(c) >= good)
            .count()
    }

    /// The candidates of the query within `reach`: cached, else the owner's `k` nearest
    /// vectors and `k` best text matches fused, with relevance lent by session neighbours.
    fn fused(&self, view: &mut View, cache: &mut Cache, reach: Reach) -> Result<Found> {
        let (cfg, owner, query, k) = (self.cfg, self.owner, &self.query[..], self.k);
        let window = self.window;
        // Relevance is lent only by what the caller may see (another agent's private match
        // would show in its neighbours' relevance), so what is cached is the caller's.
        let viewer = view.viewer().fingerprint();
        let key = candidates::cache_key(owner, &viewer, &self.text, query, reach, k, window);
        let generation = view.generation(owner);
        if let Some(found) = cache.get(&key, generation) {
            return Ok(found);
        }
        let text_hits = self.text_matches(view, reach)?;
        let conn = view.conn();
        let set = view.vectors(owner)?;
        // Cosines as search weighs them: a vector stored coarser counts for less.
        let cosine = |pk| set.similarity(pk, query);
        let nearest: Vec<(i64, f32)> = match reach {
            _ if !window.is_open() => set.nearest_within(query, k, reach == Reach::Warm, window),
            Reach::Warm => set.nearest_warm(query, k),
            Reach::Live | Reach::All => set.nearest(query, k),
        }
        .into_iter()
        .map(|(pk, c)| (pk, set.weigh(pk, c)))
        .collect();
        let mut c = candidates::fuse(&nearest, &text_hits, cosine);
        if !viewer.is_empty() {
            let pks: Vec<i64> = c.iter().map(|c| c.pk).collect();
            let seen = memories::visible(conn, owner, &pks)?;
            c.retain(|c| seen.contains(&c.pk));
        }
        // Named by a line the caller may see (another agent's private one says nothing).
        let speaking = text_hits
            .iter()
            .any(|h| h.named_speaker && c.iter().any(|c| c.pk == h.pk));
        candidates::lend_context(
            &mut c,
            cfg.vector_weight,
            cfg.context_weight,
            cfg.context_parents,
            |pks| {
                Ok(
                    memories::session_neighbours(conn, owner, pks, candidates::CONVERSATION_REACH)?
                        .into_iter()
                        .map(|(a, b, places)| (a, b, candidates::conversation_share(places)))
                        .collect(),
                )
            },
            cosine,
        )?;
        let found = Found {
            candidates: c,
            speaking,
        };
        cache.put(key, generation, found.clone());
        Ok(found)
    }

    /// The `k` best text matches of the query within `reach`.
    fn text_matches(&self, view: &View, reach: Reach) -> Result<Vec<candidates::TextHit>> {
        let terms = text::query_terms(&self.text);
        let text_hits =
            memories::text_search(view.conn(), self.owner, &terms, reach, self.k, self.window)?;
        let asked = text::Asked::new(&terms);
        let pks: Vec<i64> = text_hits.iter().map(|h| h.0).collect();
        let contents = memories::contents(view.conn(), &pks)?;
        Ok(text_hits
            .into_iter()
            .map(|(pk, bm25)| {
                let content = contents.get(&pk);
                candidates::TextHit {
                    pk,
                    bm25,
                    coverage: content.map_or(0.0, |c| text::coverage(&asked, c)),
                    named_speaker: content
                        .is_some_and(|c| speaker::line_named(c, &self.asked) == Some(true)),
                }
            })
            .collect())
    }

    /// 2. Admission, on fresh rows with the accesses not yet written applied. Rows are read in
    ///    relevance order and only as far as the answer reaches: every memory that qualifies
    ///    (3.); the rest wait, should diversity (4.) leave the answer short.
    fn admit_qualifying(
        &self,
        view: &View,
        mut candidates: Vec<Candidate>,
        speaking: bool,
    ) -> Result<(Vec<Admitted>, Waiting)> {
        candidates::by_relevance(&mut candidates, self.cfg.vector_weight);
        let answering: Vec<Candidate> = candidates
            .into_iter()
            .filter(|c| self.may_answer(c))
            .collect();
        let mut rest = answering.into_iter().peekable();
        let mut admitted: Vec<Admitted> = Vec::new();
        // The best relevance admitted, weighed as it will be scored.
        let mut best = 0.0_f64;
        // Admitted, other speakers' lines aside when the query names a speaker: those follow
        // the named speaker's, who may be further down.
        let mut counted = 0;
        while let Some(c) = rest.next_if(|c| self.reads_on(counted, best, c)) {
            if let Some(a) = self.admit(view, c, speaking)? {
                best = best.max(self.relevance(&a.0) * a.2.product());
                counted += usize::from(a.2.speaker == 1.0);
                admitted.push(a);
            }
        }
        Ok((admitted, rest))
    }

    /// Whether a candidate is relevant enough to be an answer at all.
    fn may_answer(&self, c: &Candidate) -> bool {
        if self.whole_span() {
            return true;
        }
        let relevance = self.relevance(c);
        (self.by_entity || relevance > 0.0) && relevance >= self.floor()
    }

    /// The relevance an answer needs: the search's minimum, of which a memory of the span the
    /// question names, or any memory when the question asks for several things, needs only
    /// [`RELAXED_RELEVANCE_SHARE`] unless the caller set it.
    fn floor(&self) -> f64 {
        if (self.in_named_span() || self.several) && self.req.min_score.is_none() {
            self.min_relevance * RELAXED_RELEVANCE_SHARE
        } else {
            self.min_relevance
        }
    }

    /// Whether admission reads on to candidate `c`, `admitted` memories in: while the answer
    /// is short, and for every candidate that could come within the relevance gate of the
    /// `best` admitted (weighed by the most any memory is multiplied by).
    fn reads_on(&self, admitted: usize, best: f64, c: &Candidate) -> bool {
        self.whole_span()
            || admitted < self.limit
            || self.relevance(c) * self.most_multiplied() >= self.cfg.relevance_gate * best
    }

    /// Candidate `c` with its memory's fresh row (the accesses not yet written applied), if
    /// the memory may appear in this search's results.
    fn admit(&self, view: &View, c: Candidate, speaking: bool) -> Result<Option<Admitted>> {
        let Some(mut m) = memories::by_pk(view.conn(), self.owner, c.pk)? else {
            return Ok(None);
        };
        if let Some(p) = view.pending(c.pk) {
            decay::access(&mut m, p.count, p.at);
        }
        let said_inside = self.window.contains(m.created_at)
            && (!self.in_named_span() || self.on_named_days(m.created_at));
        let inside = said_inside
            || (self.in_named_span()
                && (tells_of(self.window, &m.content, m.created_at) || due_in(self.window, &m)));
        if !(inside && rank::admits(self.req, &m) && view.viewer().sees(&m)) {
            return Ok(None);
        }
        let weighed = self.weighed(&m, speaking);
        Ok(Some((c, m, weighed)))
    }

    /// 3. How the admitted are scored: against the best relevance admitted, at the call's time.
    fn scoring<'s>(
        &'s self,
        view: &View<'s>,
        admitted: &[Admitted],
        speaking: bool,
    ) -> Result<Scoring<'s>> {
        Ok(Scoring {
            search: self,
            best: admitted.first().map_or(0.0, |(c, _, _)| self.relevance(c)),
            now: view.now()?,
            retention: view.retention(),
            speaking,
        })
    }

    /// 5. The hits are accesses, the top ones co-recalled, and they say which words of the
    ///    query they said.
    fn record_hits(
        &self,
        view: &mut View,
        kept: Vec<Ranked>,
        now: Millis,
    ) -> Result<Vec<SearchHit>> {
        let terms = text::query_terms(&self.text);
        let pks: Vec<i64> = kept.iter().map(|r| r.pk).collect();
        view.record_co_recall(&pks)?;
        let mut hits = Vec::with_capacity(kept.len());
        // Only passages have a place in a document to look up.
        let passage_pks: Vec<i64> = kept
            .iter()
            .filter(|r| r.memory.kind == Kind::Passage)
            .map(|r| r.pk)
            .collect();
        let passages = document::passages_of(view, &passage_pks)?;
        for Ranked {
            pk,
            mut memory,
            mut why,
            ..
        } in kept
        {
            why.matched = text::matched(&terms, &memory.content);
            // Found by the name of who a relation the query named is: it says every word of it.
            why.hop = self
                .hops
                .iter()
                .find(|h| {
                    let name = text::query_terms(&h.entity);
                    !name.is_empty() && name.iter().all(|t| why.matched.contains(t))
                })
                .cloned();
            why.period = self.named.as_ref().map(|n| {
                let inside =
                    n.window.contains(memory.created_at) && self.on_named_days(memory.created_at);
                rank::PeriodMatch {
                    after: n.window.after,
                    before: n.window.before,
                    inside,
                    tells: !inside
                        && (tells_of(n.window, &memory.content, memory.created_at)
                            || due_in(n.window, &memory)),
                }
            });
            decay::access(&mut memory, 1, now);
            view.refresh(pk, &mut memory)?;
            view.record_access(self.owner, pk)?;
            let passage = passages
                .iter()
                .find(|(p, _)| *p == pk)
                .map(|(_, r)| r.of.clone());
            hits.push(SearchHit {
                memory,
                score: why.score(),
                why,
                passage,
            });
        }
        Ok(hits)
    }
}

/// How a search scores its admitted memories.
struct Scoring<'a> {
    search: &'a Search<'a>,
    /// The best relevance admitted.
    best: f64,
    now: Millis,
    retention: &'a RetentionConfig,
    /// The query names the speaker of a candidate line.
    speaking: bool,
}

impl Scoring<'_> {
    /// 3. The gate decides which qualify, the mode's score orders them; the rest follow in
    ///    relevance order.
    fn rank(&self, admitted: Vec<Admitted>) -> Vec<Ranked> {
        let s = self.search;
        // In relevance order, each weighed as it will be scored (so that the gate passes the
        // code a test file tests too, and a memory naming a time a when-question asks).
        let mut admitted: Vec<(f64, Admitted)> = admitted
            .into_iter()
            .map(|a| (s.relevance(&a.0) * a.2.product(), a))
            .collect();
        crate::order::sort_by(&mut admitted, |a, b| b.0.total_cmp(&a.0));
        let (relevances, admitted): (Vec<f64>, Vec<Admitted>) = admitted.into_iter().unzip();
        let qualified = rank::qualifying(&relevances, s.cfg.relevance_gate, s.limit);
        let mut ranked: Vec<Ranked> = admitted
            .into_iter()
            .enumerate()
            .map(|(i, hit)| self.score(hit, i < qualified))
            .collect();
        // Qualified first by score (ties by id); the rest keep their relevance order.
        crate::order::sort_by(&mut ranked, |a, b| {
            b.order.total_cmp(&a.order).then_with(|| {
                if a.order.is_finite() {
                    a.memory.id.cmp(&b.memory.id)
                } else {
                    std::cmp::Ordering::Equal
                }
            })
        });
        match s.order {
            // A question about nothing but its span: all of it in that order of time.
            Some(order) if s.whole_span() => in_time_order(ranked, 0.0, usize::MAX, order),
            Some(order) => in_time_order(ranked, s.cfg.relevance_gate * self.best, s.limit, order),
            None => ranked,
        }
    }

    /// An admitted memory scored; ordered by that score when it qualifies.
    fn score(&self, (c, memory, weighed): Admitted, qualifies: bool) -> Ranked {
        let s = self.search;
        let mut why = rank::score(
            &c,
            &memory,
            self.best,
            s.req.mode,
            self.now,
            s.cfg,
            self.retention,
        );
        why.test_file_multiplier = weighed.test_file;
        why.when_multiplier = weighed.when;
        why.speaker_multiplier = weighed.speaker;
        Ranked {
            pk: c.pk,
            order: if qualifies {
                why.score()
            } else {
                f64::NEG_INFINITY
            },
            memory,
            why,
        }
    }

    /// 4. Diversity; should it leave the answer short (repeats dropped, statements of one
    ///    message waiting behind other messages'), the memories not read yet follow, `limit`
    ///    at a time, in relevance order (a pass over the kept ones again drops nothing more).
    fn keep_diverse(
        &self,
        view: &mut View,
        ranked: Vec<Ranked>,
        mut rest: Waiting,
    ) -> Result<Vec<Ranked>> {
        let s = self.search;
        let Diverse {
            mut kept,
            mut waiting,
        } = diversify(view, s.cfg, s.owner, ranked, s.limit)?;
        // Read on, `limit` at a time, while the answer is short of hits that do not wait.
        while kept.len() < s.limit && rest.peek().is_some() {
            for c in rest.by_ref().take(s.limit) {
                if let Some(hit) = s.admit(view, c, self.speaking)? {
                    kept.push(self.score(hit, false));
                }
            }
            let crowded = crowd(view, kept, s.per_document)?;
            let again = diversify(view, s.cfg, s.owner, crowded, s.limit)?;
            kept = again.kept;
            // Those that gave way first wait behind everything read after them.
            waiting.extend(again.waiting);
        }
        filled(view, s.cfg, s.owner, Diverse { kept, waiting }, s.limit)
    }
}

/// `ranked` with those of its first `limit` at least `close` relevant (the gate below the
/// best) ahead of the rest, in the order of time asked for ("the first": earliest said
/// first), each keeping its score. The first `limit` stay the same memories: only their order
/// changes.
fn in_time_order(
    mut ranked: Vec<Ranked>,
    close: f64,
    limit: usize,
    order: period::Order,
) -> Vec<Ranked> {
    let later = ranked.split_off(limit.min(ranked.len()));
    let (mut first, rest): (Vec<Ranked>, Vec<Ranked>) =
        ranked.into_iter().partition(|r| r.why.relevance >= close);
    for r in &mut first {
        r.why.order = Some(order);
    }
    crate::order::sort_by(&mut first, |a, b| {
        let by_time = a.memory.created_at.cmp(&b.memory.created_at);
        match order {
            period::Order::Earliest => by_time,
            period::Order::Latest => by_time.reverse(),
        }
        .then_with(|| a.memory.id.cmp(&b.memory.id))
    });
    first.extend(rest);
    first.extend(later);
    first
}

/// `ranked` without the passages of a document beyond its first `per_document`.
fn crowd(view: &View, ranked: Vec<Ranked>, per_document: usize) -> Result<Vec<Ranked>> {
    let passages: Vec<i64> = ranked
        .iter()
        .filter(|r| r.memory.kind == Kind::Passage)
        .map(|r| r.pk)
        .collect();
    if passages.len() <= per_document {
        return Ok(ranked);
    }
    let of = document::passages_of(view, &passages)?;
    let mut seen: std::collections::HashMap<i64, usize> = Default::default();
    Ok(ranked
        .into_iter()
        .filter(|r| match of.iter().find(|(pk, _)| *pk == r.pk) {
            Some((_, row)) => {
                let n = seen.entry(row.document_pk).or_default();
                *n += 1;
                *n <= per_document
            }
            None => true,
        })
        .collect())
}

/// The first `limit` of `ranked` that do not repeat one kept before them, nor were said with
/// one (`said_together`: those wait). A repeat is nearly identical in meaning and says nothing
/// the kept hit does not (an embedder of meaning puts "dentist on Tuesday" and "dentist on
/// Thursday" close too).
fn diversify(
    view: &mut View,
    cfg: &RecallConfig,
    owner: &Owner,
    ranked: Vec<Ranked>,
    limit: usize,
) -> Result<Diverse<Ranked>> {
    let set = view.vectors(owner)?;
    Ok(diversity::diversify(
        ranked,
        limit,
        repeats(set, cfg),
        |a, b| said_together(&a.memory, &b.memory),
    ))
}

/// The kept hits, then as many of those waiting as there is room for.
fn filled(
    view: &mut View,
    cfg: &RecallConfig,
    owner: &Owner,
    diverse: Diverse<Ranked>,
    limit: usize,
) -> Result<Vec<Ranked>> {
    let Diverse { kept, mut waiting } = diverse;
    for hit in &mut waiting {
        let with = kept.iter().find(|k| said_together(&k.memory, &hit.memory));
        hit.why.gave_way_to = with.map(|k| k.memory.id.clone());
    }
    let set = view.vectors(owner)?;
    Ok(Diverse { kept, waiting }.filled(limit, repeats(set, cfg)))
}

/// Whether hit `b` repeats `a`: nearly identical in meaning, and adding no information.
fn repeats<'a>(
    set: &'a OwnerVectors,
    cfg: &'a RecallConfig,
) -> impl Fn(&Ranked, &Ranked) -> bool + 'a {
    move |a, b| {
        let close = match (set.get(a.pk), set.get(b.pk)) {
            (Some(x), Some(y)) => embed::dot(x, y) as f64 > cfg.diversity_threshold,
            _ => false,
        };
        close && !dedup::adds_information(&b.memory.content, &a.memory.content)
    }
}

/// Whether two memories are statements `remember` took from one message: told in
/// conversation under the same `source_ref` (a message's id) at the same moment. After the
/// first of them, the others give way to hits from other messages, so that one message does
/// not fill the answer; they follow if there is room.
fn said_together(a: &Memory, b: &Memory) -> bool {
    a.message().is_some_and(|m| b.message() == Some(m))
}

/// Co-recall links lend relevance like a conversation does: each of the most relevant
/// candidates lends `link_weight` × the link's strength × its relevance to the memories it is
/// linked to. Not cached: links grow without moving the owner's generation.
fn lend_along_links(
    view: &mut View,
    cfg: &RecallConfig,
    owner: &Owner,
    candidates: &mut Vec<Candidate>,
    query: &[f32],
) -> Result<()> {
    if cfg.link_weight <= 0.0 {
        return Ok(());
    }
    let now = view.now()?;
    let conn = view.conn();
    let set = view.vectors(owner)?;
    candidates::lend_context(
        candidates,
        cfg.vector_weight,
        cfg.link_weight,
        cfg.context_parents,
        |pks| links::formed(conn, pks, now),
        |pk| set.similarity(pk, query),
    )
}

/// Only the candidates naming one of `names` (entities of the owner's graph, by name or
/// alias), plus every memory naming them that was not a candidate: a memory about Ana may
/// share no word with the query.
fn naming(
    view: &mut View,
    cfg: &RecallConfig,
    owner: &Owner,
    names: &[String],
    candidates: Vec<Candidate>,
    query: &[f32],
) -> Result<Vec<Candidate>> {
    let mut pks = Vec::new();
    for name in names {
        let k = graph::name_key(name)
            .ok_or_else(|| Error::invalid("entities", "give entity names or aliases"))?;
        if let Some(e) = graph::by_key(view.conn(), owner, &k)? {
            pks.push(e.pk);
        }
    }
    let linked = graph::memories_naming(view.conn(), &pks)?;
    let set = view.vectors(owner)?;
    let mut kept: Vec<Candidate> = candidates
        .into_iter()
        .filter(|c| linked.binary_search(&c.pk).is_ok())
        .collect();
    for pk in linked.iter().take(MAX_LIMIT) {
        if !kept.iter().any(|c| c.pk == *pk) {
            let cosine = set.similarity(*pk, query).unwrap_or(0.0);
            kept.push(Candidate::near(*pk, cosine));
        }
    }
    candidates::by_relevance(&mut kept, cfg.vector_weight);
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_asking_for_several_things_are_told_by_their_words() {
        for q in [
            "Which books have I read?",
            "List the books I started.",
            "How many times did I go running?",
            "What are all the places I visited?",
            "What have I cooked or baked?",
            "What kinds of music does Tim like?",
        ] {
            assert!(asks_for_several(q), "{q}");
        }
        for q in [
            "What book am I reading?",
            "When did I go running?",
            "Where does my sister live?",
            "Witches and wizards",
            "",
        ] {
            assert!(!asks_for_several(q), "{q}");
        }
    }
}
