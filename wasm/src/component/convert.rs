//! Conversions between the WIT records (`mnemo:engine/types`) and their core twins. Each
//! record is listed field by field once; the compiler checks that both sides have exactly
//! these fields, so the WIT world cannot drift from the core.

use std::collections::BTreeMap;

use mnemo_core as core;

use super::mnemo::engine::types as wit;

/// Converts a value into its twin on the other side of the component boundary.
pub trait Conv<T> {
    fn conv(self) -> T;
}

macro_rules! same {
    ($($t:ty),*) => { $(impl Conv<$t> for $t { fn conv(self) -> $t { self } })* };
}
same!(String, bool, f32, f64, i32, i64, u32);

impl Conv<u32> for usize {
    fn conv(self) -> u32 {
        u32::try_from(self).unwrap_or(u32::MAX)
    }
}

impl Conv<usize> for u32 {
    fn conv(self) -> usize {
        usize::try_from(self).unwrap_or(usize::MAX)
    }
}

impl<A: Conv<B>, B> Conv<Option<B>> for Option<A> {
    fn conv(self) -> Option<B> {
        self.map(Conv::conv)
    }
}

impl<A: Conv<B>, B> Conv<Vec<B>> for Vec<A> {
    fn conv(self) -> Vec<B> {
        self.into_iter().map(Conv::conv).collect()
    }
}

/// Enums whose cases have the same names on both sides.
macro_rules! enums {
    ($($name:ident { $($case:ident),+ $(,)? })+) => { $(
        impl Conv<core::$name> for wit::$name {
            fn conv(self) -> core::$name {
                match self { $(wit::$name::$case => core::$name::$case),+ }
            }
        }
        impl Conv<wit::$name> for core::$name {
            fn conv(self) -> wit::$name {
                match self { $(core::$name::$case => wit::$name::$case),+ }
            }
        }
    )+ };
}

enums! {
    MemoryType { Identity, Preference, Relationship, Event, Activity, Plan, Context, Ephemeral }
    Kind { Fact, Procedure, Narrative }
    Layer { Working, Episodic, Semantic, Procedural }
    State { Active, Stale, Archived, Deleted }
    Status { Active, Challenged, Invalidated, Merged, Superseded }
    Tier { Hot, Warm, Archive }
    Source { User, Agent, Conversation, Import }
    Visibility { Private, Team, Global }
    RecallFilter { FactsOnly, FactsPlusRules, FullContext }
    RankMode { Balanced, Recent, Important, Historical, Comprehensive }
    SkipReason { ExactDuplicate, SemanticDuplicate, Subset, NotSignificant }
    EntityType { Person, Organization, Location, Product, Concept, Event, Other }
    ConflictKind {
        Negation, StatedChange, PreferenceFlip, ChangedNumber, ChangedPlace, ChangedJob,
        ChangedRelationship,
    }
    ConflictMode { KeepExisting, UseNew, Merge, Ask, Temporal }
    ConflictStatus { Open, Resolved }
    Resolution { KeepExisting, UseNew, Merge, KeepBoth }
    ScheduleStatus { Active, Done, Cancelled }
    Urgency { Low, Normal, Elevated, Immediate }
    SignalKind {
        Scheduled, Deadlines, Conflicts, Continuity, StaleMonitors, MemoryVelocity, PendingWork,
        GoalProgress, KnowledgeGaps, PositiveDeltas, Decaying, Sentiment, Relationships, Patterns,
    }
    Autonomy { Observe, Suggest, Act }
    TimePeriod { Morning, Working, Evening, LateNight, Quiet }
    DecisionReason {
        FirstContact, ActDeadlineCritical, SuppressTimePeriod, SuppressConversationLow, NoSignals,
        ActImmediate, SuppressStale, SuppressConfluence, ActConfluence, SuppressCooldown,
        SuppressTopicRepeat, Act, Nudge, SuppressNudgeCap, SuppressNudgeBackoff,
    }
    MessageRole { User, Agent }
    GoalStatus { NoActivity, Stalled, AtRisk, OnTrack }
    Trend { Declining, Stable, Improving }
    AlertLevel { Attention, Urgent }
    DeltaKind { GoalImproved, EntityReengaged, SentimentImproved }
    Relation {
        WorksAt, Employs, Manages, ReportsTo, FriendOf, LivesIn, HomeOf, ParentOf,
        ChildOf, Dating, MarriedTo, EngagedTo, ExOf, MemberOf, HasMember, Founded,
        FoundedBy, Uses, UsedBy, Created, CreatedBy, CollaboratesWith, Mentors, MentoredBy,
        CompetitorOf, PartnerOf, ClientOf, Serves, SiblingOf, Knows, ColleagueOf, NeighborOf,
        RoommateOf, CousinOf, RelativeOf, GrandparentOf, GrandchildOf, StudiedAt, Teaches, StudentOf,
        Owns, OwnedBy, HasPet, PetOf, LocatedIn, BornIn, WorksOn, Likes,
        Dislikes, InterestedIn, Attends, Visited,
    }
}

