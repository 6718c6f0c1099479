//! The knowledge graph's vocabulary (SPEC §2): entity types and the typed relationships
//! between entities, with the reverse each bidirectional type infers.

use serde::{Deserialize, Serialize};

use crate::model::string_enum;

/// The name the speaker goes by in extracted relationships ("my sister Ana" →
/// `user sibling_of Ana`): the owner of the memories.
pub const SPEAKER: &str = "user";

string_enum! {
    /// What an entity is (Keyoku).
    EntityType, "entity type" {
        Person = "PERSON", Organization = "ORGANIZATION", Location = "LOCATION",
        Product = "PRODUCT", Concept = "CONCEPT", Event = "EVENT", Other = "OTHER",
    }
}

string_enum! {
    /// A typed edge `from → to`, read "from <relation> to" (Keyoku's 20 and their reverses).
    Relation, "relation" {
        WorksAt = "works_at", Employs = "employs", Manages = "manages", ReportsTo = "reports_to",
        FriendOf = "friend_of", LivesIn = "lives_in", HomeOf = "home_of",
        ParentOf = "parent_of", ChildOf = "child_of", Dating = "dating", MarriedTo = "married_to",
        EngagedTo = "engaged_to", ExOf = "ex_of", MemberOf = "member_of", HasMember = "has_member",
        Founded = "founded", FoundedBy = "founded_by", Uses = "uses", UsedBy = "used_by",
        Created = "created", CreatedBy = "created_by", CollaboratesWith = "collaborates_with",
        Mentors = "mentors", MentoredBy = "mentored_by", CompetitorOf = "competitor_of",
        PartnerOf = "partner_of", ClientOf = "client_of", Serves = "serves",
        SiblingOf = "sibling_of", Knows = "knows", ColleagueOf = "colleague_of",
        NeighborOf = "neighbor_of", RoommateOf = "roommate_of", CousinOf = "cousin_of",
        RelativeOf = "relative_of", GrandparentOf = "grandparent_of",
        GrandchildOf = "grandchild_of", StudiedAt = "studied_at", Teaches = "teaches",
        StudentOf = "student_of", Owns = "owns", OwnedBy = "owned_by", HasPet = "has_pet",
        PetOf = "pet_of", LocatedIn = "located_in", BornIn = "born_in", WorksOn = "works_on",
        Likes = "likes", Dislikes = "dislikes", InterestedIn = "interested_in",
        Attends = "attends", Visited = "visited",
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
}
