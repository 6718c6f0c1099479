use super::year::{easter, quarter};
use super::*;
use time::{Month, OffsetDateTime};

/// Wednesday 2026-11-18 10:00 UTC.
const NOW: Millis = 1_794_996_000_000;

/// The span `q` names, as "from..until" dates, and the words naming it.
fn span(q: &str) -> Option<(String, String)> {
    named(q, NOW).map(|n| {
        let date = |t: Millis| {
            OffsetDateTime::from_unix_timestamp(t / 1000)
                .unwrap()
                .date()
                .to_string()
        };
        (
            format!(
                "{}..{}",
                n.window.after.map(date).unwrap_or_default(),
                n.window.before.map(date).unwrap_or_default()
            ),
            q[n.words.clone()].to_string(),
        )
    })
}

fn is(q: &str, dates: &str, words: &str) {
    assert_eq!(span(q), Some((dates.to_string(), words.to_string())), "{q}");
}

#[test]
fn one_side_of_a_span() {
    for (q, dates, words) in [
        (
            "How many pets did Andrew have, as of September 2023?",
            "..2023-10-01",
            "as of September 2023",
        ),
        (
            "How long has Tim been playing the piano for, as of December 2023?",
            "..2024-01-01",
            "as of December 2023",
        ),
        (
            "What instrument is John learning to play as of 27 March, 2022?",
            "..2022-03-28",
            "as of 27 March, 2022",
        ),
        (
            "How many tournaments has Nate won by July 10, 2022?",
            "..2022-07-11",
            "by July 10, 2022",
        ),
        ("what had I read by 2025", "..2026-01-01", "by 2025"),
        (
            "what did I buy before March?",
            "..2026-03-01",
            "before March",
        ),
        (
            "where did I live before 2020",
            "..2020-01-01",
            "before 2020",
        ),
        (
            "what did I cook after last week",
            "2026-11-16..",
            "after last week",
        ),
        ("what happened after 3 May", "2026-05-04..", "after 3 May"),
        (
            "what did I plan until yesterday",
            "..2026-11-18",
            "until yesterday",
        ),
        (
            "what did I read as of last month",
            "..2026-11-01",
            "as of last month",
        ),
        ("since 2024", "2024-01-01..2026-11-19", "since 2024"),
        // Next to a day, on to (or from) it: not a side of a span.
        (
            "What did Andrew do on the Monday before July 24, 2023?",
            "2023-07-17..2023-07-25",
            "the Monday before July 24, 2023",
        ),
        (
            "What did Audrey do over the weekend before 4th October, 2023?",
            "2023-09-30..2023-10-05",
            "the weekend before 4th October, 2023",
        ),
        (
            "What did they plan for the Saturday after October 28, 2023?",
            "2023-10-28..2023-11-05",
            "the Saturday after October 28, 2023",
        ),
        (
            "the week after 3 May",
            "2026-05-03..2026-05-11",
            "the week after 3 May",
        ),
        (
            "the day before 3 May",
            "2026-05-02..2026-05-04",
            "the day before 3 May",
        ),
    ] {
        is(q, dates, words);
    }
    // A deadline, an event, a comparison, and "as" alone are not a side of a span.
    for q in [
        "What must I finish by Friday?",
        "what did I do before the doctor's appointment?",
        "Did I see the doctor before or after March?",
        "as March ended",
    ] {
        assert_eq!(span(q), None, "{q}");
    }
    // Since a day after today: no span from it to today (it would end before it began),
    // only the day.
    is(
        "What have I done since 2027-01-05?",
        "2027-01-05..2027-01-06",
        "2027-01-05",
    );
}

