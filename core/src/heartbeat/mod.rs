//! The heartbeat: whether the agent should speak up now, decided from stored rows and stored
//! vectors only — no LLM and no embedding call per check.
//!
//! `scan` finds the 14 signals, `signals` keys, quotes and tiers them, `decide` runs the
//! should_act steps over them, `check` ties one check together, `policy` holds
//! the autonomy levels, cooldowns and nudges, `period` the owner's time of day, and `tick`
//! when to look again. An act is recorded (fingerprint, surfaced memories and entities, a
//! snapshot for positive deltas); `record_message` tells the heartbeat when the owner talks.

mod check;
mod decide;
mod period;
mod policy;
mod scan;
mod signals;
mod sql;
mod tick;

use serde::{Deserialize, Serialize};

pub(crate) use check::{check, record, Checked};
pub use decide::FIRST_CONTACT_MEMORIES;
pub use period::{QuietHours, TimePeriod};
pub use policy::{response_factor, Autonomy};
pub(crate) use sql::prune_store;
pub use tick::TickConfig;

use crate::clock::{Millis, DAY_MS, MINUTE_MS};
use crate::conflict::Conflict;
use crate::error::{Error, Result};
use crate::field::{Content, Id, Limit, Owner, Unit};
use crate::graph::EntityType;
use crate::model::{string_enum, Memory};
use crate::recall::SearchHit;
use crate::schedule::Schedule;
use crate::store::{Tx, View};
use crate::text;

string_enum! {
    /// How urgent a signal is, least to most.
    Urgency, "urgency tier" {
        /// Can wait.
        Low = "low",
        /// Worth mentioning.
        Normal = "normal",
        /// Should be mentioned soon.
        Elevated = "elevated",
        /// Needs attention now (surfaces even in quiet hours).
        Immediate = "immediate",
    }
}

impl Urgency {
    /// One tier up, at most `cap`.
    fn up(self, cap: Urgency) -> Urgency {
        let next = match self {
            Urgency::Low => Urgency::Normal,
            Urgency::Normal => Urgency::Elevated,
            t => t,
        };
        if self >= cap {
            self
        } else {
            next.min(cap)
        }
    }

    /// One tier down.
    fn down(self) -> Urgency {
        match self {
            Urgency::Immediate => Urgency::Elevated,
            Urgency::Elevated => Urgency::Normal,
            _ => Urgency::Low,
        }
    }
}

string_enum! {
    /// The 14 signals of the scan.
    SignalKind, "signal" {
        /// Schedules due now.
        Scheduled = "scheduled",
        /// Deadlines within the window.
        Deadlines = "deadlines",
        /// Open conflicts.
        Conflicts = "conflicts",
        /// An interrupted session to resume.
        Continuity = "continuity",
        /// Monitors not touched within their cadence.
        StaleMonitors = "stale_monitors",
        /// Many memories written since the last act.
        MemoryVelocity = "memory_velocity",
        /// Open plans and activities.
        PendingWork = "pending_work",
        /// Plans stalling or at risk.
        GoalProgress = "goal_progress",
        /// Questions left unanswered.
        KnowledgeGaps = "knowledge_gaps",
        /// Good news since the last act.
        PositiveDeltas = "positive_deltas",
        /// Important memories fading.
        Decaying = "decaying",
        /// A change in the owner's mood.
        Sentiment = "sentiment",
        /// People and organisations gone silent.
        Relationships = "relationships",
        /// Topics that recur on a weekday.
        Patterns = "patterns",
    }
}

impl SignalKind {
    /// The signal's own tier, before freshness and tags move it.
    pub fn tier(self) -> Urgency {
        use SignalKind::*;
        match self {
            Scheduled | Deadlines => Urgency::Immediate,
            Conflicts | Continuity | StaleMonitors | MemoryVelocity => Urgency::Elevated,
            PendingWork | GoalProgress | KnowledgeGaps | PositiveDeltas => Urgency::Normal,
            Decaying | Sentiment | Relationships | Patterns => Urgency::Low,
        }
    }
}

