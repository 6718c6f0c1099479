//! Named entities without a model: capitalised runs and gazetteer phrases, typed by the
//! gazetteers, by their last word ("… University", "… Park", "… Summit") and by the words
//! before them ("in Porto", "at Acme", "using Figma", "my dog Biscuit").

use super::words::Token;
use crate::graph::EntityType;
use crate::lexicon::{
    common, ACRONYMS, AFTER_NAMES, AMBIGUOUS, BETWEEN_NAME_AND_VERB, CONCEPTS, CONNECTORS,
    DEMONYMS, DETERMINERS, EVENTS, EVENT_SUFFIXES, LANGUAGE_CUES, LOCATIONS, ORGANIZATIONS,
    ORG_PREFIXES, ORG_SUFFIXES, PETS, PLACE_SUFFIXES, PRODUCTS, TITLES_FOR_NAMES, TRAVEL,
};

/// An entity a sentence names, and where: tokens `start..end`.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub name: String,
    pub kind: EntityType,
    pub start: usize,
    pub end: usize,
}

fn gazetteer(phrase: &str) -> Option<EntityType> {
    [
        (&*ORGANIZATIONS, EntityType::Organization),
        (&*PRODUCTS, EntityType::Product),
        (&*LOCATIONS, EntityType::Location),
        (&*CONCEPTS, EntityType::Concept),
        (&*EVENTS, EntityType::Event),
    ]
    .iter()
    .find(|(list, _)| list.contains(&phrase))
    .map(|(_, kind)| *kind)
}

/// The longest gazetteer phrase starting at token `i` (up to four words): its length and type.
fn gazetteer_at(tokens: &[Token], i: usize) -> Option<(usize, EntityType)> {
    for n in (1..=4).rev() {
        if i + n > tokens.len() || tokens[i..i + n].iter().any(|t| t.punct) {
            continue;
        }
        let phrase = tokens[i..i + n]
            .iter()
            .map(|t| t.lower.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(kind) = gazetteer(&phrase) {
            let capitalised = tokens[i].capital;
            if capitalised || !(AMBIGUOUS.contains(&phrase.as_str()) || common(&phrase)) {
                return Some((n, kind));
            }
        }
    }
    None
}

/// A word that can be (part of) a name: capitalised, not a pronoun or chat acronym, and not
/// a common word opening the sentence.
fn name_word(tokens: &[Token], i: usize) -> bool {
    let t = &tokens[i];
    if t.punct || !t.capital || ACRONYMS.contains(&t.lower.as_str()) {
        return false;
    }
    let first = tokens[..i].iter().all(|t| t.punct);
    if !common(&t.lower) {
        return true;
    }
    // A common word starts a longer name mid-sentence ("Project Halcyon", "Lincoln High").
    let determiner = DETERMINERS.contains(&t.lower.as_str());
    let next_capital = tokens
        .get(i + 1)
        .is_some_and(|n| n.capital && !n.punct && !common(&n.lower));
    !first && !determiner && next_capital && t.text.chars().skip(1).all(|c| c.is_lowercase())
}

/// A capitalised word opening the sentence that reads as an ordinary word ("Moved to Leeds",
/// "Hotels only"): a name there is followed by a verb, a possessive, "and" or a comma.
fn opener_not_name(tokens: &[Token], i: usize) -> bool {
    if !tokens[..i].iter().all(|t| t.punct) {
        return false;
    }
    let w = &tokens[i].lower;
    if TITLES_FOR_NAMES.contains(&w.as_str())
        || tokens.get(i + 1).is_some_and(|t| t.capital && !t.punct)
    {
        return false;
    }
    if w.ends_with("ed") || w.ends_with("ing") || w.ends_with("ly") {
        return true;
    }
    if w.ends_with("'s") {
        return false;
    }
    // An adverb between the name and its verb ("Rui now works") passes the question on.
    let after = |k: usize| tokens.get(k).map_or("", |t| t.lower.as_str());
    let next = match after(i + 1) {
        w if BETWEEN_NAME_AND_VERB.contains(&w) => after(i + 2),
        w => w,
    };
    let verb = next.len() > 2
        && (next.ends_with('s') && !next.ends_with("ss") || next.ends_with("ed"))
        || AFTER_NAMES.contains(&next);
    !verb
}

/// The type the words around a name give it.
fn kind_by_context(tokens: &[Token], start: usize, end: usize) -> EntityType {
    let words: Vec<&str> = tokens[start..end]
        .iter()
        .map(|t| t.lower.as_str())
        .collect();
    let last = words.last().copied().unwrap_or("");
    let last = last.trim_end_matches("'s");
    if let Some(kind) = gazetteer(&words.join(" ")) {
        return kind;
    }
    if ORG_SUFFIXES.contains(&last) {
        return EntityType::Organization;
    }
    if PLACE_SUFFIXES.contains(&last) && end - start > 1 {
        return EntityType::Location;
    }
    if EVENT_SUFFIXES.contains(&last) && end - start > 1 {
        return EntityType::Event;
    }
    if TITLES_FOR_NAMES.contains(&words[0]) && words[0] != "st" {
        return EntityType::Person;
    }
    if ORG_PREFIXES.contains(&words[0]) && end - start > 1 {
        return EntityType::Organization;
    }
    let before = |k: usize| {
        start
            .checked_sub(k)
            .and_then(|i| tokens.get(i))
            .map_or("", |t| t.lower.as_str())
    };
    if PETS.contains(&before(1)) && matches!(before(2), "my" | "our" | "his" | "her" | "their") {
        return EntityType::Other;
    }
    if before(1) == "to" {
        return if TRAVEL.contains(&before(2)) || TRAVEL.contains(&before(3)) {
            EntityType::Location
        } else {
            EntityType::Person
        };
    }
    match before(1) {
        "flying" | "flew" | "fly" | "with" if words.len() == 1 && before(1) != "with" => {
            EntityType::Organization
        }
        "in" | "from" | "near" | "visit" | "visited" | "visiting" | "around" | "outside"
        | "across" | "through" | "towards" | "toward" | "into" => EntityType::Location,
        "at" | "for" | "joined" | "joining" | "join" => EntityType::Organization,
        "use" | "using" | "uses" | "used" | "installed" | "on" => EntityType::Product,
        _ => {
            if words.iter().any(|w| w.chars().any(|c| c.is_ascii_digit())) {
                EntityType::Other
            } else {
                EntityType::Person
            }
        }
    }
}

/// The entities a sentence names, in order.
pub fn find(tokens: &[Token]) -> Vec<Found> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if let Some((n, kind)) = gazetteer_at(tokens, i) {
            // "half Japanese": a nationality, not the language.
            let before = i.checked_sub(1).map_or("", |k| tokens[k].lower.as_str());
            if n == 1
                && DEMONYMS.contains(&tokens[i].lower.as_str())
                && !LANGUAGE_CUES.contains(&before)
            {
                i += 1;
                continue;
            }
            // A gazetteer phrase inside a longer capitalised name is left to the name.
            let longer = tokens[i].capital && i + n < tokens.len() && name_word(tokens, i + n);
            if !longer {
                out.push(found(tokens, i, i + n, Some(kind)));
                i += n;
                continue;
            }
        }
        if !name_word(tokens, i) || opener_not_name(tokens, i) {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i + 1;
        loop {
            let t = tokens.get(end);
            match t {
                Some(t)
                    if t.lower == "."
                        && TITLES_FOR_NAMES.contains(&tokens[end - 1].lower.as_str()) =>
                {
                    end += 1;
                }
                Some(t) if !t.punct && t.capital && name_word(tokens, end) => end += 1,
                Some(t)
                    if CONNECTORS.contains(&t.lower.as_str())
                        && tokens.get(end + 1).is_some_and(|n| n.capital && !n.punct)
                        && t.lower != "and" =>
                {
                    end += 2
                }
                Some(t) if t.lower.chars().all(|c| c.is_ascii_digit()) && t.lower.len() == 4 => {
                    end += 1
                }
                _ => break,
            }
        }
        // A lone title ("Dr.") is no name.
        while end > start && tokens[end - 1].punct {
            end -= 1;
        }
        let last = tokens[end - 1].lower.as_str();
        if end > start && !DEMONYMS.contains(&last) {
            out.push(found(tokens, start, end, None));
        }
        i = end.max(start + 1);
    }
    out
}

