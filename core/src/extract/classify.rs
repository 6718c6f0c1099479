//! What a statement is: its memory type (from weighted cue phrases), kind, hedging and
//! importance.

use super::words::{has, has_any, Token};
use crate::model::{Kind, MemoryType};

/// Cue phrases and their weight for each type; the type with the highest sum wins.
const CUES: &[(MemoryType, f64, &[&str])] = &[
    (
        MemoryType::Identity,
        3.0,
        &[
            "my name is",
            "my name's",
            "i'm called",
            "call me",
            "i go by",
            "i'm * years old",
            "i was born",
            "i grew up",
            "grew up in",
            "i'm from",
            "i am from",
            "i come from",
            "i work as",
            "i'm allergic",
            "i am allergic",
            "allergic to",
            "my pronouns",
            "i have adhd",
            "i have diabetes",
            "i have asthma",
            "i'm diabetic",
            "i'm autistic",
            "i'm deaf",
            "i'm blind",
            "i'm vegan",
            "i'm vegetarian",
            "i'm an introvert",
            "i'm an extrovert",
            "i'm left-handed",
            "by profession",
            "for a living",
            "my background is",
            "i'm a native",
            "native speaker",
            "i'm lactose intolerant",
            "i'm celiac",
            "i have celiac",
            "i'm retired",
            "i'm single",
            "i'm pregnant",
            "i'm colorblind",
            "i was raised",
            "diabetes",
            "adhd",
            "autism",
            "autistic",
            "intolerant",
            "diagnosis",
            "diagnosed",
            "dyslexic",
            "dyslexia",
            "celiac",
            "i'm muslim",
            "i'm christian",
            "i'm jewish",
            "i'm hindu",
            "i'm buddhist",
            "i'm atheist",
            "i'm catholic",
            "phd student",
            "student at",
            "freelance",
            "by the way i'm",
        ],
    ),
    (
        MemoryType::Identity,
        2.0,
        &[
            "i'm a",
            "i am a",
            "i'm an",
            "i am an",
            "i've been a",
            "i have been a",
            "my job",
            "my degree",
            "i studied",
            "i graduated",
            "i'm a citizen",
            "my birthday is",
            "i identify",
            "as a nurse",
            "as a developer",
            "as a teacher",
            "i'm married",
            "i'm divorced",
            "i work",
            "i teach",
            "i run a",
            "i'm working as",
            "i'm employed",
        ],
    ),
    (
        MemoryType::Preference,
        3.0,
        &[
            "i prefer",
            "i'd prefer",
            "i would prefer",
            "i'd rather",
            "i would rather",
            "i like",
            "i love",
            "i enjoy",
            "i hate",
            "i dislike",
            "i can't stand",
            "i cant stand",
            "i don't like",
            "i dont like",
            "i do not like",
            "my favorite",
            "my favourite",
            "i'm a fan of",
            "i'm a big fan",
            "i'm not a fan",
            "i'm not into",
            "i'm into",
            "i adore",
            "i don't eat",
            "i don't drink",
            "i never drink",
            "i never eat",
            "i can't handle",
            "please keep",
            "please don't",
            "please always",
            "please use",
            "please avoid",
            "please stop",
            "keep your answers",
            "keep answers",
            "keep it short",
            "i'd like you to",
            "i want you to",
            "don't call me",
            "don't ever",
            "i despise",
            "i'm obsessed with",
            "i always use",
            "i only use",
            "i mostly use",
            "i usually use",
            "i swear by",
            "go-to",
            "i'm not big on",
            "i'm big on",
            "drives me crazy",
            "not my thing",
            "i'm picky",
            "i like to",
            "i love to",
            "i tend to",
            "i usually",
            "i always",
            "i never",
            "favorite",
            "favourite",
            "not a fan",
            "fan of",
            "i'm more of a",
            "person",
            "i don't really",
            "don't like",
            "i don't need",
            "be blunt",
            "i'd love",
            "too much",
            "only please",
        ],
    ),
    (
        MemoryType::Preference,
        1.5,
        &[
            "prefer",
            "rather than",
            "instead of",
            "please",
            "pls",
            "i use",
            "i'm using",
            "over",
            "switched to",
            "love",
            "hate",
            "annoying",
            "too spicy",
            "too sweet",
            "anymore",
            "no longer",
            "can't stand",
        ],
    ),
    (
        MemoryType::Relationship,
        2.5,
        &[
            "my sister",
            "my brother",
            "my mom",
            "my mum",
            "my mother",
            "my dad",
            "my father",
            "my parents",
            "my wife",
            "my husband",
            "my spouse",
            "my partner",
            "my boyfriend",
            "my girlfriend",
            "my fiancé",
            "my fiance",
            "my fiancée",
            "my fiancee",
            "my son",
            "my daughter",
            "my kids",
            "my kid",
            "my children",
            "my child",
            "my baby",
            "my twins",
            "my friend",
            "my best friend",
            "my bestie",
            "my buddy",
            "my boss",
            "my manager",
            "my supervisor",
            "my coworker",
            "my co-worker",
            "my colleague",
            "my teammate",
            "my roommate",
            "my flatmate",
            "my neighbor",
            "my neighbour",
            "my cousin",
            "my aunt",
            "my uncle",
            "my grandma",
            "my grandmother",
            "my grandpa",
            "my grandfather",
            "my grandparents",
            "my niece",
            "my nephew",
            "my mentor",
            "my mentee",
            "my therapist",
            "my doctor",
            "my dog",
            "my cat",
            "my pet",
            "my puppy",
            "my kitten",
            "my ex",
            "my in-laws",
            "my mother-in-law",
            "my father-in-law",
            "my stepmom",
            "my stepdad",
            "my landlord",
            "my client",
            "my clients",
            "my tutor",
            "my coach",
            "my teacher",
            "my professor",
            "my students",
            "my report",
            "my direct report",
            "my intern",
            "my godmother",
            "my godfather",
            "my stepson",
            "my stepdaughter",
            "my sibling",
            "my siblings",
            "my grandson",
            "my granddaughter",
            "my grandkids",
            "my twin",
        ],
    ),
    (MemoryType::Relationship, 1.5, &["is my", "are my"]),
    (
        MemoryType::Relationship,
        2.5,
        &[
            "married to",
            "engaged to",
            "dating",
            "going out with",
            "we've been together",
            "been together",
            "we got married",
            "my family",
            "friends with",
            "best friends",
            "reports to",
            "i report to",
            "i manage",
            "i mentor",
            "mentors me",
            "we're neighbors",
            "we're cousins",
            "is my manager",
            "split up",
            "broke up",
            "i live with",
            "lives with me",
            "we adopted",
            "my team",
            "member of",
            "mentoring me",
            "mentored me",
            "go way back",
            "grandson",
            "granddaughter",
            "i have two",
            "i have a dog",
            "i have a cat",
            "living in",
            "i live in",
            "we live in",
            "based in",
        ],
    ),
    (
        MemoryType::Event,
        2.5,
        &[
            "yesterday",
            "last week",
            "last month",
            "last year",
            "last night",
            "last weekend",
            "ago",
            "we moved",
            "i moved",
            "got promoted",
            "i graduated",
            "got married",
            "passed away",
            "i quit",
            "got fired",
            "got laid off",
            "i finished",
            "i won",
            "we won",
            "i lost",
            "broke my",
            "i had a",
            "we had a",
            "i went to",
            "we went to",
            "i visited",
            "i met",
            "we met",
            "i started",
            "i bought",
            "we bought",
            "i sold",
            "i ran",
            "i completed",
            "i passed",
            "i failed",
            "i got",
            "we got",
            "i became",
            "happened",
            "last summer",
            "last winter",
            "last spring",
            "last fall",
            "last christmas",
            "i got back",
            "we got back",
            "i came back",
            "i left",
            "i celebrated",
            "we celebrated",
            "this morning i",
            "earlier today",
            "the other day",
            "i just got",
            "i just finished",
            "just turned",
            "finally",
            "defended",
            "back in",
            "i forgot",
        ],
    ),
    (
        MemoryType::Event,
        1.0,
        &["i was", "we were", "i did", "i used to", "i had", "we had"],
    ),
    (
        MemoryType::Activity,
        2.5,
        &[
            "i'm working on",
            "working on",
            "i've been working",
            "i've been learning",
            "i'm learning",
            "i'm studying",
            "i'm training",
            "training for",
            "i'm reading",
            "i've been reading",
            "i'm building",
            "i'm writing",
            "i'm practicing",
            "i'm practising",
            "i've been practicing",
            "these days",
            "lately",
            "currently",
            "i'm taking a",
            "i'm taking",
            "i've been",
            "i've started",
            "i have started",
            "i'm renovating",
            "i'm redoing",
            "i'm knitting",
            "i'm painting",
            "i'm making",
            "i'm doing",
            "i'm in the middle of",
            "i'm trying out",
            "i'm getting into",
            "i've gotten into",
            "i'm watching",
            "i'm playing",
            "i'm going through",
            "every morning",
            "every day",
            "every week",
            "each week",
            "most days",
            "on weekends",
            "i'm on a",
            "i'm teaching myself",
            "i've taken up",
            "i'm volunteering",
            "i volunteer",
            "i'm coaching",
            "i'm prepping",
            "i'm preparing",
            "i'm saving",
            "i'm running",
            "i'm cooking",
            "i'm experimenting",
            "interested in",
            "getting into",
            "teaching myself",
            "studying for",
            "training my",
            "class in",
            "streak",
            "collaborating",
        ],
    ),
    (
        MemoryType::Plan,
        2.5,
        &[
            "i need to",
            "i have to",
            "i've got to",
            "i gotta",
            "i must",
            "i should",
            "i want to",
            "i'd like to",
            "i would like to",
            "i plan to",
            "i'm planning",
            "planning to",
            "i'm going to",
            "i'm gonna",
            "gonna",
            "i will",
            "i'll",
            "remind me",
            "don't let me forget",
            "my goal",
            "goal is",
            "deadline",
            "due",
            "appointment",
            "i hope to",
            "i'm hoping to",
            "i intend to",
            "i'm thinking of",
            "thinking about",
            "i'm aiming",
            "i aim to",
            "on my to-do",
            "to-do list",
            "todo",
            "i'm supposed to",
            "need to",
            "have to",
            "we're going to",
            "we're planning",
            "we plan to",
            "we need to",
            "we will",
            "we'll",
            "scheduled",
            "booked",
            "i'm meeting",
            "meeting with",
            "interview",
            "flight",
            "i'm flying",
            "i'm leaving",
            "we're leaving",
            "next step",
            "by the end of",
            "i want to start",
            "i'm signing up",
            "i'll be",
            "is due",
            "renew",
            "going to",
            "at some point",
            "someday",
            "one day",
            "if i ever",
            "goal for",
            "i'd love to",
            "we're flying",
            "planning",
            "due date",
        ],
    ),
    (
        MemoryType::Context,
        3.0,
        &[
            "this chat",
            "this conversation",
            "this session",
            "for this",
            "let's focus",
            "lets focus",
            "let's talk",
            "let's start",
            "let's stick",
            "let's keep",
            "assume",
            "i'm asking because",
            "i'm asking",
            "the reason i ask",
            "reason i'm asking",
            "for context",
            "just so you know",
            "fyi",
            "going forward",
            "for the rest of",
            "in this thread",
            "back to",
            "as i said",
            "as i mentioned",
            "earlier you said",
            "you said",
            "you mentioned",
            "can you",
            "could you",
            "would you",
            "help me",
            "i need help",
            "i need your help",
            "let me know",
            "quick question",
            "a question",
            "my question",
            "in your answer",
            "in your answers",
            "answer in",
            "reply in",
            "respond in",
            "for now",
            "ignore",
            "use python",
            "we're discussing",
            "we were discussing",
            "this code",
            "this draft",
            "this email",
            "this project",
            "the above",
            "below is",
            "here's",
            "here is",
            "i'll paste",
            "pasting",
            "for the report",
            "for my report",
            "in this",
            "right now i'm trying",
            "i'm trying to figure",
            "i'm wondering",
            "what do you think",
            "any ideas",
            "any tips",
            "suggestions",
            "recommend",
            "can we",
            "should we",
            "start over",
            "i'll give you",
            "about to paste",
            "this is about",
            "we're talking about",
            "keep it",
            "quiz me",
            "explain",
            "context",
            "not mine",
            "look there",
            "walk me through",
            "this one",
            "for this one",
        ],
    ),
    (
        MemoryType::Ephemeral,
        3.0,
        &[
            "right now",
            "at the moment",
            "atm",
            "just now",
            "so tired",
            "i'm tired",
            "i'm so tired",
            "i'm hungry",
            "i'm starving",
            "i'm sleepy",
            "i'm bored",
            "i'm exhausted",
            "it's raining",
            "is raining",
            "it's snowing",
            "it's so hot",
            "it's freezing",
            "it's cold",
            "it's hot",
            "just grabbed",
            "just woke up",
            "just had",
            "just ate",
            "currently sitting",
            "i'm sitting",
            "i'm at the",
            "on my way",
            "running late",
            "i'm stuck in",
            "stuck in traffic",
            "my coffee",
            "this coffee",
            "brb",
            "today i feel",
            "i feel",
            "i'm feeling",
            "feeling",
            "my head hurts",
            "headache",
            "i'm cold",
            "i'm hot",
            "in a meeting",
            "on the train",
            "on the bus",
            "waiting for",
            "i'm in line",
            "power is out",
            "wifi is",
            "my battery",
            "phone is dying",
            "it's late",
            "so sleepy",
            "can't sleep",
            "cant sleep",
            "just got home",
            "just got back",
            "i'm home",
            "it's sunny",
            "beautiful day",
            "this weather",
            "the weather",
            "today is",
            "pouring",
            "degrees",
            "melting",
            "asleep",
            "sitting at",
            "sitting on",
            "eating",
            "waiting in",
            "waiting at",
            "layover",
            "up this late",
            "coming down with",
            "went out",
            "just got out",
            "fried",
            "so stressed",
            "stressed today",
            "blasting",
            "for the weekend",
            "right now it's",
            "i'm at my",
            "typing from",
            "running on",
        ],
    ),
];