string_enum! {
    /// Which step of should_act decided, and how.
    DecisionReason, "decision reason" {
        /// Fewer than 5 memories and the agent never spoke: say hello.
        FirstContact = "first_contact",
        /// A deadline within the hour (whatever the time of day).
        ActDeadlineCritical = "act_deadline_critical",
        /// Nothing urgent enough for this time of day.
        SuppressTimePeriod = "suppress_time_period",
        /// The owner is talking; nothing worth interrupting for.
        SuppressConversationLow = "suppress_conversation_low",
        /// Nothing to say.
        NoSignals = "no_signals",
        /// Schedules or deadlines due.
        ActImmediate = "act_immediate",
        /// The same signals were surfaced recently.
        SuppressStale = "suppress_stale",
        /// Weak signals that do not add up to the autonomy level's threshold.
        SuppressConfluence = "suppress_confluence",
        /// Weak signals that add up.
        ActConfluence = "act_confluence",
        /// The agent spoke too recently.
        SuppressCooldown = "suppress_cooldown",
        /// The same entities were raised recently, or often without an answer.
        SuppressTopicRepeat = "suppress_topic_repeat",
        /// Elevated signals.
        Act = "act",
        /// A check-in after silence.
        Nudge = "nudge",
        /// Today's nudges are used up.
        SuppressNudgeCap = "suppress_nudge_cap",
        /// The last nudge was too recent.
        SuppressNudgeBackoff = "suppress_nudge_backoff",
    }
}

string_enum! {
    /// Who wrote a recorded message.
    MessageRole, "role" {
        /// The owner.
        User = "user",
        /// The agent.
        Agent = "agent",
    }
}

string_enum! {
    /// How a goal (a PLAN) is going, worst first.
    GoalStatus, "goal status" {
        /// No activity works towards it.
        NoActivity = "no_activity",
        /// Activity stopped.
        Stalled = "stalled",
        /// Its deadline is near for the progress made.
        AtRisk = "at_risk",
        /// Going well.
        OnTrack = "on_track",
    }
}

string_enum! {
    /// Direction of the owner's recent sentiment.
    Trend, "trend" {
        /// Worse than before.
        Declining = "declining",
        /// About the same.
        Stable = "stable",
        /// Better than before.
        Improving = "improving",
    }
}

string_enum! {
    /// How pressing a silent entity is: urgent when a plan naming it is due within 14 days.
    AlertLevel, "alert level" {
        /// Silent for a while.
        Attention = "attention",
        /// Silent, and a plan naming it is due within 14 days.
        Urgent = "urgent",
    }
}

string_enum! {
    /// What got better since the last act.
    DeltaKind, "delta" {
        /// A plan moved forward.
        GoalImproved = "goal_improved",
        /// Someone silent came back.
        EntityReengaged = "entity_reengaged",
        /// The owner's mood improved.
        SentimentImproved = "sentiment_improved",
    }
}