#[test]
fn spans_counted_back_parts_of_months_seasons_holidays_and_since() {
    for (q, dates, words) in [
        (
            "the day before yesterday",
            "2026-11-16..2026-11-17",
            "the day before yesterday",
        ),
        (
            "What did I do the week before last?",
            "2026-11-02..2026-11-09",
            "the week before last",
        ),
        (
            "the weekend before last",
            "2026-11-07..2026-11-09",
            "the weekend before last",
        ),
        (
            "two weekends ago",
            "2026-11-07..2026-11-09",
            "two weekends ago",
        ),
        (
            "What did I buy a couple of days ago?",
            "2026-11-15..2026-11-18",
            "couple of days ago",
        ),
        (
            "a fortnight ago",
            "2026-11-01..2026-11-08",
            "a fortnight ago",
        ),
        (
            "what did I read three months back",
            "2026-08-01..2026-09-01",
            "three months back",
        ),
        (
            "half a year ago",
            "2026-05-01..2026-06-01",
            "half a year ago",
        ),
        // The last stretch up to today; "last month" alone is the calendar's.
        (
            "What did I do the past few days?",
            "2026-11-16..2026-11-19",
            "the past few days",
        ),
        (
            "what did I cook over the past week",
            "2026-11-12..2026-11-19",
            "the past week",
        ),
        (
            "What did I buy in the last month?",
            "2026-10-20..2026-11-19",
            "the last month",
        ),
        (
            "the last 2 weeks",
            "2026-11-05..2026-11-19",
            "the last 2 weeks",
        ),
        // Ten days of a month, four months of a year.
        (
            "What happened in mid-March?",
            "2026-03-11..2026-03-21",
            "mid-March",
        ),
        (
            "late February 2025",
            "2025-02-19..2025-03-01",
            "late February 2025",
        ),
        ("early 2025", "2025-01-01..2025-05-01", "early 2025"),
        ("late 2024", "2024-09-01..2025-01-01", "late 2024"),
        (
            "at the end of last month",
            "2026-10-22..2026-11-01",
            "the end of last month",
        ),
        (
            "at the start of the month",
            "2026-11-01..2026-11-11",
            "the start of the month",
        ),
        // A season of a year.
        (
            "What did I do in the summer of 2025?",
            "2025-06-01..2025-09-01",
            "in the summer of 2025",
        ),
        (
            "What state did Joanna visit in summer 2021?",
            "2021-06-01..2021-09-01",
            "in summer 2021",
        ),
        // Holidays asked about as a time: the latest (ended, for "last").
        (
            "What did I do last Christmas?",
            "2025-12-24..2025-12-27",
            "last Christmas",
        ),
        (
            "on New Year's Eve",
            "2025-12-31..2026-01-01",
            "on New Year's Eve",
        ),
        (
            "What did we do last Easter?",
            "2026-04-03..2026-04-07",
            "last Easter",
        ),
        ("on Halloween", "2026-10-31..2026-11-01", "on Halloween"),
        // From a day to today.
        (
            "What did I eat since Monday?",
            "2026-11-16..2026-11-19",
            "since Monday",
        ),
        ("since March", "2026-03-01..2026-11-19", "since March"),
        (
            "since last week",
            "2026-11-09..2026-11-19",
            "since last week",
        ),
        ("since 3 May", "2026-05-03..2026-11-19", "since 3 May"),
    ] {
        is(q, dates, words);
    }
    // A holiday or a season as a subject, not a time; a vague time.
    for q in [
        "What do we eat at Christmas?",
        "What tradition does Tim love during Halloween?",
        "What does Melanie do during the summer?",
        "the last week of",
    ] {
        assert_eq!(span(q), None, "{q}");
    }
    assert_eq!(
        easter(2024),
        Date::from_calendar_date(2024, Month::March, 31).ok()
    );
    assert_eq!(
        easter(2025),
        Date::from_calendar_date(2025, Month::April, 20).ok()
    );
    assert_eq!(
        easter(2026),
        Date::from_calendar_date(2026, Month::April, 5).ok()
    );
}

#[test]
fn relative_spans() {
    for (q, dates, words) in [
        (
            "What did I eat yesterday?",
            "2026-11-17..2026-11-18",
            "yesterday",
        ),
        ("what happened today", "2026-11-18..2026-11-19", "today"),
        (
            "What kitchen appliance did I buy 10 days ago?",
            "2026-11-07..2026-11-10",
            "10 days ago",
        ),
        (
            "the milestone I mentioned four weeks ago",
            "2026-10-18..2026-10-25",
            "four weeks ago",
        ),
        ("a week ago", "2026-11-08..2026-11-15", "a week ago"),
        (
            "what did I do last weekend?",
            "2026-11-14..2026-11-16",
            "last weekend",
        ),
        (
            "What did we decide last week?",
            "2026-11-09..2026-11-16",
            "last week",
        ),
        (
            "runs earlier this month",
            "2026-11-01..2026-11-19",
            "earlier this month",
        ),
        // The whole of it, its days ahead too; "earlier" ends today.
        ("this week", "2026-11-16..2026-11-23", "this week"),
        // Asked on a weekday: the coming weekend, unless asked of the past.
        (
            "What am I doing this weekend?",
            "2026-11-21..2026-11-23",
            "this weekend",
        ),
        (
            "What did I do this weekend?",
            "2026-11-14..2026-11-16",
            "this weekend",
        ),
        (
            "how many times did I run this year",
            "2026-01-01..2027-01-01",
            "this year",
        ),
        (
            "What do I have this month?",
            "2026-11-01..2026-12-01",
            "this month",
        ),
        ("last month", "2026-10-01..2026-11-01", "last month"),
        ("last year", "2025-01-01..2026-01-01", "last year"),
        ("two months ago", "2026-09-01..2026-10-01", "two months ago"),
        ("3 years ago", "2023-01-01..2024-01-01", "3 years ago"),
        (
            "where did we go last summer",
            "2026-06-01..2026-09-01",
            "last summer",
        ),
        ("last winter", "2025-12-01..2026-03-01", "last winter"),
        (
            "what did I do on Monday",
            "2026-11-16..2026-11-17",
            "on Monday",
        ),
        ("last Wednesday", "2026-11-11..2026-11-12", "last Wednesday"),
        (
            "What did I eat last night?",
            "2026-11-17..2026-11-18",
            "last night",
        ),
        ("this morning", "2026-11-18..2026-11-19", "this morning"),
        ("tonight", "2026-11-18..2026-11-19", "tonight"),
        // A part of a day named beside it is of the day.
        (
            "What did I do in the evening on 20 March?",
            "2026-03-20..2026-03-21",
            "in the evening on 20 March",
        ),
        (
            "who called on Monday at night",
            "2026-11-16..2026-11-17",
            "on Monday at night",
        ),
        // Not beside a day: the words are the question's own.
        (
            "what did I read in the evening last week",
            "2026-11-09..2026-11-16",
            "last week",
        ),
    ] {
        is(q, dates, words);
    }
}

