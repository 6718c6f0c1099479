//! Diversity: a hit that repeats one ranked above it adds nothing and is dropped; a hit that
//! only comes from the same place as one kept gives way to hits from elsewhere.

/// What [`diversify`] kept, and the hits that gave way, in order.
pub struct Diverse<T> {
    /// At most `limit` hits, none repeating or giving way to one before it.
    pub kept: Vec<T>,
    /// Hits that gave way to one kept: they follow if there is room.
    pub waiting: Vec<T>,
}

/// Keeps hits in order, dropping any that `repeats` one already kept, until `limit` are kept.
/// A hit that `gives_way` to one kept waits.
pub fn diversify<T>(
    ranked: Vec<T>,
    limit: usize,
    repeats: impl Fn(&T, &T) -> bool,
    gives_way: impl Fn(&T, &T) -> bool,
) -> Diverse<T> {
    let mut kept: Vec<T> = Vec::with_capacity(limit);
    let mut waiting: Vec<T> = Vec::new();
    for hit in ranked {
        if kept.len() >= limit {
            break;
        }
        if kept.iter().any(|k| repeats(k, &hit)) {
            continue;
        }
        if kept.iter().any(|k| gives_way(k, &hit)) {
            waiting.push(hit);
        } else {
            kept.push(hit);
        }
    }
    Diverse { kept, waiting }
}

impl<T> Diverse<T> {
    /// The kept hits, then waiting ones in order, up to `limit`: those that `repeat` a hit
    /// kept are dropped.
    pub fn filled(self, limit: usize, repeats: impl Fn(&T, &T) -> bool) -> Vec<T> {
        let Diverse { mut kept, waiting } = self;
        for hit in waiting {
            if kept.len() >= limit {
                break;
            }
            if !kept.iter().any(|k| repeats(k, &hit)) {
                kept.push(hit);
            }
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diversity_drops_repeats() {
        let repeats = |a: &i64, b: &i64| (*a, *b) == (1, 2);
        let never = |_: &i64, _: &i64| false;
        let kept = diversify(vec![1, 2, 3], 10, repeats, never).filled(10, repeats);
        assert_eq!(kept, vec![1, 3]);
        let kept = diversify(vec![1, 2, 3], 1, repeats, never).filled(1, repeats);
        assert_eq!(kept.len(), 1);
    }

    #[test]
    fn a_hit_from_the_same_place_waits_for_hits_from_elsewhere() {
        // 10 and 11 come from one place, 20 and 30 from others.
        let same = |a: &i64, b: &i64| a / 10 == b / 10;
        let never = |_: &i64, _: &i64| false;
        let ranked = || vec![10, 11, 20, 30];
        assert_eq!(
            diversify(ranked(), 3, never, same).filled(3, never),
            vec![10, 20, 30]
        );
        // With room left, it follows.
        let d = diversify(ranked(), 10, never, same);
        assert_eq!((&d.kept, &d.waiting), (&vec![10, 20, 30], &vec![11]));
        assert_eq!(d.filled(10, never), vec![10, 20, 30, 11]);
        assert_eq!(
            diversify(ranked(), 2, never, same).filled(2, never),
            vec![10, 20]
        );
        // A waiting hit that repeats one kept after it is dropped.
        let repeats = |a: &i64, b: &i64| (*a, *b) == (20, 11);
        assert_eq!(
            diversify(ranked(), 10, repeats, same).filled(10, repeats),
            vec![10, 20, 30]
        );
    }
}