/// Arguments of `heartbeat_check` and `heartbeat_context`; unset options take the engine's
/// `heartbeat` configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeartbeatRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// A team of the owner: the check sees that team's `team` memories and `global` ones (with
    /// `agent_id`, the agent's own too), as Keyoku's team heartbeat does (default none).
    pub team_id: Option<Id>,
    /// How freely the agent may speak up (default: the configuration's, `suggest`).
    pub autonomy: Option<Autonomy>,
    /// Whether the owner is in a conversation now; by default, a message under 15 min old.
    pub in_conversation: Option<bool>,
    /// The owner's offset from UTC in minutes, -840 to 840 (default: the configuration's, 0).
    #[schemars(range(min = -period::MAX_UTC_OFFSET_MINUTES, max = period::MAX_UTC_OFFSET_MINUTES))]
    pub utc_offset_minutes: Option<i32>,
    /// The owner's quiet hours, local time (default: the configuration's, 23 to 7, enabled).
    pub quiet_hours: Option<QuietHours>,
    /// How far ahead deadlines count, as a duration such as "24h" or "3d": more than 0 and at most
    /// 366 days (default: the configuration's, 24 hours).
    pub deadline_window: Option<String>,
    /// Most items per signal, 1 to 100 (default 20).
    #[schemars(range(min = 1, max = MAX_RESULTS))]
    pub max_results: Option<usize>,
    /// Decide but record nothing (no act, no schedule marked surfaced).
    #[serde(default)]
    pub dry_run: bool,
    /// Decide as of this time instead of the host's clock, in milliseconds since the Unix epoch
    /// from 1973 to 9999: memories written later are not seen, and an act is recorded at this
    /// time (Keyoku's `virtual_now`; to replay or simulate a day, with `dry_run` to record
    /// nothing) (default now).
    #[schemars(range(min = crate::clock::MIN_PLAUSIBLE_MS, max = crate::clock::MAX_MILLIS))]
    pub as_of: Option<Millis>,
    /// `heartbeat_context` only: also search memories for this text, at most 10,000 characters
    /// (default none).
    #[schemars(length(max = crate::recall::MAX_QUERY_CHARS))]
    pub query: Option<String>,
    /// `heartbeat_context` only: how many memories the query returns, 1 to 1,000 (default 5).
    pub top_k: Option<Limit>,
}

impl HeartbeatRequest {
    /// A check for `owner` with every option taken from the configuration.
    pub fn new(owner: Owner) -> HeartbeatRequest {
        HeartbeatRequest {
            entity_id: owner,
            agent_id: None,
            team_id: None,
            autonomy: None,
            in_conversation: None,
            utc_offset_minutes: None,
            quiet_hours: None,
            deadline_window: None,
            max_results: None,
            dry_run: false,
            as_of: None,
            query: None,
            top_k: None,
        }
    }
}

/// Heartbeat settings (`Config.heartbeat`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HeartbeatConfig {
    /// How freely the agent may speak up (default suggest).
    pub autonomy: Autonomy,
    /// The owner's offset from UTC in minutes, -840 to 840 (default 0).
    pub utc_offset_minutes: i32,
    /// The owner's quiet hours, local time (default 23 to 7).
    pub quiet_hours: QuietHours,
    /// Deadlines this many hours ahead are signalled (24).
    pub deadline_window_hours: f64,
    /// Pending work below this importance is left out (0.4).
    pub importance_floor: f64,
    /// Monitors not touched for this many hours are stale (24).
    pub monitor_cadence_hours: f64,
    /// When to check again.
    pub tick: TickConfig,
    /// Recorded messages and acts are kept this many days, then dropped as new ones are
    /// recorded: 7 (what the heartbeat looks back) to 3,650 (30).
    pub keep_days: u32,
}

impl Default for HeartbeatConfig {
    fn default() -> Self {
        HeartbeatConfig {
            autonomy: Autonomy::Suggest,
            utc_offset_minutes: 0,
            quiet_hours: QuietHours::default(),
            deadline_window_hours: 24.0,
            importance_floor: 0.4,
            monitor_cadence_hours: 24.0,
            tick: TickConfig::default(),
            keep_days: DEFAULT_KEEP_DAYS,
        }
    }
}

impl HeartbeatConfig {
    /// How long acts and messages are kept.
    pub(crate) fn keep_ms(&self) -> Millis {
        Millis::from(self.keep_days) * DAY_MS
    }

