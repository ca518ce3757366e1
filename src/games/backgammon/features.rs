//! GP-Gammon's terminals (Azaria and Sipper 2005; docs/BACKGAMMON.md,
//! "GP-Gammon"), computed on the position a play reaches for the side that
//! played it, "the player"; "the enemy" is the side to roll next.
//!
//! Point terminals take a location `n` on the player's own numbering:
//! 1–24 its points (1 the last of its home board), 25 the bar, 0 off the
//! board. The enemy's checkers are counted where they stand on that
//! numbering (the enemy's point 25 − n), its bar and its checkers off at
//! 25 and 0 likewise.
//!
//! The hit probability counts shots as backgammon players do: the rolls of
//! 36 with which some enemy checker can land on some blot of the player, by
//! one die, or by a whole non-double roll or two to four steps of a double
//! whose intermediate points are open; an enemy with checkers on the bar
//! hits only with those entering. The escape terminals count the rolls of
//! 36 with which a side's rearmost checker can play the whole roll through
//! the points the other side holds in the twelve ahead of it.

use super::board::{BAR, Board};
use super::{Backgammon, Position};
use crate::games::Player;
use crate::games::domain::{Compute, FeatureDef, NativeCall, NativeDef, NativeFn};
use crate::lang::{Base, Value};

/// The pip count a side starts with, by which the pip terminals are scaled.
pub const START_PIPS: f64 = 167.0;

/// The board seen from `me`: `me` first.
#[inline]
pub fn seen_by(pos: &Position, me: Player) -> Board {
    if me == pos.on_roll { pos.board } else { pos.board.swapped() }
}

/// The checkers of `side` at location `n` of its own numbering (0 off,
/// 25 the bar); 0 for locations off the scale.
#[inline]
fn own_at(side: &[u8; 25], n: i64) -> u8 {
    match n {
        0 => Board::borne_off(side),
        1..=24 => side[n as usize - 1],
        25 => side[BAR],
        _ => 0,
    }
}

/// The enemy's checkers (`enemy`, its counts) at location `n` of the
/// player's numbering.
#[inline]
fn enemy_at(enemy: &[u8; 25], n: i64) -> u8 {
    match n {
        1..=24 => enemy[24 - n as usize],
        0 | 25 => own_at(enemy, n),
        _ => 0,
    }
}

/// The counts of `me` and of the other side, without copying the board.
#[inline]
fn sides(pos: &Position, me: Player) -> (&[u8; 25], &[u8; 25]) {
    if me == pos.on_roll { (&pos.board.me, &pos.board.them) } else { (&pos.board.them, &pos.board.me) }
}

/// Whether `side` holds its own point `p` (1–24) with two or more.
#[inline]
fn holds(side: &[u8; 25], p: i32) -> bool {
    (1..=24).contains(&p) && side[p as usize - 1] >= 2
}

/// The enemy's checkers at the player's point `p` (1–24).
#[inline]
fn enemy_on(board: &Board, p: i32) -> u8 {
    board.them[(24 - p) as usize]
}

/// Whether some die of `roll` carries an enemy checker from its point `q`
/// (25: the bar) onto the player's blot at the player's point `p`, the
/// intermediate points of a combined roll open (not held by the player).
fn hits(board: &Board, q: i32, p: i32, (a, b): (i32, i32)) -> bool {
    // On the player's numbering the enemy checker stands at 25 - q and
    // moves upwards.
    let from = 25 - q;
    let distance = p - from;
    if distance <= 0 {
        return false;
    }
    if distance == a || distance == b {
        return true;
    }
    let open = |at: i32| !holds(&board.me, at);
    if a != b {
        return distance == a + b && (open(from + a) || open(from + b));
    }
    (2..=4).any(|steps| distance == a * steps && (1..steps).all(|k| open(from + a * k)))
}

