//! Decay and lifecycle: retention curves, the ACTIVE → STALE → ARCHIVED → DELETED
//! transitions, purge, and layer promotion. A memory's state is a pure function of its last
//! access and `now`, so the maintenance pass can compute exactly when each row next changes.

use crate::clock::{Millis, DAY_MS, MINUTE_MS};
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::math;
use crate::model::{Layer, Memory, State, Tier};
use crate::tier;

/// How retention falls with time. The default is the exponential curve with access-stretched
/// stability; huber and elastic bend it later on.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum RetentionMode {
    /// e^(−t/τ_eff), τ_eff = τ·(1 + 0.5·ln(1 + accesses)).
    #[default]
    Exponential,
    /// Exponential up to half a half-life, then linear with the slope there.
    Huber,
    /// 0.3·max(0, 1 − t/(2·half-life)) + 0.7·exponential.
    Elastic,
}

/// Decay and lifecycle thresholds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RetentionConfig {
    /// How retention is computed from the time since last use.
    pub mode: RetentionMode,
    /// Trust-weighted stability: τ / (1 + 2·(1 − trust)).
    pub trust_weighted: bool,
    /// ACTIVE → STALE below this retention.
    pub stale_below: f64,
    /// → ARCHIVED below this retention …
    pub archive_below: f64,
    /// … or after this many days STALE.
    pub stale_days_to_archive: f64,
    /// → DELETED (soft) below this retention.
    pub delete_below: f64,
    /// Soft-deleted rows are purged after this many days.
    pub purge_retention_days: f64,
}

impl Default for RetentionConfig {
    fn default() -> Self {
        RetentionConfig {
            mode: RetentionMode::Exponential,
            trust_weighted: false,
            stale_below: 0.3,
            archive_below: 0.1,
            stale_days_to_archive: 30.0,
            delete_below: 0.01,
            purge_retention_days: 90.0,
        }
    }
}

/// Weight of ln(1 + accesses) in the effective stability.
const ACCESS_STABILITY_GAIN: f64 = 0.5;
/// Reinforcement in the huber/elastic modes: + min(0.3, 0.05·ln(1 + accesses)).
const REINFORCE_GAIN: f64 = 0.05;
const REINFORCE_CAP: f64 = 0.3;
/// Elastic mode: share of the linear part.
const ELASTIC_LINEAR_SHARE: f64 = 0.3;
/// Working → episodic after this long.
const WORKING_PROMOTE_MS: Millis = 30 * MINUTE_MS;
/// Working → episodic after this many accesses.
const WORKING_PROMOTE_ACCESSES: i64 = 2;
/// Episodic → semantic at this importance and access count.
const SEMANTIC_PROMOTE_IMPORTANCE: f64 = 0.7;
const SEMANTIC_PROMOTE_ACCESSES: i64 = 5;

/// Base stability in days for a memory, trust-weighted when configured.
fn base_stability(m: &Memory, cfg: &RetentionConfig) -> f64 {
    let tau = m.memory_type.stability_days();
    if cfg.trust_weighted {
        tau * crate::importance::trust_scale(m.trust)
    } else {
        tau
    }
}

/// Effective stability: τ × (1 + 0.5·ln(1 + access_count)), in days.
pub fn effective_stability(tau_days: f64, access_count: i64) -> f64 {
    tau_days * (1.0 + ACCESS_STABILITY_GAIN * math::ln(1.0 + access_count.max(0) as f64))
}

/// Retention of `m` after `days` since its last access, under `cfg`.
pub fn retention_after(m: &Memory, days: f64, cfg: &RetentionConfig) -> f64 {
    Curve::new(m, cfg).at(days)
}

/// One memory's forgetting curve, with what does not change along it worked out once (a
/// crossing evaluates it some forty times).
struct Curve {
    mode: RetentionMode,
    /// Base stability τ, in days.
    tau: f64,
    /// Exponential mode: τ lengthened by the accesses.
    stability: f64,
    /// Huber and elastic modes: what the accesses add.
    reinforcement: f64,
}

impl Curve {
    fn new(m: &Memory, cfg: &RetentionConfig) -> Curve {
        let tau = base_stability(m, cfg);
        let n = m.access_count.max(0) as f64;
        Curve {
            mode: cfg.mode,
            tau,
            stability: effective_stability(tau, m.access_count),
            reinforcement: (REINFORCE_GAIN * math::ln(1.0 + n)).min(REINFORCE_CAP),
        }
    }