/// Records: `wit <=> core { fields with one name } { wit_name: core_name, … }`.
macro_rules! records {
    ($($wit:ident <=> $core:path { $($f:ident),* $(,)? } { $($wf:ident : $cf:ident),* $(,)? })+) => { $(
        impl Conv<$core> for wit::$wit {
            fn conv(self) -> $core {
                $core { $($f: self.$f.conv(),)* $($cf: self.$wf.conv(),)* }
            }
        }
        impl Conv<wit::$wit> for $core {
            fn conv(self) -> wit::$wit {
                wit::$wit { $($f: self.$f.conv(),)* $($wf: self.$cf.conv(),)* }
            }
        }
    )+ };
}

records! {
    Memory <=> core::Memory {
        id, entity_id, agent_id, session_id, team_id, visibility, content, content_hash, kind,
        layer, state, status, tier, importance, confidence, sentiment, source, trust,
        access_count, last_accessed_at, feedback, pinned, manual_tags, auto_tags, expires_at,
        cron_tag, source_ref, surprise, merged_into, created_at, updated_at, state_changed_at,
        deleted_at,
    } { type_: memory_type }
    StatusChange <=> core::StatusChange { old, new, reason, changed_at } {}
    NewMemory <=> core::NewMemory {
        entity_id, content, kind, layer, importance, confidence, sentiment, source, tags, pinned,
        expires_at, cron_tag, source_ref, agent_id, session_id, team_id, visibility, vector,
    } { type_: memory_type }
    Extracted <=> core::Extracted {
        content, kind, importance, confidence, hedged, sentiment, tags, expires_at, entities,
        relationships, vector,
    } { type_: memory_type }
    EntityMention <=> core::EntityMention { name, aliases } { type_: entity_type }
    RelationMention <=> core::RelationMention { from, relation, to, confidence } {}
    RememberArgs <=> core::api::RememberArgs {
        entity_id, content, extracted, llm_output, agent_id, session_id, source_ref, source,
    } {}
    WriteReport <=> core::WriteReport { outcomes, fallback } {}
    SearchRequest <=> core::SearchRequest {
        entity_id, query, vector, limit, include_archived, types, min_score, entities,
    } { mode: mode, recall: recall }
    ScoreBreakdown <=> core::ScoreBreakdown {
        semantic, vector, text, context, recency, retention, importance, confidence,
        feedback_multiplier, state_multiplier, mode,
    } {}
    SearchHit <=> core::SearchHit { memory, score, why } {}
    ListRequest <=> core::ListRequest {
        entity_id, types, states, statuses, kinds, tag, pinned, limit, offset, oldest_first,
    } {}
    Page <=> core::Page { total, memories } {}
    MemoryPatch <=> core::MemoryPatch {
        content, vector, kind, importance, confidence, sentiment, tags, expires_at, source_ref,
    } { type_: memory_type }
    Stats <=> core::Stats {
        entity_id, total, by_type, by_state, by_status, by_tier, embedding_model, embedding_dim,
    } {}
    MaintainReport <=> core::MaintainReport {
        examined, to_stale, to_archived, to_deleted, promoted, purged,
    } {}
    ImportReport <=> core::ImportReport { restored, already_present, written } {}
    Entity <=> core::Entity { name, aliases, mentions, first_seen, last_seen } { type_: entity_type }
    Relationship <=> core::Relationship {
        from, relation, to, evidence, confidence, strength, inferred, first_seen, last_seen,
    } {}
    EntitiesRequest <=> core::EntitiesRequest { entity_id, types, query, limit, offset } {}
    RelationshipsRequest <=> core::RelationshipsRequest {
        entity_id, entity, relations, min_strength, stated_only, limit,
    } {}
    TraverseRequest <=> core::TraverseRequest { entity_id, from, depth, relations, min_strength } {}
    Node <=> core::Node { name, depth } { type_: entity_type }
    Traversal <=> core::Traversal { nodes, edges } {}
    PathRequest <=> core::PathRequest { entity_id, from, to, max_depth } {}
    GraphPath <=> core::GraphPath { found, hops } {}
    Conflict <=> core::Conflict {
        id, kind, mode, status, memory, content, existing, existing_content, resolution, reason,
        created_at, resolved_at,
    } {}
    ConflictsRequest <=> core::ConflictsRequest { entity_id, status, limit } {}
    ResolveRequest <=> core::ResolveRequest { entity_id, id, resolution, reason } {}
    Schedule <=> core::Schedule {
        id, content, cron_tag, status, next_due_at, missed, acknowledged_at, created_at,
    } {}
    ScheduleCreate <=> core::ScheduleCreate { entity_id, content, cron_tag } {}
    ScheduleUpdate <=> core::ScheduleUpdate { entity_id, id, content, cron_tag } {}
    QuietHours <=> core::QuietHours { enabled, start, end } {}
    HeartbeatRequest <=> core::HeartbeatRequest {
        entity_id, autonomy, in_conversation, utc_offset_minutes, quiet_hours, deadline_window,
        max_results, dry_run, query, top_k,
    } {}
    Signal <=> core::Signal { kind, tier, surfaced, memories, summary } {}
    Continuity <=> core::Continuity {
        last_memories, session_age_hours, was_interrupted, resume_suggestion,
    } {}
    GoalProgress <=> core::GoalProgress { plan, activities, progress, days_left, status } {}
    KnowledgeGap <=> core::KnowledgeGap { memory_id, question, asked_at } {}
    PositiveDelta <=> core::PositiveDelta { kind, description, subject } {}
    SentimentTrend <=> core::SentimentTrend {
        recent_avg, previous_avg, direction, delta, notable,
    } {}
    RelationshipAlert <=> core::RelationshipAlert {
        entity, entity_type, days_silent, related_plans, urgency,
    } {}
    Pattern <=> core::Pattern { description, topic, day_of_week, days, confidence } {}
    HeartbeatReport <=> core::HeartbeatReport {
        entity_id, checked_at, should_act, decision_reason, urgency_tier, autonomy, fingerprint,
        confluence_score, cooldown_ms, time_period, in_conversation, response_rate,
        memory_velocity, next_tick_ms, act_id, nudge, signals, scheduled, deadlines, conflicts,
        continuity, stale_monitors, pending_work, goal_progress, knowledge_gaps, positive_deltas,
        decaying, sentiment_trend, relationship_alerts, behavioral_patterns, summary,
    } {}
    Message <=> core::Message { id, role, content, session_id, act_id, at } {}
    MessageRequest <=> core::RecordMessage { entity_id, role, content, session_id, act_id } {}
    HeartbeatContext <=> core::HeartbeatContext {
        report, recent_messages, relevant_memories,
    } {}
}

