#!/usr/bin/env python3
"""Writes tests/data/timeline/timeline.json: six weeks of one person's (Sam's) conversations
with dates, and questions about them that name a time, ask for several things, or ask which
came first or last, each labelled with the memories that answer it.

The set was written before any search ran on it (issue 46): the events, the questions and the
answers below are the whole of it. `cargo run --release -p mnemo-core --example timeline`
scores a store against it.

    python3 scripts/timeline/make.py
"""

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests/data/timeline/timeline.json"

# (label, day, hour, what Sam said). Every memory is said on its day, in that day's session.
EVENTS = [
    # Facts without a time of their own.
    ("tea", "2026-03-02", 8, "I prefer green tea to coffee, especially in the morning."),
    ("job", "2026-03-02", 9, "I work as a backend engineer at Finch, on the payments team."),
    ("sister_city", "2026-03-02", 10, "My sister Lena lives in Porto with her partner."),
    ("knee", "2026-03-02", 11, "My left knee gets sore if I run more than 10 km."),
    # Running.
    ("run1", "2026-03-03", 7, "Went for a 5 km run along the river before work."),
    ("run2", "2026-03-07", 8, "Ran 8 km in the park this morning, felt great."),
    ("run3", "2026-03-12", 7, "Short 4 km run today, it was raining the whole time."),
    ("run4", "2026-03-19", 7, "Did an interval run on the track: six sprints of 400 metres."),
    ("run5", "2026-03-28", 9, "Long run of 12 km to the lighthouse and back; my knee hurt afterwards."),
    ("run6", "2026-04-02", 7, "Easy 5 km recovery run along the river."),
    ("run7", "2026-04-09", 7, "Ran 10 km with the running club for the first time."),
    # Yoga.
    ("yoga1", "2026-03-05", 18, "Tried a beginners' yoga class at the community centre."),
    ("yoga2", "2026-03-26", 18, "Went back to yoga; the instructor taught us the crow pose."),
    ("yoga3", "2026-04-07", 18, "Yoga class again tonight, mostly stretching for my knee."),
    # Shopping.
    ("espresso", "2026-03-16", 17, "Bought a new espresso machine from the department store."),
    ("blender", "2026-03-25", 20, "Ordered a blender online for smoothies."),
    ("shoes", "2026-04-03", 12, "Bought new running shoes with better cushioning."),
    ("plant", "2026-03-11", 13, "Picked up a fiddle-leaf fig for the living room."),
    # Books.
    ("book1", "2026-03-04", 22, "Started reading The Overstory by Richard Powers."),
    ("book2", "2026-03-18", 22, "Finished The Overstory and started Piranesi by Susanna Clarke."),
    ("book3", "2026-04-06", 22, "Started Klara and the Sun by Kazuo Ishiguro."),
    # Films.
    ("film1", "2026-03-06", 21, "Watched Dune Part Two at the cinema with Marco."),
    ("film2", "2026-03-20", 21, "Watched Past Lives at home; it made me cry."),
    ("film3", "2026-04-03", 21, "Watched Oppenheimer on a rainy evening."),
    # Health.
    ("dentist", "2026-03-10", 15, "Dentist appointment: one small filling, nothing serious."),
    ("haircut", "2026-03-21", 11, "Got a haircut at the new barber on Rua Augusta."),
    ("doctor", "2026-04-08", 10, "Saw the doctor about my knee; she said to rest it for a week."),
    ("physio", "2026-04-10", 16, "First physiotherapy session for my knee."),
    # Work.
    ("milestone", "2026-03-13", 16, "We shipped the billing migration milestone at work today."),
    ("demo", "2026-03-27", 15, "Demoed the new dashboard to the client; they loved it."),
    ("planning", "2026-04-01", 11, "Quarterly planning meeting: we decided to hire two engineers."),
    ("oncall", "2026-03-24", 9, "On call this week; got paged twice last night."),
    ("review", "2026-04-09", 14, "Had my performance review; my manager suggested I lead the next project."),
    # Family and friends.
    ("lena_dinner", "2026-03-08", 20, "Had dinner with my sister Lena in Porto."),
    ("lena_visit", "2026-03-22", 19, "Lena came to visit and we walked along the coast."),
    ("tom_party", "2026-04-05", 23, "Went to Tom's birthday party; we played board games until late."),
    ("mum_call", "2026-03-29", 18, "Called Mum; she is planning a trip to Madeira in May."),
    # Weekends away.
    ("sintra", "2026-03-14", 19, "Weekend hiking trip in Sintra; we climbed up to the Moorish castle."),
    ("sintra2", "2026-03-15", 18, "Second day in Sintra: visited the Pena palace and came home."),
    ("lisbon", "2026-04-11", 20, "Spent Saturday in Lisbon visiting the tile museum."),
    # Cooking.
    ("lasagne", "2026-03-09", 20, "Made lasagne from scratch for the first time."),
    ("curry", "2026-03-23", 20, "Cooked a Thai green curry; too spicy for Lena."),
    ("sourdough", "2026-04-04", 16, "Baked my first loaf of sourdough bread."),
]