/// Cues that weaken a statement's confidence, with how much each takes off.
const HEDGES: &[(&str, f64)] = &[
    ("i think", 0.2),
    ("i guess", 0.25),
    ("maybe", 0.3),
    ("probably", 0.2),
    ("perhaps", 0.3),
    ("might", 0.25),
    ("not sure", 0.35),
    ("i'm not sure", 0.35),
    ("kind of", 0.15),
    ("sort of", 0.15),
    ("kinda", 0.15),
    ("i believe", 0.15),
    ("possibly", 0.3),
    ("i suppose", 0.25),
    ("seems like", 0.2),
    ("could be", 0.25),
    ("likely", 0.15),
    ("apparently", 0.2),
    ("if i remember", 0.25),
    ("iirc", 0.25),
    ("i feel like", 0.15),
    ("not certain", 0.3),
    ("unsure", 0.35),
    ("i doubt", 0.3),
    ("hopefully", 0.15),
    ("idk", 0.3),
    ("i don't know", 0.3),
    ("i dunno", 0.3),
    ("or so", 0.1),
    ("ish", 0.1),
    ("roughly", 0.1),
    ("pretty sure", 0.1),
    ("i reckon", 0.2),
    ("thinking about", 0.2),
    ("thinking of", 0.2),
    ("considering", 0.2),
    ("may", 0.2),
    ("somewhat", 0.15),
];