    /// Retention after `days` since the last access.
    fn at(&self, days: f64) -> f64 {
        let days = days.max(0.0);
        let tau = self.tau;
        let r = match self.mode {
            RetentionMode::Exponential => return math::exp(-days / self.stability),
            RetentionMode::Huber => {
                let half_life = tau * std::f64::consts::LN_2;
                let t0 = half_life / 2.0;
                if days <= t0 {
                    math::exp(-days / tau)
                } else {
                    let r0 = math::exp(-t0 / tau);
                    (r0 - (days - t0) * r0 / tau).max(0.0)
                }
            }
            RetentionMode::Elastic => {
                let half_life = tau * std::f64::consts::LN_2;
                ELASTIC_LINEAR_SHARE * (1.0 - days / (2.0 * half_life)).max(0.0)
                    + (1.0 - ELASTIC_LINEAR_SHARE) * math::exp(-days / tau)
            }
        };
        (r + self.reinforcement).min(1.0)
    }
}

/// Retention of `m` at `now`.
pub fn retention(m: &Memory, now: Millis, cfg: &RetentionConfig) -> f64 {
    retention_after(m, (now - m.last_touch()) as f64 / DAY_MS as f64, cfg)
}

/// Memories that decay never moves: pinned, schedules, semantic/procedural/codebase layers.
pub fn is_exempt(m: &Memory) -> bool {
    m.pinned
        || m.cron_tag.is_some()
        || matches!(
            m.layer,
            Layer::Semantic | Layer::Procedural | Layer::Codebase
        )
}

/// The time at which `m`'s retention first drops below `threshold` (now or later, as long as
/// nothing touches it), or `None` if it never does.
pub fn falls_below(m: &Memory, threshold: f64, cfg: &RetentionConfig) -> Option<Millis> {
    crossing(m, threshold, cfg).map(|after| m.last_touch().saturating_add(after))
}

/// First millisecond after the last touch at which retention drops below `threshold`, or
/// `None` if it never does. Retention is non-increasing in time, so bisection finds it.
fn crossing(m: &Memory, threshold: f64, cfg: &RetentionConfig) -> Option<Millis> {
    let curve = Curve::new(m, cfg);
    let key = [
        curve.mode as u64,
        curve.tau.to_bits(),
        curve.stability.to_bits(),
        curve.reinforcement.to_bits(),
        threshold.to_bits(),
    ];
    if let Some(known) = CROSSINGS.with(|c| c.borrow().iter().find(|k| k.0 == key).map(|k| k.1)) {
        return known;
    }
    let found = bisect(&curve, threshold);
    CROSSINGS.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CROSSINGS_KEPT {
            c.clear();
        }
        c.push((key, found));
    });
    found
}

/// Crossings remembered, at most (then forgotten all at once).
const CROSSINGS_KEPT: usize = 64;

thread_local! {
    /// Crossings already found, by curve and threshold: memories share a few curves (one per
    /// type, source and number of accesses), and a write bisects three of them. The answer is
    /// a function of the key alone, so remembering it changes no result.
    static CROSSINGS: std::cell::RefCell<Vec<([u64; 5], Option<Millis>)>> = Default::default();
}

/// [`crossing`] of a curve, by bisection.
fn bisect(curve: &Curve, threshold: f64) -> Option<Millis> {
    let below = |ms: Millis| curve.at(ms as f64 / DAY_MS as f64) < threshold;
    if below(0) {
        return Some(0);
    }
    let mut hi: Millis = DAY_MS;
    while !below(hi) {
        if hi > 1_000_000 * DAY_MS {
            return None;
        }
        hi *= 2;
    }
    let mut lo = 0;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            hi = mid
        } else {
            lo = mid
        }
    }
    Some(hi)
}

/// Absolute times at which a (non-exempt) memory becomes STALE, ARCHIVED and DELETED.
struct Schedule {
    stale: Option<Millis>,
    archived: Option<Millis>,
    deleted: Option<Millis>,
}

fn schedule(m: &Memory, cfg: &RetentionConfig) -> Schedule {
    let touch = m.last_touch();
    let at = |t: Option<Millis>| t.map(|d| touch.saturating_add(d));
    let stale = at(crossing(m, cfg.stale_below, cfg));
    let by_retention = at(crossing(m, cfg.archive_below, cfg));
    let by_staleness =
        stale.map(|s| s.saturating_add((cfg.stale_days_to_archive * DAY_MS as f64) as Millis));
    let archived = match (by_retention, by_staleness) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Schedule {
        stale,
        archived,
        deleted: at(crossing(m, cfg.delete_below, cfg)),
    }
}