    /// Checks ranges.
    pub fn validate(&self) -> Result<()> {
        period::check_offset(
            "config.heartbeat.utc_offset_minutes",
            self.utc_offset_minutes,
        )?;
        self.quiet_hours.validate("config.heartbeat.quiet_hours")?;
        Unit::parse("config.heartbeat.importance_floor", self.importance_floor)?;
        for (name, v) in [
            ("deadline_window_hours", self.deadline_window_hours),
            ("monitor_cadence_hours", self.monitor_cadence_hours),
        ] {
            if !(v.is_finite() && v > 0.0 && v <= MAX_WINDOW_HOURS) {
                return Err(Error::invalid(
                    format!("config.heartbeat.{name}"),
                    format!("{v} is not between 0 and {MAX_WINDOW_HOURS} hours"),
                ));
            }
        }
        if !(MIN_KEEP_DAYS..=MAX_KEEP_DAYS).contains(&self.keep_days) {
            return Err(Error::invalid(
                "config.heartbeat.keep_days",
                format!(
                    "{} is not from {MIN_KEEP_DAYS} (what the heartbeat looks back) to {MAX_KEEP_DAYS} days",
                    self.keep_days
                ),
            ));
        }
        let t = &self.tick;
        if !(t.min_ms > 0 && t.min_ms <= t.base_ms && t.base_ms <= t.max_ms) {
            return Err(Error::invalid(
                "config.heartbeat.tick",
                "need 0 < min_ms ≤ base_ms ≤ max_ms",
            ));
        }
        Ok(())
    }
}

/// Longest deadline window or monitor cadence (a year).
const MAX_WINDOW_HOURS: f64 = 24.0 * 366.0;
/// Most items per signal list.
const MAX_RESULTS: usize = 100;
const DEFAULT_RESULTS: usize = 20;
/// The heartbeat looks back this far for acts, answers and messages.
const LOOKBACK_MS: Millis = 7 * DAY_MS;
/// A user message this soon after an act answers it.
const RESPONSE_WINDOW_MS: Millis = 120 * MINUTE_MS;
/// Fewer acts than this in the lookback: the response rate counts as 1.
const MIN_ACTS_FOR_RATE: usize = 3;
/// A message this recent means the owner is in a conversation.
const CONVERSATION_MS: Millis = 15 * MINUTE_MS;
/// Acts and messages are kept this many days unless `keep_days` says otherwise.
const DEFAULT_KEEP_DAYS: u32 = 30;
/// The fewest days acts and messages may be kept: what the heartbeat looks back.
const MIN_KEEP_DAYS: u32 = (LOOKBACK_MS / DAY_MS) as u32;
/// The most days `keep_days` may say: ten years.
const MAX_KEEP_DAYS: u32 = 3_650;

/// Recorded agent messages `heartbeat_context` returns, so the agent does not repeat itself.
const RECENT_MESSAGES: usize = 5;

/// One signal the scan found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Signal {
    /// What the signal is about.
    pub kind: SignalKind,
    /// Its tier after freshness and `critical`/`urgent`/`low-priority`/`backlog` tags.
    pub tier: Urgency,
    /// Whether the decision surfaced it (it passed the time-of-day and conversation steps).
    pub surfaced: bool,
    /// Ids of the memories it is about.
    pub memories: Vec<String>,
    /// One line saying what it found.
    pub summary: String,
}

/// An interrupted session the agent could offer to resume.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Continuity {
    /// The session's newest CONTEXT/ACTIVITY memories, newest first (at most 5).
    pub last_memories: Vec<Memory>,
    /// Hours since the session's newest memory.
    pub session_age_hours: f64,
    /// The session left an activity or plan open.
    pub was_interrupted: bool,
    /// One line suggesting how to pick the session up again.
    pub resume_suggestion: String,
}

/// How one goal is going.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GoalProgress {
    /// The PLAN memory the goal is.
    pub plan: Memory,
    /// ACTIVITY memories that work towards it (stored vectors, or shared entities).
    pub activities: Vec<String>,
    /// min(1, activities / 10).
    pub progress: f64,
    /// Days to its deadline (negative when past), if it has one.
    pub days_left: Option<f64>,
    /// Whether it is on track, at risk, overdue or done.
    pub status: GoalStatus,
}

/// A question stored in memory that nothing answers yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct KnowledgeGap {
    /// The id of the memory holding the open question.
    pub memory_id: String,
    /// The question still open.
    pub question: String,
    /// When it was asked, in milliseconds since the Unix epoch.
    pub asked_at: Millis,
}

/// Something that got better since the agent last spoke up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PositiveDelta {
    /// What sort of good news it is.
    pub kind: DeltaKind,
    /// One line saying what went well.
    pub description: String,
    /// The plan's memory id, the entity's name, or "sentiment".
    pub subject: String,
}

