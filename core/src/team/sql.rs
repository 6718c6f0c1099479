//! SQL of teams and their members: each owner's own rows.

use std::collections::BTreeSet;

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::{Team, TeamMember};
use crate::error::Result;
use crate::order::CollectOrdered;
use crate::store::parse;

fn team(r: &Row) -> rusqlite::Result<Team> {
    Ok(Team {
        id: r.get(0)?,
        name: r.get(1)?,
        description: r.get(2)?,
        default_visibility: parse(r, 3)?,
        created_at: r.get(4)?,
        updated_at: r.get(5)?,
    })
}

fn member(r: &Row) -> rusqlite::Result<TeamMember> {
    Ok(TeamMember {
        team_id: r.get(0)?,
        agent_id: r.get(1)?,
        role: parse(r, 2)?,
        joined_at: r.get(3)?,
    })
}

/// The owner's team `id`.
pub fn get(conn: &Connection, owner: &str, id: &str) -> Result<Option<Team>> {
    Ok(conn
        .prepare_cached(
            "SELECT id, name, description, default_visibility, created_at, updated_at \
             FROM teams WHERE owner = ?1 AND id = ?2",
        )?
        .query_row(params![owner, id], team)
        .optional()?)
}

/// Stores a new team of `owner`.
pub fn insert(conn: &Connection, owner: &str, t: &Team) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO teams (owner, id, name, description, default_visibility, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        owner,
        t.id,
        t.name,
        t.description,
        t.default_visibility.as_str(),
        t.created_at,
        t.updated_at
    ])?;
    Ok(())
}

/// Deletes the owner's team `id` and its memberships; how many members it had.
pub fn delete(conn: &Connection, owner: &str, id: &str) -> Result<usize> {
    let members = conn
        .prepare_cached("DELETE FROM team_members WHERE owner = ?1 AND team_id = ?2")?
        .execute(params![owner, id])?;
    conn.prepare_cached("DELETE FROM teams WHERE owner = ?1 AND id = ?2")?
        .execute(params![owner, id])?;
    Ok(members)
}

/// The members of the owner's team `id`, in the order they joined.
pub fn members(conn: &Connection, owner: &str, id: &str) -> Result<Vec<TeamMember>> {
    let mut stmt = conn.prepare_cached(
        "SELECT team_id, agent_id, role, joined_at FROM team_members \
         WHERE owner = ?1 AND team_id = ?2 ORDER BY joined_at, agent_id",
    )?;
    let rows = stmt.query_map(params![owner, id], member)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Adds a member to the owner's team.
pub fn add_member(conn: &Connection, owner: &str, m: &TeamMember) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO team_members (owner, team_id, agent_id, role, joined_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![owner, m.team_id, m.agent_id, m.role.as_str(), m.joined_at])?;
    Ok(())
}

/// Removes a member from the owner's team; whether it was one.
pub fn remove_member(conn: &Connection, owner: &str, team: &str, agent: &str) -> Result<bool> {
    let n = conn
        .prepare_cached(
            "DELETE FROM team_members WHERE owner = ?1 AND team_id = ?2 AND agent_id = ?3",
        )?
        .execute(params![owner, team, agent])?;
    Ok(n > 0)
}

/// The owner's teams `agent` belongs to.
pub fn teams_of(conn: &Connection, owner: &str, agent: &str) -> Result<BTreeSet<String>> {
    let mut stmt =
        conn.prepare_cached("SELECT team_id FROM team_members WHERE owner = ?1 AND agent_id = ?2")?;
    let rows = stmt.query_map(params![owner, agent], |r| r.get(0))?;
    Ok(rows
        .collect::<rusqlite::Result<Vec<String>>>()?
        .into_iter()
        .collect_set())
}