/// The lowest confidence hedging brings a statement to.
const MIN_CONFIDENCE: f64 = 0.3;

/// Base importance of each type (identity and relationships matter longest), before the
/// adjustments in [`importance`].
fn base_importance(t: MemoryType) -> f64 {
    match t {
        MemoryType::Identity => 0.8,
        MemoryType::Relationship => 0.7,
        MemoryType::Plan => 0.65,
        MemoryType::Preference => 0.6,
        MemoryType::Event => 0.55,
        MemoryType::Activity => 0.5,
        MemoryType::Context => 0.3,
        MemoryType::Ephemeral => 0.2,
    }
}

/// Irregular past-tense verbs.
const PAST_VERBS: &[&str] = &[
    "went", "got", "had", "met", "saw", "bought", "sold", "left", "took", "made", "gave", "came",
    "ran", "flew", "became", "began", "threw", "won", "lost", "broke", "told", "said", "found",
    "felt", "kept", "spent", "paid", "wrote", "drove", "ate", "drank", "sang", "forgot", "did",
    "fell", "grew", "knew", "wore", "hit", "quit", "sent", "built", "caught", "taught", "brought",
];

/// "-ed" words that are usually adjectives or present forms, not past events.
const NOT_PAST: &[&str] = &[
    "need",
    "feed",
    "tired",
    "interested",
    "excited",
    "married",
    "bored",
    "used",
    "supposed",
    "based",
    "obsessed",
    "scared",
    "stressed",
    "worried",
    "engaged",
    "related",
    "retired",
    "divorced",
    "named",
    "called",
    "speed",
    "indeed",
    "seed",
    "exhausted",
    "overwhelmed",
    "allowed",
    "involved",
    "vaccinated",
    "diagnosed",
    "qualified",
    "skilled",
    "talented",
    "required",
    "red",
    "bed",
    "shed",
    "embed",
    "biased",
    "aged",
    "detailed",
    "advanced",
];

