//! Chat transcripts: text whose lines open with a role label (`User: …` / `Assistant: …`, as
//! agent frameworks capture an exchange). Only the user's turns say anything about the user and
//! their world; the assistant's answers, questions and pleasantries are not memories.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::lexicon::{AGENT_ROLES, USER_ROLES};

/// One message of a conversation, tagged with who said it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
#[schemars(extend("required" = ["role", "content"]))]
pub struct ChatMessage {
    /// `user` (also `human`, `me`), or the agent's side: `assistant`, `ai`, `bot`, `agent`,
    /// `model`, `system`, `tool`.
    pub role: String,
    /// What was said: not blank.
    #[schemars(length(min = 1))]
    pub content: String,
}

/// Role-tagged messages as the transcript text the extractor reads (`User: …` lines).
pub fn from_messages(messages: &[ChatMessage]) -> Result<String> {
    if messages.is_empty() {
        return Err(Error::invalid("messages", "give at least one message"));
    }
    let mut text = String::new();
    for (i, m) in messages.iter().enumerate() {
        let role = m.role.trim().to_lowercase();
        let label = if USER_ROLES.contains(&role.as_str()) {
            "User"
        } else if AGENT_ROLES.contains(&role.as_str()) {
            "Assistant"
        } else {
            return Err(Error::invalid(
                format!("messages[{i}].role"),
                format!(
                    "{:?} is not a role; give user, or the agent's side (assistant, system, tool, …)",
                    m.role
                ),
            ));
        };
        if m.content.trim().is_empty() {
            return Err(Error::invalid(
                format!("messages[{i}].content"),
                "is empty; give what was said",
            ));
        }
        // A message's own lines stay inside its turn: none can pose as another speaker.
        let body = m
            .content
            .lines()
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ");
        text.push_str(&format!("{label}: {body}\n"));
    }
    Ok(text)
}

/// Who spoke a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Agent,
}

/// The role a line opens with (`User:`, `**Assistant:**`, `[user]:` …) and the rest of it.
fn role_label(line: &str) -> Option<(Role, &str)> {
    let trimmed = line.trim_start();
    let (label, rest) = trimmed.split_once(':')?;
    let label = label
        .trim()
        .trim_matches(|c: char| matches!(c, '*' | '_' | '[' | ']' | '#' | '>' | '-'))
        .trim()
        .to_lowercase();
    let rest = rest.trim_start_matches(['*', '_']);
    if USER_ROLES.contains(&label.as_str()) {
        Some((Role::User, rest))
    } else if AGENT_ROLES.contains(&label.as_str()) {
        Some((Role::Agent, rest))
    } else {
        None
    }
}

/// The turns of `text` when it is a transcript (some line opens with a role label), in order;
/// `None` for any other text. Text before the first label counts as the user's.
pub fn turns(text: &str) -> Option<Vec<(Role, String)>> {
    let mut turns: Vec<(Role, String)> = Vec::new();
    let mut labelled = false;
    for line in text.lines() {
        match role_label(line) {
            Some((role, rest)) => {
                labelled = true;
                turns.push((role, rest.trim().to_string()));
            }
            None => match turns.last_mut() {
                Some((_, turn)) => {
                    turn.push('\n');
                    turn.push_str(line);
                }
                None => turns.push((Role::User, line.to_string())),
            },
        }
    }
    labelled.then_some(turns)
}

/// What the user said in a transcript, turn by turn (the agent's turns left out).
pub fn user_turns(text: &str) -> Option<Vec<String>> {
    turns(text).map(|t| {
        t.into_iter()
            .filter(|(role, turn)| *role == Role::User && !turn.trim().is_empty())
            .map(|(_, turn)| turn.trim().to_string())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_keeps_only_the_users_turns() {
        let t = "User: I just started at Stripe as a data engineer.\n\nAssistant: Congratulations! How can I help today?\nAnything else?\n\nUser: Remind me to call Ines tomorrow.";
        assert_eq!(
            user_turns(t).unwrap(),
            vec![
                "I just started at Stripe as a data engineer.",
                "Remind me to call Ines tomorrow."
            ]
        );
        assert_eq!(
            user_turns("**Human:** I live in Porto\n**AI:** Nice!").unwrap(),
            vec!["I live in Porto"]
        );
        // An assistant-only capture has nothing of the user's.
        assert!(user_turns("Assistant: How can I help today?")
            .unwrap()
            .is_empty());
    }

    #[test]
    fn other_text_is_not_a_transcript() {
        assert_eq!(turns("Caroline: I went to a support group."), None);
        assert_eq!(turns("Note: the boiler is serviced in May."), None);
        assert_eq!(turns("I like tea. Time: 9:30"), None);
        assert_eq!(turns(""), None);
    }
}