/// The lifecycle state decay gives `m` at `now`, with the time that state began.
/// DELETED memories and exempt memories keep the state they have, and an ARCHIVED memory
/// stays archived until it is accessed (pruning archives memories decay has not reached).
pub fn state_at(m: &Memory, now: Millis, cfg: &RetentionConfig) -> (State, Millis) {
    if m.state == State::Deleted || is_exempt(m) {
        return (m.state, m.state_changed_at);
    }
    state_on(m, now, &schedule(m, cfg))
}

/// [`state_at`] of a memory decay moves, given its schedule.
fn state_on(m: &Memory, now: Millis, s: &Schedule) -> (State, Millis) {
    let reached = |t: Option<Millis>| t.filter(|&t| t <= now);
    if let Some(t) = reached(s.deleted) {
        (State::Deleted, t)
    } else if m.state == State::Archived {
        (State::Archived, m.state_changed_at)
    } else if let Some(t) = reached(s.archived) {
        (State::Archived, t)
    } else if let Some(t) = reached(s.stale) {
        (State::Stale, t)
    } else {
        let since = if m.state == State::Active {
            m.state_changed_at
        } else {
            m.last_touch()
        };
        (State::Active, since)
    }
}

/// Records `count` accesses of `m` at `at`: the count, the last access time, and a stale or
/// archived memory revived to ACTIVE (by a use after it became so, not one from before).
pub fn access(m: &mut Memory, count: i64, at: Millis) {
    m.access_count = m.access_count.saturating_add(count);
    m.last_accessed_at = Some(m.last_accessed_at.unwrap_or(at).max(at).max(m.created_at));
    if matches!(m.state, State::Stale | State::Archived) && at >= m.state_changed_at {
        m.state = State::Active;
        m.state_changed_at = at;
    }
}

/// Recomputes the fields that follow from a memory's others at `now`: its layer and tier,
/// given how many memories it is linked to — counted by `links` (a query) only when that can
/// matter, for a memory not hot on its own.
pub fn refresh(
    m: &mut Memory,
    now: Millis,
    cfg: &RetentionConfig,
    links: impl FnOnce() -> Result<usize>,
) -> Result<()> {
    m.layer = promoted_layer(m, now);
    let retention = retention(m, now, cfg);
    m.tier = tier::classify(m, now, retention, 0);
    if m.tier != Tier::Hot {
        m.tier = tier::classify(m, now, retention, links()?);
    }
    Ok(())
}

/// [`refresh`], then when maintenance should next look at the memory (as it is stored).
pub fn settle(
    m: &mut Memory,
    now: Millis,
    cfg: &RetentionConfig,
    links: impl FnOnce() -> Result<usize>,
) -> Result<Option<Millis>> {
    refresh(m, now, cfg, links)?;
    Ok(next_due(m, now, cfg))
}

/// The layer `m` should be in at `now` (promotion by age, use and importance); a layer set by
/// hand stays as it was set.
pub fn promoted_layer(m: &Memory, now: Millis) -> Layer {
    let mut layer = m.layer;
    if m.layer_set_at.is_some() {
        return layer;
    }
    if layer == Layer::Working
        && (now.saturating_sub(m.created_at) >= WORKING_PROMOTE_MS
            || m.access_count >= WORKING_PROMOTE_ACCESSES)
    {
        layer = Layer::Episodic;
    }
    if layer == Layer::Episodic
        && m.importance >= SEMANTIC_PROMOTE_IMPORTANCE
        && m.access_count >= SEMANTIC_PROMOTE_ACCESSES
    {
        layer = Layer::Semantic;
    }
    layer
}

