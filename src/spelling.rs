//! "Did you mean": the closest known name to a misspelt one, for the help of
//! diagnostics at every layer (limits, primsets, games, players).

/// Suggests the closest of `candidates` to `name` ("did you mean"), by edit
/// distance, when one is close enough to be a likely typo.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for cand in candidates {
        let d = edit_distance(&lower, &cand.to_lowercase());
        // Short names are too easily one edit from anything: suggest only on a
        // difference of case for them.
        let shortest = name.chars().count().min(cand.chars().count());
        let limit = if shortest < 3 { 0 } else { (name.chars().count().max(cand.chars().count()) / 3).max(1) };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions
/// and transpositions of neighbours (the commonest typo) each cost 1.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("pdvi", ["pdiv", "+", "x0"]), Some("pdiv"));
        assert_eq!(did_you_mean("lowerequal", ["LowerEqual", "AND"]), Some("LowerEqual"));
        assert_eq!(did_you_mean("zzzzz", ["pdiv", "x0"]), None);
    }
}