#[test]
fn calendar_spans_are_the_latest_past_ones() {
    for (q, dates, words) in [
        (
            "What did I buy in March?",
            "2026-03-01..2026-04-01",
            "in March",
        ),
        ("in December", "2025-12-01..2026-01-01", "in December"),
        (
            "during November",
            "2026-11-01..2026-12-01",
            "during November",
        ),
        ("last November", "2025-11-01..2025-12-01", "last November"),
        ("in May 2024", "2024-05-01..2024-06-01", "in May 2024"),
        ("trips in 2023", "2023-01-01..2024-01-01", "in 2023"),
        ("What happened on 3 May?", "2026-05-03..2026-05-04", "3 May"),
        (
            "on May 3rd, 2025",
            "2025-05-03..2025-05-04",
            "May 3rd, 2025",
        ),
        (
            "the 24th of December",
            "2025-12-24..2025-12-25",
            "24th of December",
        ),
        (
            "in the beginning of November 2022",
            "2022-11-01..2022-11-11",
            "the beginning of November 2022",
        ),
        (
            "Where was John between August 11 and August 15 2023?",
            "2023-08-11..2023-08-16",
            "between August 11 and August 15 2023",
        ),
        (
            "between 20 December and 3 January",
            "2025-12-20..2026-01-04",
            "between 20 December and 3 January",
        ),
        // The nth seven days of the month, a day either side.
        (
            "Which country was Tim visiting in the second week of November?",
            "2026-11-07..2026-11-16",
            "second week of November",
        ),
        (
            "what did I do on the 15th?",
            "2026-11-15..2026-11-16",
            "on the 15th",
        ),
        ("on the 30th", "2026-10-30..2026-10-31", "on the 30th"),
        ("on the 31st", "2026-10-31..2026-11-01", "on the 31st"),
        (
            "on the 15th of May",
            "2026-05-15..2026-05-16",
            "15th of May",
        ),
        (
            "What did I do in the week of 2 March?",
            "2026-03-02..2026-03-09",
            "week of 2 March",
        ),
        (
            "the weekend of 24 June 2023",
            "2023-06-24..2023-06-26",
            "weekend of 24 June 2023",
        ),
        (
            "the last week of October 2025",
            "2025-10-24..2025-11-02",
            "last week of October 2025",
        ),
    ] {
        is(q, dates, words);
    }
}

#[test]
fn a_span_counted_from_a_day_the_question_names() {
    for (q, dates, words) in [
        (
            "What did Maria do last weekend before April 10, 2023?",
            "2023-04-08..2023-04-10",
            "last weekend before April 10, 2023",
        ),
        (
            "Tim's writing issue last week, as mentioned on November 6, 2023",
            "2023-10-30..2023-11-06",
            "last week, as mentioned on November 6, 2023",
        ),
        (
            "What did Joanna finish yesterday, on 23 January 2022?",
            "2022-01-22..2022-01-23",
            "yesterday, on 23 January 2022",
        ),
        // Too far apart: the day is something else the question names.
        (
            "what did I cook last week for the party I gave on 3 May?",
            "2026-11-09..2026-11-16",
            "last week",
        ),
    ] {
        is(q, dates, words);
    }
}

