//! Graph queries: entities, relationships with their strength, a breadth-first
//! traversal and the shortest path between two entities, all within one owner.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use super::sight::Sight;
use super::sql::{self, EntityRow, RelationRow};
use super::{key, strength, EntityType, Relation};
use crate::clock::Millis;
use crate::error::{Error, Result};
use crate::field::{Id, Limit, Owner};
use crate::order::Keyed;
use crate::store::View;

/// Deepest traversal or path.
pub const MAX_DEPTH: usize = 5;
/// Default depth of a traversal.
const DEFAULT_DEPTH: usize = 2;
/// Default page size of entity and relationship lists.
const DEFAULT_LIMIT: usize = 50;

/// An entity of an owner's graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Entity {
    /// The entity's name, as first stated.
    pub name: String,
    /// What sort of entity it is.
    #[serde(rename = "type")]
    pub entity_type: EntityType,
    /// Other names it goes by ("Ana" for "Ana Souza").
    pub aliases: Vec<String>,
    /// Memories that named it.
    pub mentions: i64,
    /// When a memory first named it, in milliseconds since the Unix epoch.
    pub first_seen: Millis,
    /// When a memory last named it, in milliseconds since the Unix epoch.
    pub last_seen: Millis,
}

/// A relationship `from relation to` with its evidence and strength.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Relationship {
    /// The entity the relationship goes from.
    pub from: String,
    /// The relation.
    pub relation: Relation,
    /// The entity it goes to.
    pub to: String,
    /// Memories that stated it.
    pub evidence: i64,
    /// Mean confidence of those statements.
    pub confidence: f64,
    /// 0.4·(1 − 1/(1+evidence)) + 0.3·recency + 0.3·confidence, as of now.
    pub strength: f64,
    /// The reverse of a stated bidirectional relationship, not stated itself.
    pub inferred: bool,
    /// When it was first stated, in milliseconds since the Unix epoch.
    pub first_seen: Millis,
    /// When it was last stated, in milliseconds since the Unix epoch.
    pub last_seen: Millis,
}

/// Filters and paging for [`Engine::entities`](crate::Engine::entities).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntitiesRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees what its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of say — entities they name, relationships they
    /// state, counted from them (default none: the owner's whole graph).
    pub agent_id: Option<Id>,
    /// Only these types (any when empty).
    #[serde(default)]
    pub types: Vec<EntityType>,
    /// Only entities with a name or alias containing this (case-insensitive).
    pub query: Option<String>,
    /// Page size, 1 to 1,000 (default 50).
    pub limit: Option<Limit>,
    /// Entities to skip before the page starts (default 0).
    #[serde(default)]
    pub offset: usize,
}

impl EntitiesRequest {
    /// `owner`'s entities, every filter left to its default.
    pub fn new(owner: Owner) -> EntitiesRequest {
        EntitiesRequest {
            entity_id: owner,
            agent_id: None,
            types: Vec::new(),
            query: None,
            limit: None,
            offset: 0,
        }
    }
}

/// Filters for [`Engine::relationships`](crate::Engine::relationships).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelationshipsRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees what its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of say — entities they name, relationships they
    /// state, counted from them (default none: the owner's whole graph).
    pub agent_id: Option<Id>,
    /// Only relationships touching this entity (a name or alias).
    pub entity: Option<String>,
    /// Only these relations (any when empty).
    #[serde(default)]
    pub relations: Vec<Relation>,
    /// Drop relationships weaker than this (strength is 0 to 1; default none dropped).
    pub min_strength: Option<f64>,
    /// Leave out inferred reverse edges.
    #[serde(default)]
    pub stated_only: bool,
    /// At most this many, strongest first, 1 to 1,000 (default 50).
    pub limit: Option<Limit>,
}

impl RelationshipsRequest {
    /// `owner`'s relationships, every filter left to its default.
    pub fn new(owner: Owner) -> RelationshipsRequest {
        RelationshipsRequest {
            entity_id: owner,
            agent_id: None,
            entity: None,
            relations: Vec::new(),
            min_strength: None,
            stated_only: false,
            limit: None,
        }
    }
}

/// A breadth-first walk from one entity, for [`Engine::traverse`](crate::Engine::traverse).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraverseRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees what its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of say — entities they name, relationships they
    /// state, counted from them (default none: the owner's whole graph).
    pub agent_id: Option<Id>,
    /// Where to start (a name or alias; `user` is the owner).
    pub from: String,
    /// Hops to walk, 1 to 5 (default 2).
    #[schemars(range(min = 1, max = MAX_DEPTH))]
    pub depth: Option<usize>,
    /// Follow only these relations (any when empty).
    #[serde(default)]
    pub relations: Vec<Relation>,
    /// Follow only relationships at least this strong (strength is 0 to 1; default any).
    pub min_strength: Option<f64>,
}

