//! The built-in extractor on the labelled sets (`tests/data/extraction*.json`): the floors
//! below sit just under the figures reported in the README, so a change that makes extraction
//! worse fails here. Print the figures with `cargo run -p mnemo-core --example extraction_eval`.
#[path = "common/extraction_eval.rs"]
mod eval;

fn holds(set: &str, floors: &[(&str, f64)]) {
    let r = eval::evaluate(set, false);
    for (path, floor) in floors {
        let v = path
            .split('.')
            .fold(&r, |v, k| &v[k])
            .as_f64()
            .unwrap_or_else(|| panic!("{set}: no figure {path} in {r:#}"));
        assert!(
            v >= *floor,
            "{set}: {path} fell to {v} (floor {floor}): {r:#}"
        );
    }
}

#[test]
fn development_set_holds_its_floors() {
    holds(
        eval::DEV,
        &[
            ("significance_accuracy", 0.97),
            ("type_accuracy_first_statement", 0.85),
            ("hedging_accuracy", 0.95),
            ("deadline_accuracy", 0.93),
            ("entities.f1", 0.88),
            ("relations.precision", 0.85),
            ("relations.f1", 0.70),
        ],
    );
}

#[test]
fn held_out_set_holds_its_floors() {
    holds(
        eval::HOLDOUT,
        &[
            ("significance_accuracy", 0.95),
            ("type_accuracy_first_statement", 0.72),
            ("hedging_accuracy", 0.95),
            ("deadline_accuracy", 0.9),
            ("entities.f1", 0.86),
            ("relations.precision", 0.8),
            ("relations.f1", 0.62),
        ],
    );
}