#[test]
fn ranges_written_dates_quarters_and_parts_of_a_year() {
    for (q, dates, words) in [
        // A range's two ends, joined by a word or a dash; the second may be a day of
        // the first's month, and a year written once is both's.
        (
            "What did I do from March 1 until March 10?",
            "2026-03-01..2026-03-11",
            "from March 1 until March 10",
        ),
        (
            "March 1 to March 10",
            "2026-03-01..2026-03-11",
            "March 1 to March 10",
        ),
        ("in March 1-10", "2026-03-01..2026-03-11", "March 1-10"),
        (
            "from March 28 to the 2nd",
            "2026-03-28..2026-04-03",
            "from March 28 to the 2nd",
        ),
        (
            "1\u{2013}10 March 2025",
            "2025-03-01..2025-03-11",
            "1\u{2013}10 March 2025",
        ),
        (
            "from March 1st through the 10th",
            "2026-03-01..2026-03-11",
            "from March 1st through the 10th",
        ),
        (
            "from 1 March to 10 March 2025",
            "2025-03-01..2025-03-11",
            "from 1 March to 10 March 2025",
        ),
        (
            "from December 20 to January 3",
            "2025-12-20..2026-01-04",
            "from December 20 to January 3",
        ),
        // The previous unit, the one before last, this past weekday, the latest weekend.
        (
            "the previous week",
            "2026-11-09..2026-11-16",
            "previous week",
        ),
        (
            "the previous month",
            "2026-10-01..2026-11-01",
            "previous month",
        ),
        (
            "this past Monday",
            "2026-11-16..2026-11-17",
            "this past Monday",
        ),
        (
            "the Monday before last",
            "2026-11-09..2026-11-10",
            "the Monday before last",
        ),
        (
            "the month before last",
            "2026-09-01..2026-10-01",
            "the month before last",
        ),
        (
            "What did I do over the weekend?",
            "2026-11-14..2026-11-16",
            "over the weekend",
        ),
        (
            "What happened this weekend?",
            "2026-11-14..2026-11-16",
            "this weekend",
        ),
        // The same day months or years back.
        (
            "a year ago today",
            "2025-11-17..2025-11-20",
            "a year ago today",
        ),
        (
            "three months ago today",
            "2026-08-17..2026-08-20",
            "three months ago today",
        ),
        (
            "this time last year",
            "2025-11-11..2025-11-26",
            "this time last year",
        ),
        (
            "in the past 48 hours",
            "2026-11-16..2026-11-19",
            "the past 48 hours",
        ),
        // A day in ordinal words, before "of".
        (
            "What did I do on the first of March?",
            "2026-03-01..2026-03-02",
            "first of March",
        ),
        (
            "the twenty-first of May 2025",
            "2025-05-21..2025-05-22",
            "twenty-first of May 2025",
        ),
        (
            "the thirtieth of June",
            "2026-06-30..2026-07-01",
            "thirtieth of June",
        ),
        // Two counts back.
        (
            "What did I do two or three days ago?",
            "2026-11-14..2026-11-18",
            "two or three days ago",
        ),
        ("3-4 weeks ago", "2026-10-18..2026-11-01", "3-4 weeks ago"),
        (
            "a week or two ago",
            "2026-11-01..2026-11-15",
            "a week or two ago",
        ),
        (
            "2 to 3 months back",
            "2026-08-01..2026-10-01",
            "2 to 3 months back",
        ),
        // Dates written as numbers, year first.
        (
            "What did I do on 2025-12-24?",
            "2025-12-24..2025-12-25",
            "2025-12-24",
        ),
        (
            "What happened at 2025-12-24T10:00:00Z?",
            "2025-12-24..2025-12-25",
            "2025-12-24T10",
        ),
        ("in 2026-03", "2026-03-01..2026-04-01", "2026-03"),
        (
            "between 2026-03-01 and 2026-03-05",
            "2026-03-01..2026-03-06",
            "between 2026-03-01 and 2026-03-05",
        ),
        (
            "since 2026-03-01",
            "2026-03-01..2026-11-19",
            "since 2026-03-01",
        ),
        // A month or a day of a year said in words.
        (
            "What did I do in March of last year?",
            "2025-03-01..2025-04-01",
            "in March of last year",
        ),
        (
            "in March this year",
            "2026-03-01..2026-04-01",
            "in March this year",
        ),
        (
            "on December 24 last year",
            "2025-12-24..2025-12-25",
            "December 24 last year",
        ),
        (
            "the start of March last year",
            "2025-03-01..2025-03-11",
            "the start of March last year",
        ),
        // Quarters: the latest begun without a year.
        ("What did we ship in Q1?", "2026-01-01..2026-04-01", "Q1"),
        ("since Q3", "2026-07-01..2026-11-19", "since Q3"),
        ("in Q3 2025", "2025-07-01..2025-10-01", "Q3 2025"),
        (
            "the first quarter of 2025",
            "2025-01-01..2025-04-01",
            "the first quarter of 2025",
        ),
        (
            "in the fourth quarter",
            "2026-10-01..2027-01-01",
            "the fourth quarter",
        ),
        ("last quarter", "2026-07-01..2026-10-01", "last quarter"),
        ("this quarter", "2026-10-01..2026-11-19", "this quarter"),
        // A year's start, end or half.
        (
            "at the end of last year",
            "2025-09-01..2026-01-01",
            "the end of last year",
        ),
        (
            "the beginning of 2025",
            "2025-01-01..2025-05-01",
            "the beginning of 2025",
        ),
        (
            "in the second half of last year",
            "2025-07-01..2026-01-01",
            "the second half of last year",
        ),
    ] {
        is(q, dates, words);
    }
    // No range, or no date, where the words only look like one.
    for (q, dates, words) in [
        (
            "Did I work 9-5 on March 3?",
            "2026-03-03..2026-03-04",
            "March 3",
        ),
        (
            "on March 3 - the day I moved",
            "2026-03-03..2026-03-04",
            "March 3",
        ),
    ] {
        is(q, dates, words);
    }
    // A quarter not yet begun this year is last year's (asked on 2026-04-12).
    let april = 1_776_024_000_000;
    let window = |q: &str| named(q, april).map(|n| n.window);
    assert_eq!(window("in Q3"), Some(quarter(3, 2025).unwrap()));
    assert_eq!(window("in Q2"), Some(quarter(2, 2026).unwrap()));
    assert_eq!(window("the last quarter"), Some(quarter(1, 2026).unwrap()));
    assert_eq!(
        window("the last quarter of 2025"),
        Some(quarter(4, 2025).unwrap())
    );
    for q in [
        "from 2025-13-01",
        "in 2025-99",
        "on 2025-12-24x",
        "the first of the month's bills",
        "What do I do on the weekend?",
        "the previous owner",
        "this time",
        // A word that places a span, last: nothing after it to read.
        "What did I do until",
        "earlier this",
        "on 2025-12-245",
        "Q5",
        "in Q5",
        "What happened in the last quarter of the game?",
        "What are the Q4 budget priorities?",
        "What is the plan for Q4?",
        "Q4 budget priorities",
        "the fifth quarter",
        "from then to now",
    ] {
        assert_eq!(span(q), None, "{q}");
    }
}