/// Words that say a statement is about the future, whatever verbs it uses.
const FUTURE: &[&str] = &[
    "will",
    "i'll",
    "we'll",
    "going to",
    "gonna",
    "next",
    "tomorrow",
    "need to",
    "have to",
    "plan",
    "planning",
    "want to",
    "would like",
    "due",
    "by",
    "until",
    "supposed to",
];

/// Whether a statement tells of the past: a past-tense verb not used as an adjective.
pub fn past_tense(tokens: &[Token]) -> bool {
    tokens.iter().enumerate().any(|(i, t)| {
        let w = t.lower.as_str();
        if t.punct || NOT_PAST.contains(&w) {
            return false;
        }
        let before = i.checked_sub(1).map_or("", |k| tokens[k].lower.as_str());
        let adjective = matches!(
            before,
            "am" | "i'm"
                | "is"
                | "are"
                | "be"
                | "been"
                | "get"
                | "feel"
                | "so"
                | "very"
                | "really"
                | "was"
                | "were"
                | "it's"
                | "we're"
                | "not"
        );
        PAST_VERBS.contains(&w) || (w.len() >= 5 && w.ends_with("ed") && !adjective)
    })
}

/// Whether a statement speaks of the future in words.
pub fn future_words(padded: &str) -> bool {
    has_any(padded, FUTURE)
}

