//! The knowledge graph: per owner, the entities memories name and the typed
//! relationships between them, with the evidence for each. This module holds the vocabulary,
//! how names become keys and how strong a relationship is; `record` writes what an
//! extractor found, `query` answers the graph queries.

pub(crate) mod bridge;
pub(crate) mod bridge_record;
pub(crate) mod card;
mod query;
mod record;
mod sight;
mod sql;

use serde::{Deserialize, Serialize};

use crate::clock::{Millis, DAY_MS};
use crate::lexicon::TITLES_FOR_KEYS;
use crate::math;
use crate::model::string_enum;

pub(crate) use crate::store::memories::withdraw_evidence;
pub use bridge::{
    Bridge, BridgeEvidence, BridgeStatus, BridgesRequest, BRIDGE_MIN_CONTEXTS, BRIDGE_REASON_CHARS,
    BRIDGE_RELATION_CHARS,
};
pub use bridge_record::BridgeRecord;
pub(crate) use card::{card, cards_of};
pub use card::{
    Card, CardFact, CardRequest, CardSummaryBy, CARD_FACTS, CARD_MIN_MEMORIES, CARD_RELATIONSHIPS,
};
pub(crate) use query::{entities, path, relationships, traverse};
pub use query::{
    EntitiesRequest, Entity, GraphPath, Node, PathRequest, Relationship, RelationshipsRequest,
    Traversal, TraverseRequest,
};
pub(crate) use record::{check, record, MAX_PER_MEMORY};
pub(crate) use sight::Sight;
pub(crate) use sql::{
    by_key, entities_named_by, entity, memories_naming, naming_the_same, related, stating,
};

/// An entity a memory names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntityMention {
    /// The entity's name: 1 to 256 characters, with a letter or digit.
    #[schemars(length(min = 1, max = MAX_NAME_CHARS))]
    pub name: String,
    /// What sort of entity it is.
    #[serde(rename = "type")]
    pub entity_type: EntityType,
    /// Other names of the same entity ("Ana" for "Ana Souza"): at most 64, each 1 to 256
    /// characters with a letter or digit (default none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = MAX_PER_MEMORY), inner(length(min = 1, max = MAX_NAME_CHARS)))]
    pub aliases: Vec<String>,
}

/// A relationship a memory states: `from relation to`; the speaker is [`SPEAKER`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelationMention {
    /// The entity the relationship goes from (its name: 1 to 256 characters, with a letter or
    /// digit).
    #[schemars(length(min = 1, max = MAX_NAME_CHARS))]
    pub from: String,
    /// The relation.
    pub relation: Relation,
    /// The entity it goes to (its name: 1 to 256 characters, with a letter or digit).
    #[schemars(length(min = 1, max = MAX_NAME_CHARS))]
    pub to: String,
    /// How sure the statement is, 0 to 1: lower when it is hedged.
    #[schemars(range(min = 0, max = 1))]
    pub confidence: f64,
}

/// The name the speaker goes by in extracted relationships ("my sister Ana" →
/// `user sibling_of Ana`): the owner of the memories.
pub const SPEAKER: &str = "user";

string_enum! {
    /// What an entity is.
    EntityType, "entity type" {
        /// A person.
        Person = "PERSON",
        /// A company, a team, a school, an institution.
        Organization = "ORGANIZATION",
        /// A place: a city, a country, an address.
        Location = "LOCATION",
        /// A product, a tool, a piece of software.
        Product = "PRODUCT",
        /// An idea, a topic, a field.
        Concept = "CONCEPT",
        /// Something that happens at a time: a meeting, a trip, a holiday.
        Event = "EVENT",
        /// Anything else.
        Other = "OTHER",
    }
}