#[test]
fn dates_in_numbers_decades_and_days_counted_from_a_day() {
    for (q, dates, words) in [
        // Numbers joined by "/" or ".": a four-digit year first or last; dots are day
        // first; with slashes, only an order that alone is a date.
        ("on 2025/12/24", "2025-12-24..2025-12-25", "2025/12/24"),
        ("on 24.12.2025", "2025-12-24..2025-12-25", "24.12.2025"),
        ("on 3.4.2025", "2025-04-03..2025-04-04", "3.4.2025"),
        ("on 12/24/2025", "2025-12-24..2025-12-25", "12/24/2025"),
        ("on 24/12/2025", "2025-12-24..2025-12-25", "24/12/2025"),
        (
            "What did I do on 3/28?",
            "2026-03-28..2026-03-29",
            "on 3/28",
        ),
        (
            "What did I do on 28/3?",
            "2026-03-28..2026-03-29",
            "on 28/3",
        ),
        (
            "What did I do on 12/24?",
            "2025-12-24..2025-12-25",
            "on 12/24",
        ),
        // Decades.
        (
            "What did I do in the 2010s?",
            "2010-01-01..2020-01-01",
            "the 2010s",
        ),
        ("in the 1990's", "1990-01-01..2000-01-01", "the 1990's"),
        // Around a day or a holiday; days or weeks from one.
        (
            "What did I do around March 3?",
            "2026-03-01..2026-03-06",
            "around March 3",
        ),
        (
            "What did I do around Christmas?",
            "2025-12-21..2025-12-30",
            "around Christmas",
        ),
        // Holidays of a fixed day, or a weekday of a month.
        (
            "What did we eat on Thanksgiving?",
            "2025-11-27..2025-11-28",
            "on Thanksgiving",
        ),
        (
            "What did I buy on Black Friday?",
            "2025-11-28..2025-11-29",
            "on Black Friday",
        ),
        (
            "last Boxing Day",
            "2025-12-26..2025-12-27",
            "last Boxing Day",
        ),
        (
            "on St. Patrick's Day",
            "2026-03-17..2026-03-18",
            "on St. Patrick's Day",
        ),
        (
            "What did I do three days before Christmas?",
            "2025-12-21..2025-12-26",
            "three days before Christmas",
        ),
        (
            "What did I do 2 weeks before March 10?",
            "2026-02-21..2026-03-11",
            "2 weeks before March 10",
        ),
        (
            "What did I do a day after Easter?",
            "2026-04-05..2026-04-08",
            "a day after Easter",
        ),
        (
            "the week before Christmas",
            "2025-12-18..2025-12-26",
            "the week before Christmas",
        ),
        // Loose counts and a year's middle.
        (
            "What did I do in the last couple of weeks?",
            "2026-11-05..2026-11-19",
            "the last couple of weeks",
        ),
        (
            "What did I do several weeks ago?",
            "2026-10-25..2026-11-01",
            "several weeks ago",
        ),
        (
            "What did I do in mid-2025?",
            "2025-05-01..2025-09-01",
            "mid-2025",
        ),
    ] {
        is(q, dates, words);
    }
    for none in [
        "What did I do on 1/2?",
        "Is the help desk open 24/7?",
        "What was version 1.2.3.4?",
        "on 2025/13/01",
        "on 31/31/2025",
        "on 3/28/25",
        "What did I do in the 2015s?",
        "a book from the 1900s",
        "What did I do in the 90s?",
        "What did I do three days before I moved?",
    ] {
        assert_eq!(span(none), None, "{none}");
    }
}