/// When maintenance should next look at `m`: `now` if a change is already overdue (e.g. a
/// memory just unpinned, or imported long after it was written), else the next future time
/// its state, layer or purge can change; `None` if nothing will change without an access.
pub fn next_due(m: &Memory, now: Millis, cfg: &RetentionConfig) -> Option<Millis> {
    let mut due: Vec<Millis> = Vec::new();
    // A layer set by hand is never promoted: nothing to look at for it.
    if m.layer == Layer::Working && m.layer_set_at.is_none() {
        if promoted_layer(m, now) != m.layer {
            return Some(now);
        }
        due.push(m.created_at.saturating_add(WORKING_PROMOTE_MS));
    }
    if m.state == State::Deleted {
        let since = m.deleted_at.unwrap_or(m.state_changed_at);
        let purge_at = since.saturating_add((cfg.purge_retention_days * DAY_MS as f64) as Millis);
        due.push(purge_at.max(now));
    } else if !is_exempt(m) {
        let s = schedule(m, cfg);
        if state_on(m, now, &s).0 != m.state {
            return Some(now);
        }
        due.extend(
            [s.stale, s.archived, s.deleted]
                .into_iter()
                .flatten()
                .filter(|&t| t > now),
        );
    }
    due.into_iter().min()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::*;

    pub(crate) fn memory(ty: MemoryType, accesses: i64) -> Memory {
        Memory {
            id: "m1".into(),
            entity_id: "u".into(),
            agent_id: None,
            session_id: None,
            team_id: None,
            visibility: Visibility::Private,
            content: "x".into(),
            content_hash: String::new(),
            memory_type: ty,
            kind: Kind::Fact,
            layer: Layer::Episodic,
            state: State::Active,
            status: Status::Active,
            tier: Tier::Warm,
            importance: 0.5,
            confidence: 1.0,
            sentiment: 0.0,
            source: Source::User,
            trust: 1.0,
            access_count: accesses,
            last_accessed_at: None,
            feedback: 0,
            pinned: false,
            manual_tags: vec![],
            auto_tags: vec![],
            expires_at: None,
            cron_tag: None,
            source_ref: None,
            surprise: None,
            merged_into: None,
            created_at: 0,
            updated_at: 0,
            state_changed_at: 0,
            deleted_at: None,
            layer_set_at: None,
            confirmations: 0,
        }
    }

    #[test]
    fn worked_example_identity_after_200_days() {
        // IDENTITY, accessed 10 times: τ_eff ≈ 803 days; after 200 days retention ≈ 0.78.
        let tau = effective_stability(365.0, 10);
        assert_eq!(tau.round(), 803.0);
        let m = memory(MemoryType::Identity, 10);
        let r = retention_after(&m, 200.0, &RetentionConfig::default());
        assert_eq!((r * 100.0).round() / 100.0, 0.78);
        assert_eq!(
            state_at(&m, 200 * DAY_MS, &RetentionConfig::default()).0,
            State::Active
        );
    }

    #[test]
    fn lifecycle_thresholds_with_moved_clock() {
        let cfg = RetentionConfig::default();
        let m = memory(MemoryType::Context, 0); // τ = 21 days
        let day = |d: f64| (d * DAY_MS as f64) as Millis;
        // STALE once e^(−t/21) < 0.3 → t > 21·ln(1/0.3) = 25.28 d.
        assert_eq!(state_at(&m, day(25.2), &cfg).0, State::Active);
        assert_eq!(state_at(&m, day(25.3), &cfg).0, State::Stale);
        // ARCHIVED once < 0.1 → t > 48.35 d (sooner than 30 days stale: 55.3 d).
        assert_eq!(state_at(&m, day(48.3), &cfg).0, State::Stale);
        assert_eq!(state_at(&m, day(48.4), &cfg).0, State::Archived);
        // DELETED once < 0.01 → t > 96.7 d.
        assert_eq!(state_at(&m, day(96.6), &cfg).0, State::Archived);
        let (s, since) = state_at(&m, day(97.0), &cfg);
        assert_eq!(s, State::Deleted);
        assert!((since - day(21.0 * 100f64.ln())).abs() <= 1);
        // 30 days stale archives before retention 0.1 when the archive threshold is lower.
        let cfg2 = RetentionConfig {
            archive_below: 0.02,
            ..cfg.clone()
        };
        assert_eq!(state_at(&m, day(25.3 + 29.9), &cfg2).0, State::Stale);
        assert_eq!(state_at(&m, day(25.3 + 30.0), &cfg2).0, State::Archived);
    }

    #[test]
    fn exemptions_never_decay() {
        let cfg = RetentionConfig::default();
        for f in [
            |m: &mut Memory| m.pinned = true,
            |m: &mut Memory| m.cron_tag = Some("cron:daily".into()),
            |m: &mut Memory| m.layer = Layer::Semantic,
            |m: &mut Memory| m.layer = Layer::Procedural,
        ] {
            let mut m = memory(MemoryType::Ephemeral, 0);
            f(&mut m);
            assert_eq!(state_at(&m, 1000 * DAY_MS, &cfg).0, State::Active);
            assert_eq!(next_due(&m, 0, &cfg), None);
        }
    }

    #[test]
    fn access_extends_life() {
        let cfg = RetentionConfig::default();
        let fresh = memory(MemoryType::Plan, 0);
        let used = memory(MemoryType::Plan, 20);
        assert!(retention_after(&used, 60.0, &cfg) > retention_after(&fresh, 60.0, &cfg));
    }

    #[test]
    fn retention_modes() {
        let m = memory(MemoryType::Event, 0); // τ = 120 d, half-life 83.2 d
        let exp = RetentionConfig::default();
        let huber = RetentionConfig {
            mode: RetentionMode::Huber,
            ..exp.clone()
        };
        let elastic = RetentionConfig {
            mode: RetentionMode::Elastic,
            ..exp.clone()
        };
        // Huber equals exponential up to half a half-life, then falls linearly to zero.
        assert!(
            (retention_after(&m, 30.0, &huber) - retention_after(&m, 30.0, &exp)).abs() < 1e-12
        );
        let t0 = 120.0 * std::f64::consts::LN_2 / 2.0;
        let r0 = (-t0 / 120.0f64).exp();
        assert!((retention_after(&m, t0 + 10.0, &huber) - (r0 - 10.0 * r0 / 120.0)).abs() < 1e-12);
        assert_eq!(retention_after(&m, 400.0, &huber), 0.0);
        // Elastic: 0.3·linear + 0.7·exponential.
        let hl = 120.0 * std::f64::consts::LN_2;
        let want = 0.3 * (1.0 - 50.0 / (2.0 * hl)) + 0.7 * (-50.0 / 120.0f64).exp();
        assert!((retention_after(&m, 50.0, &elastic) - want).abs() < 1e-12);
        // The reinforcement bonus of the huber/elastic modes is capped at 0.3.
        let used = memory(MemoryType::Event, 1_000_000);
        assert!((retention_after(&used, 400.0, &huber) - 0.3).abs() < 1e-12);
        // Trust weighting: an import (trust 0.5) decays as if τ were halved.
        let mut imported = memory(MemoryType::Event, 0);
        imported.trust = 0.5;
        let tw = RetentionConfig {
            trust_weighted: true,
            ..exp.clone()
        };
        assert!((retention_after(&imported, 60.0, &tw) - (-1.0f64).exp()).abs() < 1e-12);
    }

    #[test]
    fn layer_promotion() {
        let mut m = memory(MemoryType::Event, 0);
        m.layer = Layer::Working;
        assert_eq!(promoted_layer(&m, 29 * MINUTE_MS), Layer::Working);
        assert_eq!(promoted_layer(&m, 30 * MINUTE_MS), Layer::Episodic);
        m.access_count = 2;
        assert_eq!(promoted_layer(&m, 0), Layer::Episodic);
        m.access_count = 5;
        m.importance = 0.7;
        assert_eq!(promoted_layer(&m, 0), Layer::Semantic);
        m.importance = 0.69;
        assert_eq!(promoted_layer(&m, 0), Layer::Episodic);
    }

    #[test]
    fn a_layer_set_by_hand_is_never_promoted_nor_due_for_it() {
        let cfg = RetentionConfig::default();
        let mut m = memory(MemoryType::Preference, 9);
        m.layer = Layer::Working;
        m.importance = 0.9;
        assert_eq!(promoted_layer(&m, 60 * MINUTE_MS), Layer::Semantic);
        m.layer_set_at = Some(0);
        assert_eq!(promoted_layer(&m, 60 * MINUTE_MS), Layer::Working);
        // Only its retention makes it due, never in the past (maintenance would loop).
        let due = next_due(&m, 60 * MINUTE_MS, &cfg).unwrap();
        assert!(due > 60 * MINUTE_MS);
        assert_eq!(state_at(&m, due, &cfg).0, State::Stale);
    }

    #[test]
    fn next_due_points_at_the_next_change() {
        let cfg = RetentionConfig::default();
        let m = memory(MemoryType::Context, 0);
        let due = next_due(&m, 0, &cfg).unwrap();
        assert_eq!(state_at(&m, due - 1, &cfg).0, State::Active);
        assert_eq!(state_at(&m, due, &cfg).0, State::Stale);
        let mut d = memory(MemoryType::Context, 0);
        d.state = State::Deleted;
        d.deleted_at = Some(5);
        assert_eq!(next_due(&d, 0, &cfg), Some(5 + 90 * DAY_MS));
        assert_eq!(next_due(&d, 100 * DAY_MS, &cfg), Some(100 * DAY_MS));
        // Overdue: a memory that should already be stale is due at once.
        assert_eq!(next_due(&m, 30 * DAY_MS, &cfg), Some(30 * DAY_MS));
        let mut stale = m.clone();
        stale.state = State::Stale;
        assert!(next_due(&stale, 30 * DAY_MS, &cfg).unwrap() > 30 * DAY_MS);
    }
}