AT = {label: (day, hour) for label, day, hour, _ in EVENTS}

# The end of the six weeks: questions without a time of their own are asked then.
END = "2026-04-12T20:00:00Z"


def day_at(day: str, hour: int = 20) -> str:
    return f"{day}T{hour:02d}:00:00Z"


# (question, as of, category, answers). Categories: `time` (the question names when),
# `list` (several things: all the answers are wanted), `order` (which came first or last).
QUESTIONS = []


def q(text: str, as_of: str, category: str, *answers: str) -> None:
    assert answers and all(a in AT for a in answers), text
    QUESTIONS.append({"question": text, "as_of": as_of, "category": category, "answers": list(answers)})


# --- A time named relative to the day asked, or by its date.
q("What kitchen appliance did I buy 10 days ago?", day_at("2026-03-26"), "time", "espresso")
q("What did I order online about two weeks ago?", day_at("2026-04-08"), "time", "blender")
q("What did I buy yesterday?", day_at("2026-04-04"), "time", "shoes")
q("What did I do last weekend?", day_at("2026-03-17"), "time", "sintra", "sintra2")
q("What did I do last weekend?", day_at("2026-04-14"), "time", "lisbon")
q("What milestone did I mention four weeks ago?", day_at("2026-04-10"), "time", "milestone")
q("What movie did I watch yesterday?", day_at("2026-03-21"), "time", "film2")
q("What movie did I watch three days ago?", day_at("2026-03-09"), "time", "film1")
q("What did I cook on 23 March?", END, "time", "curry")
q("What did I cook on 9 March?", END, "time", "lasagne")
q("What did I bake on 4 April?", END, "time", "sourdough")
q("What did I do on 8 March?", END, "time", "lena_dinner")
q("Who did I see on 22 March?", END, "time", "lena_visit")
q("What happened at work on 27 March?", END, "time", "demo")
q("What did we decide at the meeting on 1 April?", END, "time", "planning")
q("Which book did I start in April?", END, "time", "book3")
q("What book was I reading in early March?", END, "time", "book1")
q("How far did I run on 7 March?", END, "time", "run2")
q("How was my run yesterday?", day_at("2026-03-13"), "time", "run3")
q("What did I do at the track a week ago?", day_at("2026-03-26"), "time", "run4")
q("How far did I run two days ago?", day_at("2026-03-30"), "time", "run5")
q("Where did I run five days ago?", day_at("2026-04-07"), "time", "run6")
q("Who did I run with yesterday?", day_at("2026-04-10"), "time", "run7")
q("What happened at the dentist last week?", day_at("2026-03-17"), "time", "dentist")
q("Where did I get my hair cut last Saturday?", day_at("2026-03-24"), "time", "haircut")
q("What did the doctor say two days ago?", day_at("2026-04-10"), "time", "doctor")
q("What did I do for my knee yesterday?", day_at("2026-04-11"), "time", "physio")
q("What did I pick up for the living room on 11 March?", END, "time", "plant")
q("What yoga pose did we learn last week?", day_at("2026-04-01"), "time", "yoga2")
q("What was the yoga class like on 5 March?", END, "time", "yoga1")
q("Why was my yoga class yesterday mostly stretching?", day_at("2026-04-08"), "time", "yoga3")
q("What did I watch on 3 April?", END, "time", "film3")
q("What did Mum tell me about two weeks ago?", day_at("2026-04-12"), "time", "mum_call")
q("Whose party did I go to a week ago?", day_at("2026-04-12"), "time", "tom_party")
q("What happened while I was on call in late March?", END, "time", "oncall")
q("What did my manager suggest three days ago?", day_at("2026-04-12"), "time", "review")
q("What did I visit in Lisbon yesterday?", day_at("2026-04-12"), "time", "lisbon")
q("Which castle did we climb to in mid-March?", END, "time", "sintra")
q("What did I finish reading on 18 March?", END, "time", "book2")
q("What did I start reading yesterday?", day_at("2026-03-05"), "time", "book1")
q("What did I buy four weeks ago?", day_at("2026-04-13"), "time", "espresso")
q("What did I do in the evening on 20 March?", END, "time", "film2")
q("What did I buy at the department store in March?", END, "time", "espresso")
q("What did I cook last week?", day_at("2026-03-30"), "time", "curry")
q("Where did I have dinner a week ago?", day_at("2026-03-15"), "time", "lena_dinner")