#[test]
fn loose_counts_the_other_day_and_parts_of_this_or_last_year() {
    for (q, dates, words) in [
        (
            "What did I buy some days ago?",
            "2026-11-14..2026-11-17",
            "some days ago",
        ),
        (
            "Who did I meet the other day?",
            "2026-11-11..2026-11-18",
            "the other day",
        ),
        (
            "What did we decide the other week?",
            "2026-10-25..2026-11-15",
            "the other week",
        ),
        (
            "What did I do this past week?",
            "2026-11-12..2026-11-19",
            "this past week",
        ),
        (
            "What happened over the past weekend?",
            "2026-11-14..2026-11-16",
            "the past weekend",
        ),
        (
            "What did I do two Saturdays ago?",
            "2026-11-07..2026-11-08",
            "two Saturdays ago",
        ),
        (
            "What did I do on Saturday before last?",
            "2026-11-07..2026-11-08",
            "on Saturday before last",
        ),
        (
            "What did I eat the night before last?",
            "2026-11-16..2026-11-17",
            "the night before last",
        ),
        (
            "What did I do late last year?",
            "2025-09-01..2026-01-01",
            "late last year",
        ),
        (
            "What did I start early this year?",
            "2026-01-01..2026-05-01",
            "early this year",
        ),
        (
            "What did I do at the beginning of the year?",
            "2026-01-01..2026-05-01",
            "the beginning of the year",
        ),
        (
            "the end of the year",
            "2026-09-01..2027-01-01",
            "the end of the year",
        ),
        (
            "What did I read earlier in the month?",
            "2026-11-01..2026-11-19",
            "earlier in the month",
        ),
    ] {
        is(q, dates, words);
    }
    for q in [
        "What did we do on the other day of the trip?",
        "What have I done for some weeks?",
        "Who sat on the other side?",
        "What did I do two Saturdays in a row?",
        "What did I do earlier in the game?",
    ] {
        assert_eq!(span(q), None, "{q}");
    }
}

#[test]
fn times_ahead_as_plans_name_them() {
    // Asked on Wednesday 2026-11-18.
    for (q, dates, words) in [
        (
            "What do I have tomorrow?",
            "2026-11-19..2026-11-20",
            "tomorrow",
        ),
        (
            "What's on the day after tomorrow?",
            "2026-11-20..2026-11-21",
            "the day after tomorrow",
        ),
        (
            "What is planned for next week?",
            "2026-11-23..2026-11-30",
            "next week",
        ),
        (
            "What do I have next Friday?",
            "2026-11-20..2026-11-21",
            "next Friday",
        ),
        (
            "What's happening next weekend?",
            "2026-11-28..2026-11-30",
            "next weekend",
        ),
        (
            "What do I have this coming weekend?",
            "2026-11-21..2026-11-23",
            "this coming weekend",
        ),
        (
            "What is due later this month?",
            "2026-11-19..2026-12-01",
            "later this month",
        ),
        (
            "What happens in 3 days?",
            "2026-11-20..2026-11-23",
            "in 3 days",
        ),
        (
            "What's happening in two weeks?",
            "2026-11-29..2026-12-06",
            "in two weeks",
        ),
        (
            "What do I have in the next few days?",
            "2026-11-19..2026-11-22",
            "the next few days",
        ),
        (
            "What is planned for the coming weeks?",
            "2026-11-19..2026-12-10",
            "the coming weeks",
        ),
        (
            "the week after next",
            "2026-11-30..2026-12-07",
            "the week after next",
        ),
        (
            "What do we plan for the next 2 years?",
            "2026-11-19..2028-11-18",
            "the next 2 years",
        ),
        ("next month", "2026-12-01..2027-01-01", "next month"),
        ("next year", "2027-01-01..2028-01-01", "next year"),
        // A season not begun yet this year; the one just past when it has ended.
        (
            "What are we doing this winter?",
            "2026-12-01..2027-03-01",
            "this winter",
        ),
        (
            "What did we do this summer?",
            "2026-06-01..2026-09-01",
            "this summer",
        ),
        (
            "What is due on the 3rd of next month?",
            "2026-12-03..2026-12-04",
            "on the 3rd of next month",
        ),
    ] {
        is(q, dates, words);
    }
    for q in [
        "What did I do the next day?",
        "Who sits next to me?",
        "When is the next time?",
        "What is coming up?",
        "What's next?",
        "How many times did I run in a week?",
        "What did we do on the next trip?",
        "the coming storm",
    ] {
        assert_eq!(span(q), None, "{q}");
    }
}