/// Gerunds that start plans rather than ongoing activities ("flying to Lisbon on Friday").
const PLAN_GERUNDS: &[&str] = &[
    "going", "flying", "leaving", "meeting", "planning", "thinking", "hoping", "moving", "heading",
    "visiting", "starting", "getting",
];

/// The memory type of a statement, given its tokens, padded words and whether it names a
/// future or past moment.
pub fn memory_type(tokens: &[Token], padded: &str, future: bool, past: bool) -> MemoryType {
    let mut scores = [0.0f64; 8];
    let index = |t: MemoryType| MemoryType::ALL.iter().position(|&x| x == t).unwrap_or(0);
    for (t, weight, phrases) in CUES {
        let hits = phrases.iter().filter(|p| has(padded, p)).count();
        if hits > 0 {
            scores[index(*t)] += weight * (1.0 + 0.25 * (hits - 1) as f64);
        }
    }
    if future {
        scores[index(MemoryType::Plan)] += 2.0;
    }
    if past || past_tense(tokens) {
        scores[index(MemoryType::Event)] += 2.0;
    }
    // "I used to like …": about the past, unless "but now".
    if has(padded, "used to") && !has(padded, "now") {
        scores[index(MemoryType::Event)] += 1.5;
    }
    let words: Vec<&str> = padded.split_whitespace().collect();
    // "I'm 34", "I'm Kenji": who the speaker is.
    for w in words.windows(2) {
        if matches!(w[0], "i'm" | "im") {
            let age = w[1].parse::<u32>().is_ok_and(|n| (1..=120).contains(&n));
            let name = tokens
                .iter()
                .any(|t| t.capital && t.lower == w[1] && !t.punct && t.lower != "i");
            if age || name {
                scores[index(MemoryType::Identity)] += 3.0;
            }
        }
        // "I'm renovating", "we're collaborating": ongoing activity; "I'm flying": a plan.
        if matches!(w[0], "i'm" | "we're" | "im") && w[1].len() > 4 && w[1].ends_with("ing") {
            if PLAN_GERUNDS.contains(&w[1]) {
                scores[index(MemoryType::Plan)] += 1.5;
            } else {
                scores[index(MemoryType::Activity)] += 2.0;
            }
        }
    }
    // "taking a night class …", "teaching myself guitar": a sentence opening on a gerund.
    if let Some(first) = words.first() {
        if first.len() > 4
            && first.ends_with("ing")
            && !matches!(
                *first,
                "nothing"
                    | "something"
                    | "anything"
                    | "everything"
                    | "morning"
                    | "evening"
                    | "thing"
                    | "spring"
            )
        {
            if PLAN_GERUNDS.contains(first) {
                scores[index(MemoryType::Plan)] += 1.5;
            } else {
                scores[index(MemoryType::Activity)] += 2.5;
            }
        }
    }
    // Questions are session talk.
    if tokens.last().is_some_and(|t| t.lower == "?") {
        scores[index(MemoryType::Context)] += 2.0;
    }
    let (best, score) = scores
        .iter()
        .enumerate()
        .fold((0, 0.0), |b, (i, &s)| if s > b.1 { (i, s) } else { b });
    if score == 0.0 {
        return if has_any(padded, &["i", "my", "we", "our", "i'm", "i've", "me"]) {
            MemoryType::Event
        } else {
            MemoryType::Context
        };
    }
    MemoryType::ALL[best]
}