# --- Several things: every answer is wanted.
q("How many times did I go running in March?", END, "list", "run1", "run2", "run3", "run4", "run5")
q("How many times did I go running in April?", END, "list", "run6", "run7")
q("List every run I went on.", END, "list", "run1", "run2", "run3", "run4", "run5", "run6", "run7")
q("How many yoga classes have I been to?", END, "list", "yoga1", "yoga2", "yoga3")
q("Which books have I read or started?", END, "list", "book1", "book2", "book3")
q("Which movies did I watch in March?", END, "list", "film1", "film2")
q("List all the films I watched.", END, "list", "film1", "film2", "film3")
q("What have I bought for the kitchen?", END, "list", "espresso", "blender")
q("What did I buy in March?", END, "list", "plant", "espresso", "blender")
q("What have I cooked or baked?", END, "list", "lasagne", "curry", "sourdough")
q("How many times did I see Lena?", END, "list", "lena_dinner", "lena_visit")
q("What have I done about my knee?", END, "list", "doctor", "physio", "yoga3")
q("Which appointments did I have in March?", END, "list", "dentist", "haircut")
q("What work events happened in March?", END, "list", "milestone", "demo", "oncall")
q("What happened at work in April?", END, "list", "planning", "review")
q("Where have I been on weekend trips?", END, "list", "sintra", "sintra2", "lisbon")
q("What did I do on the Sintra weekend?", END, "list", "sintra", "sintra2")
q("How many times did my knee bother me?", END, "list", "knee", "run5", "doctor")
q("What did I do in the week of 2 March?", END, "list", "run1", "book1", "yoga1", "film1", "run2", "lena_dinner")
q("What did I do last week?", day_at("2026-04-06"), "list", "run6", "film3", "shoes", "sourdough", "tom_party", "planning")
q("What did I do this weekend?", day_at("2026-03-15"), "list", "sintra", "sintra2")
q("List the health appointments I have had.", END, "list", "dentist", "haircut", "doctor", "physio")
q("Which evenings did I spend watching films?", END, "list", "film1", "film2", "film3")
q("What did I do on weekends in March?", END, "list", "run2", "lena_dinner", "sintra", "sintra2", "haircut", "lena_visit", "run5", "mum_call")
q("How many times did I run along the river?", END, "list", "run1", "run6")
q("Which of my runs were 5 km?", END, "list", "run1", "run6")

# --- Which came first, which last.
q("Which did I do first, the dentist or the haircut?", END, "order", "dentist", "haircut")
q("Which came first, the espresso machine or the blender?", END, "order", "espresso", "blender")
q("Did I watch Past Lives or Oppenheimer first?", END, "order", "film2", "film3")
q("What was the first book I started?", END, "order", "book1")
q("What is the most recent book I started?", END, "order", "book3")
q("What was the first movie I watched?", END, "order", "film1")
q("What is the most recent movie I watched?", END, "order", "film3")
q("When did I last go running?", END, "order", "run7")
q("When was my first run?", END, "order", "run1")
q("What was my first run in April?", END, "order", "run6")
q("What was my last run in March?", END, "order", "run5")
q("What was the first yoga class like?", END, "order", "yoga1")
q("What happened at my most recent yoga class?", END, "order", "yoga3")
q("What did I cook first, the lasagne or the curry?", END, "order", "lasagne", "curry")
q("What is the latest thing I baked or cooked?", END, "order", "sourdough")
q("What was the first thing I cooked?", END, "order", "lasagne")
q("What did I buy most recently?", END, "order", "shoes")
q("What was the first thing I bought?", END, "order", "plant")
q("Which came first, the billing milestone or the client demo?", END, "order", "milestone", "demo")
q("What happened at work most recently?", END, "order", "review")
q("When did I last see Lena?", END, "order", "lena_visit")
q("When did I first see Lena this spring?", END, "order", "lena_dinner")
q("Did I see the doctor before or after the physiotherapy?", END, "order", "doctor", "physio")
q("What was my most recent weekend trip?", END, "order", "lisbon")
q("What was my first weekend trip?", END, "order", "sintra")
q("Did I go to Tom's party before or after baking sourdough?", END, "order", "tom_party", "sourdough")
q("What was the last thing I did before the doctor's appointment?", END, "order", "yoga3")
q("What did I do right after the Sintra trip?", END, "order", "espresso")
q("Which came first, the planning meeting or my performance review?", END, "order", "planning", "review")
q("What was my longest run, and when?", END, "order", "run5")
q("Before I saw the doctor, when did my knee last hurt on a run?", END, "order", "run5")


def main() -> None:
    memories = []
    for label, day, hour, content in EVENTS:
        memories.append({
            "label": label,
            "content": content,
            "said_at": day_at(day, hour),
            "session": f"s-{day}",
        })
    memories.sort(key=lambda m: m["said_at"])
    out = {
        "about": "Six weeks of Sam's conversations (one memory per thing said, its time and session) and "
                 "questions naming a time, asking for several things, or asking which came first or last, "
                 "each with the memories that answer it. Written by scripts/timeline/make.py before any "
                 "search ran on it.",
        "owner": "sam",
        "memories": memories,
        "questions": QUESTIONS,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    counts = {}
    for x in QUESTIONS:
        counts[x["category"]] = counts.get(x["category"], 0) + 1
    print(f"wrote {OUT}: {len(memories)} memories, {len(QUESTIONS)} questions {counts}")


if __name__ == "__main__":
    main()