/// The owner's recent sentiment against the one before.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SentimentTrend {
    /// Mean sentiment of the recent memories, -1 to 1.
    pub recent_avg: f64,
    /// Mean sentiment of the memories before them, -1 to 1.
    pub previous_avg: f64,
    /// Whether sentiment is rising, falling or stable.
    pub direction: Trend,
    /// |recent − previous|.
    pub delta: f64,
    /// Memories felt strongly (|sentiment| > 0.7).
    pub notable: Vec<Memory>,
}

/// Someone gone silent while plans involve them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RelationshipAlert {
    /// The entity's name.
    pub entity: String,
    /// What sort of entity it is.
    pub entity_type: EntityType,
    /// Days since a memory last named it.
    pub days_silent: i64,
    /// Live PLAN memories naming the entity.
    pub related_plans: Vec<String>,
    /// How pressing the silence is.
    pub urgency: AlertLevel,
}

/// Something the owner does on this weekday.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Pattern {
    /// One line saying what recurs.
    pub description: String,
    /// A memory type (lower case) or a tag.
    pub topic: String,
    /// The weekday it comes up on (Monday … Sunday).
    pub day_of_week: String,
    /// Distinct same-weekday dates of the last 90 days it came up on.
    pub days: u32,
    /// min(1, days / 10).
    pub confidence: f64,
}

/// What `heartbeat_check` answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HeartbeatReport {
    /// The owner checked.
    pub entity_id: String,
    /// When the check ran, in milliseconds since the Unix epoch.
    pub checked_at: Millis,
    /// Whether the agent should speak up now.
    pub should_act: bool,
    /// Why it should or should not.
    pub decision_reason: DecisionReason,
    /// Urgency of what is surfaced (none when nothing is).
    pub urgency_tier: Option<Urgency>,
    /// The autonomy the decision followed.
    pub autonomy: Autonomy,
    /// First 16 hex of SHA-256 over the surfaced signals' keys (empty when none).
    pub fingerprint: String,
    /// Sum of the surfaced signals' weights (10/5/3/1).
    pub confluence_score: u32,
    /// The cooldown in force, in ms, after the time-of-day and response-rate factors.
    pub cooldown_ms: Millis,
    /// The owner's time of day, local time.
    pub time_period: TimePeriod,
    /// Whether the owner is in a conversation now.
    pub in_conversation: bool,
    /// Share of the last week's acts the owner answered within 2 h (1 with fewer than 3).
    pub response_rate: f64,
    /// Memories written since the last act.
    pub memory_velocity: usize,
    /// When to check again, in ms from now.
    pub next_tick_ms: Millis,
    /// The recorded act (when the agent should act and this was not a dry run).
    pub act_id: Option<String>,
    /// The memory a nudge is about.
    pub nudge: Option<Memory>,
    /// Every signal found, most urgent first.
    pub signals: Vec<Signal>,
    /// Schedules due now.
    pub scheduled: Vec<Schedule>,
    /// Memories whose deadline (`expires_at`) falls within the deadline window, or has just
    /// passed.
    pub deadlines: Vec<Memory>,
    /// Open conflicts.
    pub conflicts: Vec<Conflict>,
    /// The latest session and whether it was left open (none without one).
    pub continuity: Option<Continuity>,
    /// Monitors not touched within the monitor cadence.
    pub stale_monitors: Vec<Memory>,
    /// Open plans and activities important enough to mention.
    pub pending_work: Vec<Memory>,
    /// Progress of the owner's plans.
    pub goal_progress: Vec<GoalProgress>,
    /// Questions asked and not answered yet.
    pub knowledge_gaps: Vec<KnowledgeGap>,
    /// Good news: plans done, sentiment up, relationships renewed.
    pub positive_deltas: Vec<PositiveDelta>,
    /// Important memories about to turn STALE for lack of use.
    pub decaying: Vec<Memory>,
    /// How the owner's mood moves (none with too few memories).
    pub sentiment_trend: Option<SentimentTrend>,
    /// People and organisations not mentioned for a while.
    pub relationship_alerts: Vec<RelationshipAlert>,
    /// Topics that come up on the same weekday.
    pub behavioral_patterns: Vec<Pattern>,
    /// The surfaced signals as plain text for an agent's prompt.
    pub summary: String,
}