fn found(tokens: &[Token], start: usize, end: usize, kind: Option<EntityType>) -> Found {
    let mut name = String::new();
    for (k, t) in tokens[start..end].iter().enumerate() {
        if k > 0 && t.lower != "." {
            name.push(' ');
        }
        name.push_str(&t.text);
    }
    let kind = kind.unwrap_or_else(|| kind_by_context(tokens, start, end));
    // "Ana's", "Ahmed Rahimi's" name people; "St. Mary's" and "Trader Joe's" keep theirs.
    if end - start == 1 || kind == EntityType::Person {
        if let Some(stem) = name.strip_suffix("'s") {
            name = stem.to_string();
        }
    }
    Found {
        kind,
        name,
        start,
        end,
    }
}

#[cfg(test)]
mod tests {
    use super::super::words::tokens;
    use super::*;

    fn names(s: &str) -> Vec<(String, EntityType)> {
        find(&tokens(s))
            .into_iter()
            .map(|f| (f.name, f.kind))
            .collect()
    }

    #[test]
    fn people_places_organisations_products() {
        use EntityType::*;
        assert_eq!(
            names("My sister Ana lives in Porto and works at Google"),
            [
                ("Ana".into(), Person),
                ("Porto".into(), Location),
                ("Google".into(), Organization)
            ]
        );
        assert_eq!(
            names("I work nights at St. Mary's Hospital"),
            [("St. Mary's Hospital".into(), Organization)]
        );
        assert_eq!(
            names("we use Figma and vs code"),
            [("Figma".into(), Product), ("vs code".into(), Product)]
        );
        assert_eq!(names("I'm learning korean"), [("korean".into(), Concept)]);
        assert_eq!(
            names("my dog Biscuit hates rain"),
            [("Biscuit".into(), Other)]
        );
        assert_eq!(
            names("Going to PyCon 2026 in Pittsburgh"),
            [("PyCon".into(), Event), ("Pittsburgh".into(), Location)]
        );
        assert_eq!(
            names("Dr. Okafor said I'm fine"),
            [("Dr. Okafor".into(), Person)]
        );
        assert_eq!(
            names("Ana's birthday is on Friday"),
            [("Ana".into(), Person)]
        );
    }

    #[test]
    fn sentence_openers_and_acronyms_are_not_names() {
        assert!(names("Yesterday I was tired").is_empty());
        assert!(names("Thanks, TBH I'm OK").is_empty());
        assert!(names("My mom called").is_empty());
        assert!(names("i like tea").is_empty());
        // An adverb does not hide the verb after a name, nor make an ordinary opener one.
        assert_eq!(names("Rui now works at EDP")[0].0, "Rui");
        assert_eq!(names("Ana still lives in Porto")[0].0, "Ana");
        assert!(names("Really now").is_empty());
    }
}