string_enum! {
    /// A typed edge `from → to`, read "from *relation* to".
    Relation, "relation" {
        /// `from` works at `to` (an organisation).
        WorksAt = "works_at",
        /// `from` employs `to` (reverse of works_at).
        Employs = "employs",
        /// `from` manages `to`.
        Manages = "manages",
        /// `from` reports to `to` (reverse of manages).
        ReportsTo = "reports_to",
        /// `from` and `to` are friends.
        FriendOf = "friend_of",
        /// `from` lives in `to` (a place).
        LivesIn = "lives_in",
        /// `from` (a place) is home of `to` (reverse of lives_in).
        HomeOf = "home_of",
        /// `from` is a parent of `to`.
        ParentOf = "parent_of",
        /// `from` is a child of `to`.
        ChildOf = "child_of",
        /// `from` and `to` are dating.
        Dating = "dating",
        /// `from` and `to` are married.
        MarriedTo = "married_to",
        /// `from` and `to` are engaged.
        EngagedTo = "engaged_to",
        /// `from` is an ex-partner of `to`.
        ExOf = "ex_of",
        /// `from` is a member of `to` (a group or organisation).
        MemberOf = "member_of",
        /// `from` has `to` as a member (reverse of member_of).
        HasMember = "has_member",
        /// `from` founded `to`.
        Founded = "founded",
        /// `from` was founded by `to`.
        FoundedBy = "founded_by",
        /// `from` uses `to` (a product or tool).
        Uses = "uses",
        /// `from` is used by `to`.
        UsedBy = "used_by",
        /// `from` created `to`.
        Created = "created",
        /// `from` was created by `to`.
        CreatedBy = "created_by",
        /// `from` and `to` work together.
        CollaboratesWith = "collaborates_with",
        /// `from` mentors `to`.
        Mentors = "mentors",
        /// `from` is mentored by `to`.
        MentoredBy = "mentored_by",
        /// `from` and `to` compete.
        CompetitorOf = "competitor_of",
        /// `from` and `to` are partners (in business or life).
        PartnerOf = "partner_of",
        /// `from` is a client of `to`.
        ClientOf = "client_of",
        /// `from` serves `to` as a client (reverse of client_of).
        Serves = "serves",
        /// `from` and `to` are siblings.
        SiblingOf = "sibling_of",
        /// `from` knows `to`.
        Knows = "knows",
        /// `from` and `to` are colleagues.
        ColleagueOf = "colleague_of",
        /// `from` and `to` are neighbours.
        NeighborOf = "neighbor_of",
        /// `from` and `to` share a home.
        RoommateOf = "roommate_of",
        /// `from` and `to` are cousins.
        CousinOf = "cousin_of",
        /// `from` and `to` are relatives.
        RelativeOf = "relative_of",
        /// `from` is a grandparent of `to`.
        GrandparentOf = "grandparent_of",
        /// `from` is a grandchild of `to`.
        GrandchildOf = "grandchild_of",
        /// `from` studied at `to`.
        StudiedAt = "studied_at",
        /// `from` teaches `to` (a person or a subject).
        Teaches = "teaches",
        /// `from` is a student of `to`.
        StudentOf = "student_of",
        /// `from` owns `to`.
        Owns = "owns",
        /// `from` is owned by `to`.
        OwnedBy = "owned_by",
        /// `from` has `to` as a pet.
        HasPet = "has_pet",
        /// `from` is a pet of `to`.
        PetOf = "pet_of",
        /// `from` is located in `to` (a place).
        LocatedIn = "located_in",
        /// `from` was born in `to` (a place).
        BornIn = "born_in",
        /// `from` works on `to` (a project).
        WorksOn = "works_on",
        /// `from` likes `to`.
        Likes = "likes",
        /// `from` dislikes `to`.
        Dislikes = "dislikes",
        /// `from` is interested in `to`.
        InterestedIn = "interested_in",
        /// `from` attends `to` (an event or a school).
        Attends = "attends",
        /// `from` visited `to`.
        Visited = "visited",
    }
}

impl Relation {
    /// The edge a bidirectional relation implies the other way (`parent_of` → `child_of`,
    /// `friend_of` → `friend_of`); `None` for one-way relations such as `likes`.
    pub fn reverse(self) -> Option<Relation> {
        use Relation::*;
        let pairs = [
            (WorksAt, Employs),
            (Manages, ReportsTo),
            (LivesIn, HomeOf),
            (ParentOf, ChildOf),
            (MemberOf, HasMember),
            (Founded, FoundedBy),
            (Uses, UsedBy),
            (Created, CreatedBy),
            (Mentors, MentoredBy),
            (ClientOf, Serves),
            (GrandparentOf, GrandchildOf),
            (Teaches, StudentOf),
            (Owns, OwnedBy),
            (HasPet, PetOf),
        ];
        let symmetric = [
            FriendOf,
            Dating,
            MarriedTo,
            EngagedTo,
            ExOf,
            CollaboratesWith,
            CompetitorOf,
            PartnerOf,
            SiblingOf,
            Knows,
            ColleagueOf,
            NeighborOf,
            RoommateOf,
            CousinOf,
            RelativeOf,
        ];
        if symmetric.contains(&self) {
            return Some(self);
        }
        pairs.iter().find_map(|&(a, b)| {
            if a == self {
                Some(b)
            } else if b == self {
                Some(a)
            } else {
                None
            }
        })
    }
}