/// What `heartbeat_context` answers: the check, and what an agent needs to word it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HeartbeatContext {
    /// The heartbeat's report, as `heartbeat_check` gives it.
    pub report: HeartbeatReport,
    /// The agent's last recorded messages, newest first, so it does not repeat itself.
    pub recent_messages: Vec<Message>,
    /// Memories matching `query` (empty without one).
    pub relevant_memories: Vec<SearchHit>,
    /// Peer cards of the entities the signals' memories name (surfaced signals first; at most
    /// 3, of entities with enough memories for one), so the agent knows who or what they are.
    pub cards: Vec<crate::graph::Card>,
}

/// A message of the conversation, for [`Engine::record_message`](crate::Engine::record_message).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordMessage {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// Who said it: `user` (the owner) or `agent`.
    pub role: MessageRole,
    /// What was said: not blank, at most 50,000 characters.
    pub content: Content,
    /// The agent whose conversation it is part of (1 to 256 characters of `[A-Za-z0-9_:.-]`;
    /// default none: the owner's own).
    pub agent_id: Option<Id>,
    /// The conversation session (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    pub session_id: Option<Id>,
    /// The act an agent message delivers (`act_id` of a heartbeat report; default none).
    pub act_id: Option<Id>,
    /// An act id the host made itself, as Keyoku's plugin sends (`action_id`): 1 to 1,024
    /// characters; the message is linked to the act when it names one of the owner's, and
    /// recorded without a link when not (default none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = MAX_ACTION_REF_CHARS))]
    pub action_ref: Option<String>,
}

/// Longest `action_ref`, in characters.
pub const MAX_ACTION_REF_CHARS: usize = 1024;

/// Arguments of `messages`: an owner's recorded conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MessagesRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// Only this agent's conversation (default none: every message of the owner's).
    pub agent_id: Option<Id>,
    /// Messages wanted, newest first, 1 to 1,000 (default 50).
    pub limit: Option<Limit>,
}

/// Messages `messages` returns unless asked otherwise.
const MESSAGES_LIMIT: usize = 50;

/// An owner's recorded messages, both roles, newest first.
pub(crate) fn messages(view: &View, req: &MessagesRequest) -> Result<Vec<Message>> {
    let limit = Limit::or(req.limit, MESSAGES_LIMIT);
    sql::messages(
        view.conn(),
        &req.entity_id,
        req.agent_id.as_deref(),
        None,
        limit,
    )
}

/// A recorded message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Message {
    /// The message's id.
    pub id: String,
    /// Who said it: `user` or `agent`.
    pub role: MessageRole,
    /// What was said.
    pub content: String,
    /// The agent whose conversation it is part of (none: the owner's own).
    pub agent_id: Option<String>,
    /// The conversation session, if one was named.
    pub session_id: Option<String>,
    /// The act an agent message delivered, if any.
    pub act_id: Option<String>,
    /// When it was recorded, in milliseconds since the Unix epoch.
    pub at: Millis,
}

/// The request's options with the configuration's defaults filled in, checked.
pub(crate) struct Options {
    pub autonomy: Autonomy,
    pub in_conversation: Option<bool>,
    pub offset: i32,
    pub quiet: QuietHours,
    pub deadline_window: Millis,
    pub max_results: usize,
    pub dry_run: bool,
    pub as_of: Option<Millis>,
}