/// The chance (of 36) that the enemy, to roll, can hit a blot of the player.
pub fn total_hit_prob(board: &Board) -> f64 {
    let blots: Vec<i32> = (1..=24).filter(|&p| board.me[p as usize - 1] == 1).collect();
    if blots.is_empty() {
        return 0.0;
    }
    let on_bar = board.them[BAR] > 0;
    let enemy: Vec<i32> =
        if on_bar { vec![25] } else { (1..=24).filter(|&q| board.them[q as usize - 1] > 0).collect() };
    let mut rolls = 0u32;
    for a in 1..=6 {
        for b in 1..=6 {
            let hit = enemy.iter().any(|&q| {
                blots.iter().any(|&p| {
                    // From the bar a checker enters on the player's home
                    // board: the entry point must be open.
                    if q == 25 && board.them[BAR] > 1 && a != b {
                        let entry = |d: i32| p == d;
                        return entry(a) || entry(b);
                    }
                    hits(board, q, p, (a, b))
                })
            });
            rolls += u32::from(hit);
        }
    }
    f64::from(rolls) / 36.0
}

/// The rolls (of 36, as a fraction) with which a checker at `from` (25:
/// the bar) gets past the farthest point `blocked` holds among the twelve
/// ahead of it, every point it lands on open; 1 if none of them is held.
fn escapes(from: i32, blocked: impl Fn(i32) -> bool) -> f64 {
    let Some(last) = (from - 12..from).filter(|&p| p >= 1 && blocked(p)).min() else { return 1.0 };
    let open = |p: i32| p < 1 || !blocked(p);
    let past = |p: i32| p < last && open(p);
    let mut rolls = 0u32;
    for a in 1..=6 {
        for b in 1..=6 {
            let ok = if a == b {
                (1..=4).any(|k| past(from - a * k) && (1..k).all(|j| open(from - a * j)))
            } else {
                past(from - a) || past(from - b) || (past(from - a - b) && (open(from - a) || open(from - b)))
            };
            rolls += u32::from(ok);
        }
    }
    f64::from(rolls) / 36.0
}

/// The rearmost checker of `side` (25: on the bar), if it is behind some
/// checker of `other` (both on `side`'s numbering, `other` given as its own
/// counts): a checker that can still be blocked.
fn rearmost_in_contact(side: &[u8; 25], other: &[u8; 25]) -> Option<i32> {
    let back = (0..25).rev().find(|&i| side[i] > 0)? as i32 + 1;
    // The other side's rearmost checker, on its numbering; on `side`'s it
    // stands at 25 - that, the most advanced point `side` must pass.
    let their_back = (0..25).rev().find(|&i| other[i] > 0)? as i32 + 1;
    (back + their_back > 25).then_some(back)
}

/// The player's escape: how freely its rearmost checker gets past the
/// enemy's points (1 when it is past every enemy checker).
pub fn player_escape(board: &Board) -> f64 {
    match rearmost_in_contact(&board.me, &board.them) {
        None => 1.0,
        Some(from) => escapes(from, |p| p >= from - 12 && enemy_on(board, p) >= 2),
    }
}

/// The enemy's escape through the player's points.
pub fn enemy_escape(board: &Board) -> f64 {
    let theirs = board.swapped();
    player_escape(&theirs)
}

fn player_pip(pos: &Position, me: Player) -> f64 {
    let (mine, _) = Backgammon::pips(&seen_by(pos, me));
    f64::from(mine) / START_PIPS
}

fn enemy_pip(pos: &Position, me: Player) -> f64 {
    let (_, theirs) = Backgammon::pips(&seen_by(pos, me));
    f64::from(theirs) / START_PIPS
}

fn hit_prob(pos: &Position, me: Player) -> f64 {
    total_hit_prob(&seen_by(pos, me))
}

fn escape_of_player(pos: &Position, me: Player) -> f64 {
    player_escape(&seen_by(pos, me))
}

fn escape_of_enemy(pos: &Position, me: Player) -> f64 {
    enemy_escape(&seen_by(pos, me))
}

/// The points (1–24 of its own) `side` holds with two or more checkers,
/// as bits (bit `p - 1` for point `p`).
fn held(side: &[u8; 25]) -> u32 {
    (0..24).filter(|&i| side[i] >= 2).fold(0, |bits, i| bits | 1 << i)
}

/// The longest run of consecutive points held.
fn longest_run(mut bits: u32) -> u32 {
    let mut run = 0;
    while bits != 0 {
        bits &= bits << 1;
        run += 1;
    }
    run
}

/// Stratagem's terminals beyond the paper's (the `backgammon-plus`
/// primset): counts over the whole board a tree of the paper's terminals
/// can only sum point by point.
fn aggregate(pos: &Position, me: Player, f: fn(&[u8; 25], &[u8; 25]) -> u32) -> f64 {
    let (player, enemy) = sides(pos, me);
    f64::from(f(player, enemy))
}