/// Procedures are how-tos and standing rules; narratives are long stories; the rest facts.
pub fn kind(padded: &str, words: usize, t: MemoryType) -> Kind {
    let rule = has_any(
        padded,
        &[
            "always",
            "never",
            "make sure",
            "first",
            "step",
            "steps",
            "how to",
            "the trick is",
            "the way to",
            "whenever",
            "please keep",
            "please don't",
            "please always",
            "please use",
            "please avoid",
            "don't ever",
            "remember to",
            "rule",
        ],
    );
    if rule
        && matches!(
            t,
            MemoryType::Preference | MemoryType::Context | MemoryType::Activity
        )
    {
        return Kind::Procedure;
    }
    if words > 30 || (t == MemoryType::Event && words > 20) {
        return Kind::Narrative;
    }
    Kind::Fact
}

/// How much hedging takes off (0 when none), and whether there was any.
pub fn hedging(padded: &str) -> f64 {
    let off: f64 = HEDGES
        .iter()
        .filter(|(p, _)| has(padded, p))
        .map(|(_, off)| off)
        .sum();
    off.min(1.0 - MIN_CONFIDENCE)
}

/// Importance: the type's base, more for emphasis, strong feelings, named things and
/// deadlines, less when hedged.
pub fn importance(
    t: MemoryType,
    padded: &str,
    sentiment: f64,
    entities: usize,
    deadline: bool,
    hedge: f64,
) -> f64 {
    let mut v = base_importance(t);
    if has_any(
        padded,
        &[
            "important",
            "really",
            "never forget",
            "always",
            "must",
            "critical",
            "urgent",
            "asap",
            "seriously",
        ],
    ) {
        v += 0.1;
    }
    if sentiment.abs() > 0.6 {
        v += 0.05;
    }
    if entities > 0 {
        v += 0.05;
    }
    if deadline {
        v += 0.1;
    }
    v -= hedge * 0.2;
    (v.clamp(0.05, 1.0) * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::super::words::{padded, tokens};
    use super::*;

    fn t(s: &str) -> MemoryType {
        memory_type(&tokens(s), &padded(&tokens(s)), false, false)
    }

    #[test]
    fn the_issue_examples() {
        assert_eq!(t("I'm a nurse"), MemoryType::Identity);
        assert_eq!(t("I prefer tea"), MemoryType::Preference);
        assert_eq!(t("my sister Ana is visiting"), MemoryType::Relationship);
        assert_eq!(t("we moved in March"), MemoryType::Event);
        assert_eq!(t("I'm working on the deck"), MemoryType::Activity);
        let plan = tokens("I need to renew my passport by Friday");
        assert_eq!(
            memory_type(&plan, &padded(&plan), true, false),
            MemoryType::Plan
        );
        assert_eq!(
            t("for this chat, assume I use Python 3.12"),
            MemoryType::Context
        );
        assert_eq!(t("I'm so tired right now"), MemoryType::Ephemeral);
    }

    #[test]
    fn hedges_lower_confidence_within_bounds() {
        assert_eq!(hedging(&padded(&tokens("I live in Porto"))), 0.0);
        assert!(hedging(&padded(&tokens("I think I live in Porto"))) > 0.0);
        assert!(
            hedging(&padded(&tokens(
                "maybe, probably, I guess, not sure, kind of"
            ))) <= 0.7
        );
    }

    #[test]
    fn kinds() {
        let p = padded(&tokens("please keep answers short"));
        assert_eq!(kind(&p, 4, MemoryType::Preference), Kind::Procedure);
        assert_eq!(
            kind(&padded(&tokens("I like tea")), 3, MemoryType::Preference),
            Kind::Fact
        );
        assert_eq!(
            kind(&padded(&tokens("long")), 40, MemoryType::Event),
            Kind::Narrative
        );
    }
}
