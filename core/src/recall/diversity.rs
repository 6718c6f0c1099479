//! Diversity: a hit that repeats one ranked above it adds nothing and is dropped.

/// Keeps hits in order, dropping any that `repeats` one already kept, until `limit` are kept.
pub fn diversify<T>(ranked: Vec<T>, limit: usize, repeats: impl Fn(&T, &T) -> bool) -> Vec<T> {
    let mut kept: Vec<T> = Vec::with_capacity(limit);
    for hit in ranked {
        if kept.len() >= limit {
            break;
        }
        if !kept.iter().any(|k| repeats(k, &hit)) {
            kept.push(hit);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diversity_drops_repeats() {
        let repeats = |a: &i64, b: &i64| (*a, *b) == (1, 2);
        let kept = diversify(vec![1, 2, 3], 10, repeats);
        assert_eq!(kept, vec![1, 3]);
        let kept = diversify(vec![1, 2, 3], 1, repeats);
        assert_eq!(kept.len(), 1);
    }
}