impl TraverseRequest {
    /// A walk of `owner`'s graph from the entity `from`, every option left to its default.
    pub fn new(owner: Owner, from: impl Into<String>) -> TraverseRequest {
        TraverseRequest {
            entity_id: owner,
            agent_id: None,
            from: from.into(),
            depth: None,
            relations: Vec::new(),
            min_strength: None,
        }
    }
}

/// One entity reached by a traversal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Node {
    /// The entity's name.
    pub name: String,
    /// What sort of entity it is.
    #[serde(rename = "type")]
    pub entity_type: EntityType,
    /// Hops from the start.
    pub depth: usize,
}

/// What a traversal reached: nodes in the order found, and the edges followed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Traversal {
    /// The entities reached, the start first, in the order reached.
    pub nodes: Vec<Node>,
    /// The relationships walked.
    pub edges: Vec<Relationship>,
}

/// The shortest path between two entities, for [`Engine::path`](crate::Engine::path).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees what its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of say — entities they name, relationships they
    /// state, counted from them (default none: the owner's whole graph).
    pub agent_id: Option<Id>,
    /// The entity to start from (a name or alias; `user` is the owner).
    pub from: String,
    /// The entity to reach (a name or alias).
    pub to: String,
    /// Longest path looked for, in hops, 1 to 5 (default 5).
    #[schemars(range(min = 1, max = MAX_DEPTH))]
    pub max_depth: Option<usize>,
}

/// A path: its relationships in order from `from` to `to` (each as stored, so an edge may
/// point back along the path); empty and `found: false` when none is within reach.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GraphPath {
    /// Whether a path was found within `max_depth` hops.
    pub found: bool,
    /// The relationships of the path, from `from` to `to` (empty when none was found).
    pub hops: Vec<Relationship>,
}

fn depth(field: &str, v: Option<usize>, default: usize) -> Result<usize> {
    match v.unwrap_or(default) {
        d @ 1..=MAX_DEPTH => Ok(d),
        d => Err(Error::invalid(
            field,
            format!("{d} is not between 1 and {MAX_DEPTH}"),
        )),
    }
}

fn min_strength(v: Option<f64>) -> Result<f64> {
    match v {
        Some(s) if !s.is_finite() => Err(Error::invalid("min_strength", "must be a finite number")),
        Some(s) => Ok(s),
        None => Ok(f64::NEG_INFINITY),
    }
}

/// The entity a name or alias stands for (one the caller knows by it).
pub(super) fn entity_named(
    sight: &mut Sight,
    owner: &str,
    field: &str,
    name: &str,
) -> Result<EntityRow> {
    let k = super::name_key(name)
        .ok_or_else(|| Error::invalid(field, "give an entity's name or alias"))?;
    sight
        .by_key(owner, &k)?
        .ok_or_else(|| Error::UnknownEntity {
            entity_id: owner.to_string(),
            name: name.chars().take(64).collect(),
        })
}

pub(super) fn relationship(r: RelationRow, now: Millis) -> Relationship {
    let confidence = if r.evidence > 0 {
        r.confidence_sum / r.evidence as f64
    } else {
        0.0
    };
    Relationship {
        strength: strength(r.evidence, confidence, r.last_seen, now),
        from: r.from,
        relation: r.relation,
        to: r.to,
        evidence: r.evidence,
        confidence,
        inferred: r.inferred,
        first_seen: r.first_seen,
        last_seen: r.last_seen,
    }
}

/// An owner's entities, most mentioned first.
pub(crate) fn entities(view: &View, owner: &Owner, req: &EntitiesRequest) -> Result<Vec<Entity>> {
    let limit = Limit::or(req.limit, DEFAULT_LIMIT);
    let q = req.query.as_deref().map(key).filter(|q| !q.is_empty());
    let mut sight = Sight::of(view);
    let rows = if sight.is_narrowed() {
        let mut rows = Vec::new();
        for e in sight.entities(owner, &req.types)? {
            let named = match q.as_deref() {
                Some(q) => sight.names(&e)?.is_some_and(|n| n.matches(q)),
                None => true,
            };
            if named {
                rows.push(e);
            }
        }
        rows.into_iter().skip(req.offset).take(limit).collect()
    } else {
        sql::entities(
            view.conn(),
            owner,
            &req.types,
            q.as_deref(),
            limit,
            req.offset,
        )?
    };
    let mut out = Vec::with_capacity(rows.len());
    for e in rows {
        let Some(names) = sight.names(&e)? else {
            continue;
        };
        out.push(Entity {
            name: names.name,
            aliases: names.aliases,
            entity_type: e.kind,
            mentions: e.mentions,
            first_seen: e.first_seen,
            last_seen: e.last_seen,
        });
    }
    Ok(out)
}

