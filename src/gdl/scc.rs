//! Tarjan's strongly connected components, iteratively (deep dependency
//! chains cannot overflow the stack), for every graph of the GDL pipeline:
//! relations (planning, grounding) and gates (the propositional network).

/// Calls `f` with each strongly connected component of the graph of `n`
/// nodes whose `k`-th edge from `v` is `edge(v, k)` (`None` past the last),
/// members sorted. Edges go from a node to those it depends on, so a
/// component comes after every component it reaches.
pub(super) fn each_component(n: usize, edge: impl Fn(usize, usize) -> Option<usize>, mut f: impl FnMut(&[usize])) {
    const UNSEEN: usize = usize::MAX;
    let (mut index, mut low, mut on_stack) = (vec![UNSEEN; n], vec![0; n], vec![false; n]);
    let (mut stack, mut work, mut members) = (Vec::new(), Vec::new(), Vec::new());
    let mut counter = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        work.push((root, 0));
        while let Some(&mut (v, ref mut next)) = work.last_mut() {
            if *next == 0 && index[v] == UNSEEN {
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(w) = edge(v, *next) {
                *next += 1;
                if index[w] == UNSEEN {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                members.clear();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                members.sort_unstable();
                f(&members);
            }
        }
    }
}