/// The key an entity is found by: its name in lower case, single-spaced, without a leading
/// title or a trailing possessive. Empty for a name with no letters or digits.
pub fn key(name: &str) -> String {
    let lower = name.trim().to_lowercase();
    let mut words: Vec<&str> = lower.split_whitespace().collect();
    if words.len() > 1 && TITLES_FOR_KEYS.contains(&words[0]) {
        words.remove(0);
    }
    let mut k = words.join(" ");
    if let Some(stem) = k.strip_suffix("'s") {
        k = stem.to_string();
    }
    if k.chars().any(char::is_alphanumeric) {
        k
    } else {
        String::new()
    }
}

/// Longest entity name.
pub const MAX_NAME_CHARS: usize = 256;

/// The key of a name that can stand for an entity: one with a letter or digit, at most
/// [`MAX_NAME_CHARS`] characters and no NUL.
pub(crate) fn name_key(name: &str) -> Option<String> {
    if name.chars().count() > MAX_NAME_CHARS || name.contains('\0') {
        return None;
    }
    Some(key(name)).filter(|k| !k.is_empty())
}

/// Days over which a relationship's recency falls to 1/e since it was last stated.
pub const RECENCY_DAYS: f64 = 30.0;

/// Relationship strength: 0.4·(1 − 1/(1 + evidence)) + 0.3·recency + 0.3·confidence,
/// recency = e^(−days since last stated / 30).
pub fn strength(evidence: i64, confidence: f64, last_seen: Millis, now: Millis) -> f64 {
    let days = ((now - last_seen).max(0) as f64) / DAY_MS as f64;
    let recency = math::exp(-days / RECENCY_DAYS);
    0.4 * (1.0 - 1.0 / (1.0 + evidence.max(0) as f64))
        + 0.3 * recency
        + 0.3 * crate::math::clamp(confidence, 0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_has_forty_types_and_reverses_pair_up() {
        assert!(Relation::ALL.len() >= 40, "{}", Relation::ALL.len());
        for &r in Relation::ALL {
            if let Some(back) = r.reverse() {
                assert_eq!(back.reverse(), Some(r), "{r} ↔ {back}");
            }
        }
        assert_eq!(Relation::ParentOf.reverse(), Some(Relation::ChildOf));
        assert_eq!(Relation::Manages.reverse(), Some(Relation::ReportsTo));
        assert_eq!(Relation::FriendOf.reverse(), Some(Relation::FriendOf));
        assert_eq!(Relation::Likes.reverse(), None);
        assert_eq!("works_at".parse::<Relation>().ok(), Some(Relation::WorksAt));
        assert!("frenemy_of".parse::<Relation>().is_err());
    }

    #[test]
    fn keys_and_strength() {
        assert_eq!(key("  Dr.  Mensah "), "mensah");
        assert_eq!(key("Ana's"), "ana");
        assert_eq!(key("St. Mary's Hospital"), "st. mary's hospital");
        assert_eq!(key("Dr."), "dr.");
        assert_eq!(key(" ... "), "");
        // One fresh, fully confident statement: 0.4·½ + 0.3 + 0.3.
        assert!((strength(1, 1.0, 0, 0) - 0.8).abs() < 1e-12);
        // More evidence is stronger, older is weaker.
        assert!(strength(5, 0.9, 0, 0) > strength(1, 0.9, 0, 0));
        assert!(strength(1, 0.9, 0, 60 * DAY_MS) < strength(1, 0.9, 0, 0));
        assert!((strength(0, 0.0, 0, 10_000 * DAY_MS)).abs() < 1e-9);
    }
}
