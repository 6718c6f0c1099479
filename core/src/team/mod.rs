//! Teams: an owner's named groups of agents. A memory written for a team with visibility
//! `team` is seen by the team's members (and, like every memory, by the owner's own view); a
//! team's default visibility is what its memories get when the write names none. Teams and
//! members belong to one owner: another owner's team ids mean nothing here.
//!
//! Decided where Keyoku's design is silent or unsafe: an agent may belong to several teams;
//! adding a member twice, removing a member who is not one, and removing the last member are
//! refused (delete the team instead); deleting a team removes its memberships and leaves its
//! memories to their writers (a `team` memory of a deleted team is seen by its own agent and
//! the owner only — no one joins a deleted team's memories by making a team of the same id,
//! as ids are never reused).

mod sql;

use serde::{Deserialize, Serialize};

pub(crate) use sql::{get as find, teams_of};

use crate::clock::Millis;
use crate::error::{Error, Result};
use crate::field::{Id, Owner};
use crate::model::{string_enum, Visibility};
use crate::store::{Tx, View};
use crate::text;

/// Longest team name, in characters.
pub const MAX_TEAM_NAME_CHARS: usize = 200;
/// Longest team description, in characters.
pub const MAX_TEAM_DESCRIPTION_CHARS: usize = 2_000;

string_enum! {
    /// What a member is in its team (recorded for the host; both see the same memories).
    TeamRole, "role" {
        /// A member.
        Member = "member",
        /// A member that manages the team.
        Admin = "admin",
    }
}

/// A team of agents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Team {
    /// The team's id, as `team_create` answered.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it is for.
    pub description: String,
    /// The visibility of memories written for the team without one.
    pub default_visibility: Visibility,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_at: Millis,
    /// When it last changed, in milliseconds since the Unix epoch.
    pub updated_at: Millis,
}

/// A member of a team.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TeamMember {
    /// The team.
    pub team_id: String,
    /// The agent.
    pub agent_id: String,
    /// What it is in the team.
    pub role: TeamRole,
    /// When it joined, in milliseconds since the Unix epoch.
    pub joined_at: Millis,
}

/// Arguments of `team_create`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamCreate {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The team's name: 1 to 200 characters.
    #[schemars(length(min = 1, max = MAX_TEAM_NAME_CHARS))]
    pub name: String,
    /// What it is for: at most 2,000 characters (default empty).
    #[serde(default)]
    #[schemars(length(max = MAX_TEAM_DESCRIPTION_CHARS))]
    pub description: String,
    /// The visibility of memories written for the team without one (default `team`).
    pub default_visibility: Option<Visibility>,
    /// The team's id: 1 to 256 characters of `[A-Za-z0-9_:.-]`, not one of the owner's teams
    /// already (default: a new id, `team_…`).
    pub id: Option<Id>,
}

/// One team of one owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamRef {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The team's id, as `team_create` answered.
    pub team_id: Id,
}

/// Arguments of `team_member_add`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemberAdd {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The team's id, as `team_create` answered.
    pub team_id: Id,
    /// The agent joining (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    pub member_id: Id,
    /// What it is in the team (default member).
    pub role: Option<TeamRole>,
}

/// One member of one team.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemberRef {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The team's id, as `team_create` answered.
    pub team_id: Id,
    /// The member (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    pub member_id: Id,
}

/// What `team_delete` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TeamDeleted {
    /// `deleted`.
    pub status: String,
    /// The team deleted.
    pub team_id: String,
    /// Memberships removed with it (its memories stay with their writers).
    pub members_removed: usize,
}

/// The owner's team `id`, or not found.
pub(crate) fn get(view: &View, owner: &Owner, id: &Id) -> Result<Team> {
    found(view.conn(), owner, id)
}

fn found(conn: &rusqlite::Connection, owner: &Owner, id: &Id) -> Result<Team> {
    sql::get(conn, owner, id)?.ok_or_else(|| not_found(owner, id))
}

fn not_found(owner: &Owner, id: &Id) -> Error {
    Error::UnknownTeam {
        entity_id: owner.to_string(),
        id: id.to_string(),
    }
}

/// Makes a team (its id drawn from the host's randomness).
pub(crate) fn create(tx: &mut Tx, req: &TeamCreate) -> Result<Team> {
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > MAX_TEAM_NAME_CHARS || name.contains('\0') {
        return Err(Error::invalid(
            "name",
            format!("must be 1 to {MAX_TEAM_NAME_CHARS} characters without NUL"),
        ));
    }
    let description = &req.description;
    if description.chars().count() > MAX_TEAM_DESCRIPTION_CHARS || description.contains('\0') {
        return Err(Error::invalid(
            "description",
            format!("must be at most {MAX_TEAM_DESCRIPTION_CHARS} characters, without NUL"),
        ));
    }
    let now = tx.now()?;
    let id = match &req.id {
        Some(id) => {
            if sql::get(tx.conn(), &req.entity_id, id)?.is_some() {
                return Err(Error::invalid(
                    "id",
                    format!("entity {} already has a team {id}", req.entity_id),
                ));
            }
            id.to_string()
        }
        None => {
            let nonce = tx.entropy().next_u64() as i64;
            text::derived_id(
                "team",
                &[req.entity_id.as_bytes(), name.as_bytes()],
                &[now, nonce],
            )
        }
    };
    let team = Team {
        id,
        name: name.to_string(),
        description: req.description.clone(),
        default_visibility: req.default_visibility.unwrap_or(Visibility::Team),
        created_at: now,
        updated_at: now,
    };
    sql::insert(tx.conn(), &req.entity_id, &team)?;
    Ok(team)
}