#[test]
fn a_day_without_its_month_or_in_words() {
    for (q, dates, words) in [
        // A month written as a name, then the day in words.
        (
            "What did I do on March first?",
            "2026-03-01..2026-03-02",
            "March first",
        ),
        (
            "What happened on June twenty-first?",
            "2026-06-21..2026-06-22",
            "June twenty-first",
        ),
        // A day alone: the latest past one, or of the month named after it.
        (
            "What did I do on the first?",
            "2026-11-01..2026-11-02",
            "on the first",
        ),
        (
            "What did I do on the 25th?",
            "2026-10-25..2026-10-26",
            "on the 25th",
        ),
        (
            "What did I do on the 3rd of last month?",
            "2026-10-03..2026-10-04",
            "on the 3rd of last month",
        ),
        (
            "What did I do on the first of the month?",
            "2026-11-01..2026-11-02",
            "on the first of the month",
        ),
        // A weekday before a date is the date's.
        (
            "What did I do on Tuesday the 3rd?",
            "2026-11-03..2026-11-04",
            "on Tuesday the 3rd",
        ),
        (
            "What did I do on Friday, March 6?",
            "2026-03-06..2026-03-07",
            "on Friday, March 6",
        ),
        (
            "What did I do on Tuesday?",
            "2026-11-17..2026-11-18",
            "on Tuesday",
        ),
    ] {
        is(q, dates, words);
    }
    for none in [
        "Did we march first?",
        "What did we do on May first?",
        "What did I do on the first day of school?",
        "What happened on the first try?",
        "What did I do on the",
    ] {
        assert_eq!(span(none), None, "{none}");
    }
}

#[test]
fn the_spans_a_statement_names_are_read_at_when_it_was_said() {
    // Monday 2023-04-10 12:00 UTC.
    let said = 1_681_128_000_000;
    let spans = |t: &str| -> Vec<(Millis, Millis)> {
        stated(t, said)
            .into_iter()
            .map(|w| (w.after.unwrap(), w.before.unwrap()))
            .collect()
    };
    let day = |y, m, d| {
        Date::from_calendar_date(y, Month::try_from(m).unwrap(), d)
            .unwrap()
            .midnight()
            .assume_utc()
            .unix_timestamp()
            * 1000
    };
    assert_eq!(
        spans("My colleagues and I went to a convention last month."),
        [(day(2023, 3, 1), day(2023, 4, 1))]
    );
    assert_eq!(
        spans("Watched it last night, and on Saturday we hiked."),
        [
            (day(2023, 4, 9), day(2023, 4, 10)),
            (day(2023, 4, 8), day(2023, 4, 9))
        ]
    );
    assert!(spans("I've had them for 3 years now").is_empty());
    assert!(spans("").is_empty());
    assert!(stated("yesterday", Millis::MIN).is_empty());
    let march = Window {
        after: Some(day(2023, 3, 1)),
        before: Some(day(2023, 4, 1)),
    };
    let april = Window {
        after: Some(day(2023, 4, 1)),
        before: None,
    };
    assert!(overlap(march, stated("last month", said)[0]));
    assert!(!overlap(april, march));
    assert!(overlap(Window::default(), march));
}

#[test]
fn ordering_words() {
    let (earliest, latest) = (Some(Order::Earliest), Some(Order::Latest));
    assert_eq!(ordering("What was the first book I started?"), earliest);
    assert_eq!(ordering("Which was EARLIEST?"), earliest);
    assert_eq!(ordering("When did I last go running?"), latest);
    assert_eq!(ordering("my latest run"), latest);
    assert_eq!(ordering("What is the most recent movie I watched?"), latest);
    assert_eq!(ordering("who did I see most recently"), latest);
    // The words that ask for it, to be taken out of what is matched.
    let q = "What is the most recent movie I watched?";
    let (_, at) = super::ordering_words(q).expect("an order");
    assert_eq!(&q[at], "most recent");
    let q = "When was my first run?";
    let (_, at) = super::ordering_words(q).expect("an order");
    assert_eq!(&q[at], "first");
    for q in [
        "the most important thing",
        "lastly, tea",
        "firstly",
        "",
        "????",
        "最初の本",
    ] {
        assert_eq!(ordering(q), None, "{q}");
    }
    // Read once a named span's words are out: "last week" is a span, not an order.
    let q = "What did I do last week?";
    let named = named(q, 1_775_000_000_000).expect("a span");
    assert_eq!(ordering(&named.without(q)), None);
}