/// Checks a heartbeat request's owner and options, filling in the configuration's defaults.
pub(crate) fn options(req: &HeartbeatRequest, cfg: &HeartbeatConfig) -> Result<(Owner, Options)> {
    let owner = Id::owner(&req.entity_id)?;
    if let Some(t) = req.as_of {
        crate::clock::check_record_time("as_of", t)?;
    }
    let offset = req.utc_offset_minutes.unwrap_or(cfg.utc_offset_minutes);
    period::check_offset("utc_offset_minutes", offset)?;
    let quiet = req
        .quiet_hours
        .clone()
        .unwrap_or_else(|| cfg.quiet_hours.clone());
    quiet.validate("quiet_hours")?;
    let deadline_window = match &req.deadline_window {
        None => (cfg.deadline_window_hours * 3_600_000.0) as Millis,
        Some(w) => {
            let d = humantime::parse_duration(w.trim()).map_err(|e| {
                Error::invalid(
                    "deadline_window",
                    format!("{e}; write e.g. \"24h\" or \"3d\""),
                )
            })?;
            let ms = d.as_millis();
            if ms == 0 || ms > (MAX_WINDOW_HOURS * 3_600_000.0) as u128 {
                return Err(Error::invalid(
                    "deadline_window",
                    "must be more than 0 and at most a year",
                ));
            }
            ms as Millis
        }
    };
    let max_results = Limit::parse(req.max_results, DEFAULT_RESULTS)?.get();
    if max_results > MAX_RESULTS {
        return Err(Error::invalid(
            "max_results",
            format!("{max_results} is more than {MAX_RESULTS}"),
        ));
    }
    let opts = Options {
        autonomy: req.autonomy.unwrap_or(cfg.autonomy),
        in_conversation: req.in_conversation,
        offset,
        quiet,
        deadline_window,
        max_results,
        dry_run: req.dry_run,
        as_of: req.as_of,
    };
    Ok((owner, opts))
}

/// The agent's last recorded messages, newest first (so it does not repeat itself): those of
/// `agent`'s conversation when one is named, else every agent's.
pub(crate) fn recent_messages(
    view: &View,
    owner: &Owner,
    agent: Option<&str>,
) -> Result<Vec<Message>> {
    sql::messages(
        view.conn(),
        owner,
        agent,
        Some(MessageRole::Agent),
        RECENT_MESSAGES,
    )
}

/// Records a message of the conversation (the owner's or the agent's), so the heartbeat knows
/// when the owner is talking, answers, or has gone quiet.
pub(crate) fn record_message(
    tx: &mut Tx,
    cfg: &HeartbeatConfig,
    owner: &Owner,
    req: &RecordMessage,
) -> Result<Message> {
    let role = req.role;
    let linked = match &req.action_ref {
        Some(_) if req.act_id.is_some() => {
            return Err(Error::invalid(
                "action_ref",
                "give the act as act_id (checked) or action_ref (linked if known), not both",
            ))
        }
        Some(r) if r.is_empty() || r.chars().count() > MAX_ACTION_REF_CHARS => {
            return Err(Error::invalid(
                "action_ref",
                format!("must be 1 to {MAX_ACTION_REF_CHARS} characters"),
            ))
        }
        Some(r) => match Id::parse("action_ref", r) {
            Ok(a) if role == MessageRole::Agent && sql::act_exists(tx.conn(), owner, &a)? => {
                Some(a)
            }
            _ => None,
        },
        None => req.act_id.clone(),
    };
    if let Some(a) = &req.act_id {
        if role != MessageRole::Agent {
            return Err(Error::invalid(
                "act_id",
                "only an agent message delivers an act",
            ));
        }
        if !sql::act_exists(tx.conn(), owner, a)? {
            return Err(Error::invalid(
                "act_id",
                format!("no act {:?} for entity {:?}", a.as_str(), owner.as_str()),
            ));
        }
    }
    let now = tx.now()?;
    let pk = crate::store::next_pk(tx.conn(), "messages")?;
    let row = Message {
        id: text::derived_id("msg", &[owner.as_bytes()], &[now, pk]),
        role,
        content: req.content.as_str().to_string(),
        agent_id: req.agent_id.clone().map(Into::into),
        session_id: req.session_id.clone().map(Into::into),
        act_id: linked.map(Into::into),
        at: now,
    };
    sql::prune(tx.conn(), owner, now - cfg.keep_ms())?;
    sql::insert_message(tx.conn(), owner, &row)?;
    Ok(row)
}