/// An owner's relationships (or one entity's), strongest first.
pub(crate) fn relationships(
    view: &View,
    owner: &Owner,
    req: &RelationshipsRequest,
) -> Result<Vec<Relationship>> {
    let limit = Limit::or(req.limit, DEFAULT_LIMIT);
    let floor = min_strength(req.min_strength)?;
    let mut sight = Sight::of(view);
    let pk = match &req.entity {
        Some(name) => Some(entity_named(&mut sight, owner, "entity", name)?.pk),
        None => None,
    };
    let now = view.now()?;
    let mut out: Vec<Relationship> = sight
        .relationships(owner, pk)?
        .into_iter()
        .filter(|r| req.relations.is_empty() || req.relations.contains(&r.relation))
        .filter(|r| !(req.stated_only && r.inferred))
        .map(|r| relationship(r, now))
        .filter(|r| r.strength >= floor)
        .collect();
    // Stable: equal strengths keep the order they were first stated in.
    crate::order::sort_by(&mut out, |a, b| b.strength.total_cmp(&a.strength));
    out.truncate(limit);
    Ok(out)
}

/// Adjacency of an owner's graph: for each entity, its relationships either way, in the
/// order they were first stated.
fn adjacency(
    sight: &mut Sight,
    owner: &str,
    relations: &[Relation],
    floor: f64,
    now: Millis,
) -> Result<Keyed<i64, Vec<(i64, Relationship)>>> {
    let mut adj: Keyed<i64, Vec<(i64, Relationship)>> = Keyed::new();
    for r in sight.relationships(owner, None)? {
        if !(relations.is_empty() || relations.contains(&r.relation)) {
            continue;
        }
        let (a, b) = (r.from_pk, r.to_pk);
        let rel = relationship(r, now);
        if rel.strength < floor {
            continue;
        }
        adj.or_default(a).push((b, rel.clone()));
        adj.or_default(b).push((a, rel));
    }
    Ok(adj)
}

/// Breadth-first from an entity, up to `depth` hops, along relationships either way.
pub(crate) fn traverse(view: &View, owner: &Owner, req: &TraverseRequest) -> Result<Traversal> {
    let max = depth("depth", req.depth, DEFAULT_DEPTH)?;
    let floor = min_strength(req.min_strength)?;
    let mut sight = Sight::of(view);
    let start = entity_named(&mut sight, owner, "from", &req.from)?;
    let now = view.now()?;
    let adj = adjacency(&mut sight, owner, &req.relations, floor, now)?;
    let mut depth_of: BTreeMap<i64, usize> = BTreeMap::from([(start.pk, 0)]);
    let mut order = vec![start.pk];
    let mut edges = Vec::new();
    let mut queue = VecDeque::from([start.pk]);
    while let Some(at) = queue.pop_front() {
        let d = depth_of[&at];
        if d == max {
            continue;
        }
        for (next, rel) in adj.get(&at).into_iter().flatten() {
            if !depth_of.contains_key(next) {
                depth_of.insert(*next, d + 1);
                order.push(*next);
                queue.push_back(*next);
                edges.push(rel.clone());
            }
        }
    }
    let mut nodes = Vec::with_capacity(order.len());
    for pk in order {
        let e = sql::entity(view.conn(), pk)?;
        nodes.push(Node {
            name: sight.names(&e)?.map_or(e.name, |n| n.name),
            entity_type: e.kind,
            depth: depth_of[&pk],
        });
    }
    Ok(Traversal { nodes, edges })
}

/// The shortest path between two entities (fewest hops; ties go to the relationships
/// stated first).
pub(crate) fn path(view: &View, owner: &Owner, req: &PathRequest) -> Result<GraphPath> {
    let max = depth("max_depth", req.max_depth, MAX_DEPTH)?;
    let mut sight = Sight::of(view);
    let from = entity_named(&mut sight, owner, "from", &req.from)?;
    let to = entity_named(&mut sight, owner, "to", &req.to)?;
    let now = view.now()?;
    let adj = adjacency(&mut sight, owner, &[], f64::NEG_INFINITY, now)?;
    let mut parent: Keyed<i64, Option<(i64, Relationship)>> = Keyed::new();
    parent.insert(from.pk, None);
    let mut queue = VecDeque::from([(from.pk, 0usize)]);
    while let Some((at, d)) = queue.pop_front() {
        if at == to.pk {
            let mut hops = Vec::new();
            let mut cur = at;
            while let Some(Some((prev, rel))) = parent.get(&cur) {
                hops.push(rel.clone());
                cur = *prev;
            }
            hops.reverse();
            return Ok(GraphPath { found: true, hops });
        }
        if d == max {
            continue;
        }
        for (next, rel) in adj.get(&at).into_iter().flatten() {
            if !parent.contains_key(next) {
                parent.insert(*next, Some((at, rel.clone())));
                queue.push_back((*next, d + 1));
            }
        }
    }
    Ok(GraphPath {
        found: false,
        hops: Vec::new(),
    })
}