#[test]
fn questions_asking_when() {
    for q in [
        "When did Jon receive mentorship?",
        "when is the party",
        "What day did I see the dentist?",
        "In which year did she move?",
        "How long ago did we meet?",
        "How long has Melanie been practicing art?",
        "how long did it take to finish the book",
    ] {
        assert!(asks_when(q), "{q}");
    }
    for q in [
        "What did I eat when I was in Rome?",
        "How long is the trip?",
        "What time is my yoga class?",
        "What does Ana drink?",
        "",
        "whenever",
    ] {
        assert!(!asks_when(q), "{q}");
    }
}

#[test]
fn days_of_the_week_a_question_keeps_to() {
    // 2026-03-07 is a Saturday, 2026-03-09 a Monday.
    let saturday = 1_772_841_600_000 + 3_600_000;
    let monday = saturday + 2 * DAY_MS;
    let q = "What did I do on weekends in March?";
    let d = days_named(q).expect("weekends");
    assert_eq!(&q[d.words.clone()], "on weekends");
    assert!(d.hold(saturday) && d.hold(saturday + DAY_MS) && !d.hold(monday));
    let d = days_named("where did I eat over the weekdays").expect("weekdays");
    assert!(d.hold(monday) && !d.hold(saturday));
    let q = "Which classes did I take on Mondays last month?";
    let d = days_named(q).expect("mondays");
    assert_eq!(&q[d.words.clone()], "on Mondays");
    assert!(d.hold(monday) && !d.hold(monday + DAY_MS));
    for q in [
        "What did I do last weekend?",
        "the weekend of 24 June",
        "on Monday",
        "weds",
        "Mons",
        "",
    ] {
        assert_eq!(days_named(q), None, "{q}");
    }
}

#[test]
fn statements_of_how_long_something_has_lasted() {
    for t in [
        "I've had them for 3 years now and they bring me joy!",
        "Seven years now, and I've found my muses.",
        "I've been playing for about four months now.",
        "I've been playing professionally for just under a year now.",
        "We have lived here for the past two years",
        "she's been sober for a couple of months",
    ] {
        assert!(names_duration(t), "{t}");
    }
    for t in [
        "I'm going to Paris for 3 days.",
        "I waited for a day.",
        "Three cheers for now!",
        "I have three cats",
        "for years",
        "",
        "now",
    ] {
        assert!(!names_duration(t), "{t}");
    }
}

#[test]
fn words_that_name_no_span() {
    for q in [
        "What does Ana drink?",
        "may I have the report",
        "in a week",
        "the last time we met",
        "10 days",
        "March on",
        "",
        "🙂 ago ago",
        "99999999999 days ago",
        "between 30 February and 31 February",
        "between us and them",
        "the week of 99 March",
        "on the 15 minutes",
        "on the 32nd",
        "the second week of",
        "the dream in 99999",
    ] {
        assert_eq!(span(q), None, "{q}");
    }
    // Removing the words leaves the rest to match.
    let q = "What kitchen appliance did I buy 10 days ago?";
    let n = named(q, NOW).unwrap();
    assert_eq!(n.without(q), "What kitchen appliance did I buy  ?");
}

#[test]
fn anchors_are_the_event_after_before_or_after() {
    let a = anchored("What was the last thing I did before the doctor's appointment?").unwrap();
    assert_eq!(
        (a.side, a.event.as_str(), a.next),
        (Side::Before, "doctor's appointment", false)
    );
    let q = "What did I do right after the Sintra trip?";
    let b = anchored(q).unwrap();
    assert_eq!(
        (b.side, b.event.as_str(), b.next),
        (Side::After, "Sintra trip", true)
    );
    assert_eq!(&q[b.words.clone()], "right after the Sintra trip");
    assert_eq!(b.order(), Some(Order::Earliest));
    assert_eq!(a.order(), None);
    // Its own days: "during", or "on" whose it is.
    for (q, event, words) in [
        (
            "What did I eat during the trip to Lisbon?",
            "trip to Lisbon",
            "during the trip to Lisbon",
        ),
        (
            "What happened on my birthday?",
            "birthday",
            "on my birthday",
        ),
        (
            "What did we do on our anniversary, in the end?",
            "anniversary",
            "on our anniversary",
        ),
    ] {
        let c = anchored(q).unwrap();
        assert_eq!((c.side, c.event.as_str()), (Side::During, event), "{q}");
        assert_eq!(&q[c.words.clone()], words);
        assert_eq!(c.order(), None);
    }
    for none in [
        "What do I do during the summer?",
        "What do I do during the week?",
        "What did I do on Monday?",
        "What did we agree on?",
        "What did I do on the weekend?",
        "What do I do on my weekends?",
        "Did I see the doctor before or after the physiotherapy?",
        "What did I do after that?",
        "Was it before?",
        "What did I buy last week?",
        "After how many weeks did Tim reconnect with his friend?",
        "",
    ] {
        assert_eq!(anchored(none), None, "{none}");
    }
}