fn player_points(pos: &Position, me: Player) -> f64 {
    aggregate(pos, me, |p, _| held(p).count_ones())
}

fn player_home_points(pos: &Position, me: Player) -> f64 {
    aggregate(pos, me, |p, _| (held(p) & 0x3f).count_ones())
}

fn enemy_home_points(pos: &Position, me: Player) -> f64 {
    aggregate(pos, me, |_, e| (held(e) & 0x3f).count_ones())
}

fn player_prime(pos: &Position, me: Player) -> f64 {
    aggregate(pos, me, |p, _| longest_run(held(p)))
}

fn enemy_prime(pos: &Position, me: Player) -> f64 {
    aggregate(pos, me, |_, e| longest_run(held(e)))
}

fn player_blots(pos: &Position, me: Player) -> f64 {
    aggregate(pos, me, |p, _| p[..24].iter().filter(|&&n| n == 1).count() as u32)
}

fn enemy_blots(pos: &Position, me: Player) -> f64 {
    aggregate(pos, me, |_, e| e[..24].iter().filter(|&&n| n == 1).count() as u32)
}

/// The player's checkers in the enemy's home board or on the bar.
fn player_back(pos: &Position, me: Player) -> f64 {
    aggregate(pos, me, |p, _| p[18..].iter().map(|&n| u32::from(n)).sum())
}

/// The terminals: pip counts (over 167), the hit probability, the escapes,
/// and the counts of [`aggregate`].
pub fn features() -> Vec<FeatureDef<Position>> {
    let f = |name: &str, compute: fn(&Position, Player) -> f64| FeatureDef {
        name: name.to_owned(),
        compute: Compute::F(compute),
    };
    vec![
        f("PlayerPip", player_pip),
        f("EnemyPip", enemy_pip),
        f("TotalHitProb", hit_prob),
        f("PlayerEscape", escape_of_player),
        f("EnemyEscape", escape_of_enemy),
        f("PlayerPoints", player_points),
        f("PlayerHomePoints", player_home_points),
        f("EnemyHomePoints", enemy_home_points),
        f("PlayerPrime", player_prime),
        f("EnemyPrime", enemy_prime),
        f("PlayerBlots", player_blots),
        f("EnemyBlots", enemy_blots),
        f("PlayerBack", player_back),
    ]
}

/// The location argument of a point terminal.
fn location(args: &[Value]) -> i64 {
    args.first().map_or(-1, |v| v.as_i64())
}

/// What a point terminal computes from the checkers at the location: its
/// own side's (`PLAYER`) or the enemy's.
fn at<const PLAYER: bool>(pos: &Position, me: Player, args: &[Value]) -> u8 {
    let (player, enemy) = sides(pos, me);
    let n = location(args);
    if PLAYER { own_at(player, n) } else { enemy_at(enemy, n) }
}

fn exposed<const PLAYER: bool>(pos: &Position, me: Player, args: &[Value]) -> Value {
    let n = location(args);
    Value::F(f64::from(u8::from((1..=24).contains(&n) && at::<PLAYER>(pos, me, args) == 1)))
}

fn blocked<const PLAYER: bool>(pos: &Position, me: Player, args: &[Value]) -> Value {
    let n = location(args);
    Value::F(f64::from(u8::from((1..=24).contains(&n) && at::<PLAYER>(pos, me, args) >= 2)))
}

/// Checkers beyond two on a point: a tower of h ≥ 3 gives h − 2.
fn tower(pos: &Position, me: Player, args: &[Value]) -> Value {
    let n = location(args);
    let h = if (1..=24).contains(&n) { at::<true>(pos, me, args) } else { 0 };
    Value::F(f64::from(h.saturating_sub(2)))
}

fn position<const PLAYER: bool>(pos: &Position, me: Player, args: &[Value]) -> Value {
    Value::F(f64::from(at::<PLAYER>(pos, me, args)))
}