/// A search's mode and recall filter are optional in WIT and take the engine's defaults.
macro_rules! defaulted {
    ($($name:ident),*) => { $(
        impl Conv<core::$name> for Option<wit::$name> {
            fn conv(self) -> core::$name {
                self.map(Conv::conv).unwrap_or_default()
            }
        }
        impl Conv<Option<wit::$name>> for core::$name {
            fn conv(self) -> Option<wit::$name> {
                Some(self.conv())
            }
        }
    )* };
}
defaulted!(RankMode, RecallFilter);

/// Stats' per-value counts are lists in WIT, which has no maps.
impl Conv<Vec<wit::Count>> for BTreeMap<String, usize> {
    fn conv(self) -> Vec<wit::Count> {
        self.into_iter()
            .map(|(value, count)| wit::Count {
                value,
                count: count.conv(),
            })
            .collect()
    }
}

impl Conv<BTreeMap<String, usize>> for Vec<wit::Count> {
    fn conv(self) -> BTreeMap<String, usize> {
        self.into_iter()
            .map(|c| (c.value, c.count.conv()))
            .collect()
    }
}

impl Conv<core::Outcome> for wit::Outcome {
    fn conv(self) -> core::Outcome {
        match self {
            wit::Outcome::Created(c) => core::Outcome::Created { id: c.id },
            wit::Outcome::Merged(m) => core::Outcome::Merged {
                id: m.id,
                absorbed: m.absorbed,
                similarity: m.similarity,
            },
            wit::Outcome::Skipped(s) => core::Outcome::Skipped {
                reason: s.reason.conv(),
                existing: s.existing,
                similarity: s.similarity,
            },
            wit::Outcome::Conflict(c) => core::Outcome::Conflict {
                id: c.id,
                existing: c.existing,
                kind: c.kind.conv(),
                mode: c.mode.conv(),
                conflict: c.conflict,
            },
        }
    }
}

impl Conv<wit::Outcome> for core::Outcome {
    fn conv(self) -> wit::Outcome {
        match self {
            core::Outcome::Created { id } => wit::Outcome::Created(wit::Created { id }),
            core::Outcome::Merged {
                id,
                absorbed,
                similarity,
            } => wit::Outcome::Merged(wit::Merged {
                id,
                absorbed,
                similarity,
            }),
            core::Outcome::Skipped {
                reason,
                existing,
                similarity,
            } => wit::Outcome::Skipped(wit::Skipped {
                reason: reason.conv(),
                existing,
                similarity,
            }),
            core::Outcome::Conflict {
                id,
                existing,
                kind,
                mode,
                conflict,
            } => wit::Outcome::Conflict(wit::Conflicted {
                id,
                existing,
                kind: kind.conv(),
                mode: mode.conv(),
                conflict,
            }),
        }
    }
}