/// Deletes a team and its memberships.
pub(crate) fn delete(tx: &mut Tx, req: &TeamRef) -> Result<TeamDeleted> {
    found(tx.conn(), &req.entity_id, &req.team_id)?;
    let members_removed = sql::delete(tx.conn(), &req.entity_id, &req.team_id)?;
    Ok(TeamDeleted {
        status: "deleted".into(),
        team_id: req.team_id.to_string(),
        members_removed,
    })
}

/// The members of a team, in the order they joined.
pub(crate) fn members(view: &View, req: &TeamRef) -> Result<Vec<TeamMember>> {
    get(view, &req.entity_id, &req.team_id)?;
    sql::members(view.conn(), &req.entity_id, &req.team_id)
}

/// Adds an agent to a team; an agent already in it is refused.
pub(crate) fn add_member(tx: &mut Tx, req: &MemberAdd) -> Result<TeamMember> {
    found(tx.conn(), &req.entity_id, &req.team_id)?;
    let current = sql::members(tx.conn(), &req.entity_id, &req.team_id)?;
    if current.iter().any(|m| m.agent_id == req.member_id.as_str()) {
        return Err(Error::invalid(
            "member_id",
            format!(
                "{} is already a member of team {}",
                req.member_id, req.team_id
            ),
        ));
    }
    let member = TeamMember {
        team_id: req.team_id.to_string(),
        agent_id: req.member_id.to_string(),
        role: req.role.unwrap_or(TeamRole::Member),
        joined_at: tx.now()?,
    };
    sql::add_member(tx.conn(), &req.entity_id, &member)?;
    Ok(member)
}

/// Removes an agent from a team: not one that is not a member, nor the last member.
pub(crate) fn remove_member(tx: &mut Tx, req: &MemberRef) -> Result<TeamMember> {
    found(tx.conn(), &req.entity_id, &req.team_id)?;
    let current = sql::members(tx.conn(), &req.entity_id, &req.team_id)?;
    let Some(member) = current
        .iter()
        .find(|m| m.agent_id == req.member_id.as_str())
        .cloned()
    else {
        return Err(Error::invalid(
            "member_id",
            format!(
                "no member {:?} in team {:?}",
                req.member_id.as_str(),
                req.team_id.as_str()
            ),
        ));
    };
    if current.len() == 1 {
        return Err(Error::invalid(
            "member_id",
            format!(
                "{} is the last member of team {}: delete the team instead",
                req.member_id, req.team_id
            ),
        ));
    }
    sql::remove_member(tx.conn(), &req.entity_id, &req.team_id, &req.member_id)?;
    Ok(member)
}

/// The team and visibility a write gets, checked: a team must be the owner's and the writing
/// agent one of its members. Without a team, an agent's one team of the owner is its team (as
/// Keyoku looks up the agent's team); with several or none, no team. Without a visibility, the
/// team's default, else `private`; `team` needs a team.
pub(crate) fn write_scope(
    view: &View,
    owner: &str,
    agent: Option<&str>,
    team: Option<&str>,
    visibility: Option<Visibility>,
) -> Result<(Option<String>, Visibility)> {
    let inferred = match (team, agent) {
        (None, Some(agent)) => {
            let teams = sql::teams_of(view.conn(), owner, agent)?;
            match teams.len() {
                1 => teams.into_iter().next(),
                _ => None,
            }
        }
        _ => None,
    };
    let Some(team_id) = team.or(inferred.as_deref()) else {
        return match visibility {
            Some(Visibility::Team) => Err(Error::invalid(
                "visibility",
                "team visibility needs a team_id",
            )),
            v => Ok((None, v.unwrap_or(Visibility::Private))),
        };
    };
    let Some(found) = sql::get(view.conn(), owner, team_id)? else {
        return Err(Error::invalid(
            "team_id",
            format!("no team {team_id:?} of entity {owner:?}"),
        ));
    };
    if let Some(agent) = agent {
        if !sql::teams_of(view.conn(), owner, agent)?.contains(team_id) {
            return Err(Error::invalid(
                "team_id",
                format!("agent {agent:?} is not a member of team {team_id:?}"),
            ));
        }
    }
    Ok((
        Some(team_id.to_string()),
        visibility.unwrap_or(found.default_visibility),
    ))
}