/// The point terminals, each of one location.
pub fn natives() -> Vec<NativeDef<Position>> {
    let native = |name: &str, call: NativeFn<Position>| NativeDef {
        name: name.to_owned(),
        args: vec![Base::I],
        ret: Base::F,
        call: NativeCall::Fn(call),
    };
    vec![
        native("PlayerExposed", exposed::<true>),
        native("PlayerBlocked", blocked::<true>),
        native("PlayerTower", tower),
        native("EnemyExposed", exposed::<false>),
        native("EnemyBlocked", blocked::<false>),
        native("PlayerPosition", position::<true>),
        native("EnemyPosition", position::<false>),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::backgammon::Phase;

    fn board(me: &[(usize, u8)], them: &[(usize, u8)]) -> Board {
        let mut b = Board { me: [0; 25], them: [0; 25] };
        for &(p, n) in me {
            b.me[p - 1] = n;
        }
        for &(p, n) in them {
            b.them[p - 1] = n;
        }
        b
    }

    #[test]
    fn shots_are_counted_as_players_count_them() {
        // A blot on my 10-point, one enemy checker 6 pips away (on its
        // 21-point, my 4-point): 11 rolls have a 6, and 5-1, 4-2, 3-3 and
        // 2-2 (three steps) add 2 + 2 + 1 + 1; 1-1 reaches 4 pips only.
        let b = board(&[(10, 1), (1, 14)], &[(21, 1), (1, 14)]);
        assert_eq!(total_hit_prob(&b), 17.0 / 36.0);
        // Holding my 6- and 8-points blocks 4-2 (through either) and 2-2;
        // 5-1 passes through my 9 or 5, 3-3 through my 7.
        let held = board(&[(10, 1), (6, 2), (8, 2), (1, 10)], &[(21, 1), (1, 14)]);
        assert_eq!(total_hit_prob(&held), (11.0 + 2.0 + 1.0) / 36.0, "6s, 5-1, 3-3; 4-2 and 2-2 blocked");
        assert_eq!(total_hit_prob(&board(&[(6, 15)], &[(21, 15)])), 0.0, "no blots");
    }

    #[test]
    fn escapes_count_rolls_through_a_prime() {
        // My checker on my 24-point behind a full prime on my 18-13 (their
        // 7-12): no roll lands beyond it without landing on it.
        let mut them = [0u8; 25];
        for p in 7..=12 {
            them[p - 1] = 2;
        }
        them[0] = 3;
        let mut me = [0u8; 25];
        me[23] = 1;
        me[5] = 14;
        let b = Board { me, them };
        assert_eq!(player_escape(&b), 0.0);
        // A five-point prime on my 18-14: the rolls reaching my 13-point
        // or beyond, every landing open: 6-5 (through 19 or 18: 19 open),
        // 6-6 (18 held), 5-5 (19, 14 held), 4-4 (20, 16 held), 3-3 (21,
        // 18 held), so 6-5 only.
        let mut five = b;
        five.them[11] = 0;
        five.them[0] = 5;
        assert_eq!(player_escape(&five), 2.0 / 36.0);
        // Past everything: a race, escape 1.
        assert_eq!(player_escape(&board(&[(6, 15)], &[(6, 15)])), 1.0);
    }

    #[test]
    fn point_terminals_read_the_players_numbering() {
        let b = board(&[(24, 2), (13, 5), (8, 3), (6, 5)], &[(24, 2), (13, 5), (8, 3), (6, 5)]);
        // After white's play black is on roll: white's view is the swap.
        let pos = Position { board: b.swapped(), on_roll: 1, phase: Phase::ToRoll };
        let call = |f: NativeFn<Position>, n: i64| f(&pos, 0, &[Value::I(n)]).as_f64();
        assert_eq!(call(position::<true>, 13), 5.0);
        assert_eq!(call(blocked::<true>, 24), 1.0);
        assert_eq!(call(tower, 6), 3.0);
        // Black's 6-point is white's 19-point.
        assert_eq!(call(position::<false>, 19), 5.0);
        assert_eq!(call(blocked::<false>, 1), 1.0, "black's 24-point is white's 1-point");
        assert_eq!(call(position::<true>, 0), 0.0, "nothing off");
        assert_eq!(call(exposed::<true>, 99), 0.0);
        assert_eq!(player_pip(&pos, 0), 1.0);
        // The opening position: 4 points held (24, 13, 8, 6), 1 at home.
        assert_eq!((player_points(&pos, 0), player_home_points(&pos, 0), player_prime(&pos, 0)), (4.0, 1.0, 1.0));
        assert_eq!((player_blots(&pos, 0), player_back(&pos, 0)), (0.0, 2.0));
        assert_eq!(longest_run(0b0111_0110), 3);
    }
}
