//! Diversity: a hit nearly identical to one ranked above it adds nothing and is dropped.

/// Keeps hits in order, dropping any more similar than `threshold` to one already kept, until
/// `limit` are kept. `similarity(kept, next)` compares two hits' vectors (`None`: unknown,
/// kept).
pub fn diversify<T>(
    ranked: Vec<T>,
    limit: usize,
    threshold: f64,
    similarity: impl Fn(&T, &T) -> Option<f32>,
) -> Vec<T> {
    let mut kept: Vec<T> = Vec::with_capacity(limit);
    for hit in ranked {
        if kept.len() >= limit {
            break;
        }
        if kept
            .iter()
            .all(|k| similarity(k, &hit).is_none_or(|s| (s as f64) <= threshold))
        {
            kept.push(hit);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diversity_drops_near_identical() {
        let sim = |a: &i64, b: &i64| Some(if (*a, *b) == (1, 2) { 0.95 } else { 0.1 });
        let kept = diversify(vec![1, 2, 3], 10, 0.9, sim);
        assert_eq!(kept, vec![1, 3]);
        let kept = diversify(vec![1, 2, 3], 1, 0.9, sim);
        assert_eq!(kept.len(), 1);
    }
}
