//! GGP messages: `( START id role (rules…) startclock playclock )`,
//! `( PLAY id moves )`, `( STOP id moves )`, `( ABORT id )`, `( INFO )`.
//!
//! A message is read as a tree of parentheses and atoms with byte spans,
//! not with the language's reader: match ids and role names are whatever a
//! server makes them, and the rules and moves are handed on as the text
//! they were sent in (the rules to the GDL compiler, the moves to the
//! game's move parser), so this reader only needs to find where they are.
//! Keywords, like every GDL symbol, are case-insensitive. Only the
//! message's own items are kept (at most [`MAX_ITEMS`], a span each), and
//! lists inside them are only counted into and out of, so no message takes
//! stack or memory beyond its text. Lists nested deeper than the rules may
//! be (the `nesting` limit, below the message's list and the rules' list)
//! are refused here, before the GDL reader would spend memory on them.

use std::ops::Range;

use crate::limits::Limit;

/// A message from a game server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Start {
        id: String,
        role: String,
        /// The rules as sent, without the list around them: GDL text.
        rules: String,
        start_clock: u32,
        play_clock: u32,
    },
    /// `moves` is the last joint move, as the text of its moves in role
    /// order; `None` for `NIL`, before the first move.
    Play {
        id: String,
        moves: Option<String>,
    },
    Stop {
        id: String,
        moves: Option<String>,
    },
    Abort {
        id: String,
    },
    Info,
}

/// The most items a message has (START's six).
pub const MAX_ITEMS: usize = 6;

/// An atom or a list, with its span in the message.
enum Node {
    Atom(Range<usize>),
    List(Range<usize>),
}

/// Reads one message; the error says what is wrong with it.
pub fn parse(text: &str) -> Result<Message, String> {
    let nesting = usize::try_from(Limit::Nesting.get()).unwrap_or(usize::MAX);
    let items = items(text, nesting.saturating_add(2))?;
    let atom = |i: usize, what: &str| -> Result<&str, String> {
        match items.get(i) {
            Some(Node::Atom(s)) => Ok(&text[s.clone()]),
            Some(Node::List(_)) => Err(format!("{what} is a list; an atom was expected")),
            None => Err(format!("no {what}")),
        }
    };
    let keyword = atom(0, "message type")?.to_ascii_uppercase();
    let arity = |n: usize| -> Result<(), String> {
        if items.len() == n {
            Ok(())
        } else {
            Err(format!("{keyword} takes {} arguments, not {}", n - 1, items.len() - 1))
        }
    };
    let moves = |i: usize| -> Result<Option<String>, String> {
        match &items[i] {
            Node::Atom(s) if text[s.clone()].eq_ignore_ascii_case("nil") => Ok(None),
            Node::Atom(s) => Err(format!("the moves `{}` are neither NIL nor a list", &text[s.clone()])),
            Node::List(s) => Ok(Some(inside(text, s.clone()).to_owned())),
        }
    };
    let clock = |i: usize, what: &str| -> Result<u32, String> {
        let t = atom(i, what)?;
        t.parse::<u32>().map_err(|_| format!("the {what} `{t}` is not a whole number of seconds"))
    };
    match keyword.as_str() {
        "START" => {
            arity(6)?;
            let rules = match &items[3] {
                Node::List(s) => inside(text, s.clone()).to_owned(),
                Node::Atom(_) => return Err("the rules are an atom; a list of rules was expected".to_owned()),
            };
            Ok(Message::Start {
                id: atom(1, "match id")?.to_owned(),
                role: atom(2, "role")?.to_owned(),
                rules,
                start_clock: clock(4, "start clock")?,
                play_clock: clock(5, "play clock")?,
            })
        }
        "PLAY" => {
            arity(3)?;
            Ok(Message::Play { id: atom(1, "match id")?.to_owned(), moves: moves(2)? })
        }
        "STOP" => {
            arity(3)?;
            Ok(Message::Stop { id: atom(1, "match id")?.to_owned(), moves: moves(2)? })
        }
        "ABORT" => {
            arity(2)?;
            Ok(Message::Abort { id: atom(1, "match id")?.to_owned() })
        }
        "INFO" => {
            arity(1)?;
            Ok(Message::Info)
        }
        other => Err(format!("unknown message type `{other}` (START, PLAY, STOP, ABORT, INFO)")),
    }
}

/// The text inside a list's parentheses.
fn inside(text: &str, span: Range<usize>) -> &str {
    &text[span.start + 1..span.end - 1]
}

/// The items of the one list `text` holds, in which lists nest at most
/// `max_depth` deep.
fn items(text: &str, max_depth: usize) -> Result<Vec<Node>, String> {
    let mut items = Vec::new();
    // How deep the scan is in lists, where the message's list and the item
    // being read (at depth 2) began, and whether the message has ended.
    let mut depth = 0usize;
    let mut message_start = 0;
    let mut item_start = 0;
    let mut done = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if done && !matches!(b, b';' | b')') {
            return Err(format!("more than one message (a second one at byte {i})"));
        }
        match b {
            // A comment, as in .kif files, runs to the end of its line.
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                match depth {
                    0 => message_start = i,
                    1 => item_start = i,
                    _ => {}
                }
                depth += 1;
                if depth > max_depth {
                    return Err(format!(
                        "lists nested more than {max_depth} deep at byte {i}: rules nest at most {} deep (the \
                         `nesting` limit)",
                        max_depth.saturating_sub(2)
                    ));
                }
                i += 1;
            }
            b')' => {
                if depth == 0 {
                    return Err(format!("a `)` at byte {i} closes no list"));
                }
                depth -= 1;
                i += 1;
                match depth {
                    0 => done = true,
                    1 => push(&mut items, Node::List(item_start..i))?,
                    _ => {}
                }
            }
            _ => {
                let start = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b'(' | b')' | b';') {
                    i += 1;
                }
                match depth {
                    0 => return Err("a GGP message is a list: ( START ... ), ( PLAY ... ), ...".to_owned()),
                    1 => push(&mut items, Node::Atom(start..i))?,
                    _ => {}
                }
            }
        }
    }
    if depth > 0 {
        return Err(format!("the list opened at byte {message_start} is not closed"));
    }
    if !done {
        return Err("an empty message".to_owned());
    }
    Ok(items)
}

/// Adds a message's item, refusing one past [`MAX_ITEMS`].
fn push(items: &mut Vec<Node>, node: Node) -> Result<(), String> {
    if items.len() == MAX_ITEMS {
        return Err(format!("more than {MAX_ITEMS} items: no GGP message has so many"));
    }
    items.push(node);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_game_servers_write_them() {
        let start = "( START m1 xplayer (( role xplayer ) ( role oplayer ) (<= terminal (true (step 3))) ) 10 5)";
        let Ok(Message::Start { id, role, rules, start_clock, play_clock }) = parse(start) else {
            panic!("{:?}", parse(start))
        };
        assert_eq!((id.as_str(), role.as_str(), start_clock, play_clock), ("m1", "xplayer", 10, 5));
        assert_eq!(rules, "( role xplayer ) ( role oplayer ) (<= terminal (true (step 3))) ");
        assert_eq!(parse("( PLAY m1 NIL )"), Ok(Message::Play { id: "m1".into(), moves: None }));
        assert_eq!(
            parse("(play m1 (( mark 1 3 ) noop ) )"),
            Ok(Message::Play { id: "m1".into(), moves: Some("( mark 1 3 ) noop ".into()) })
        );
        assert_eq!(
            parse("( STOP m1 (noop ( mark 2 2 ) ) )"),
            Ok(Message::Stop { id: "m1".into(), moves: Some("noop ( mark 2 2 ) ".into()) })
        );
        assert_eq!(parse("( ABORT m1 )"), Ok(Message::Abort { id: "m1".into() }));
        assert_eq!(parse("( INFO )"), Ok(Message::Info));
        assert_eq!(parse("; a comment (\n( INFO ) ; another )"), Ok(Message::Info));
    }

    #[test]
    fn malformed_messages_say_what_is_wrong() {
        for (text, wanted) in [
            ("", "empty"),
            ("HELLO", "a list"),
            ("( INFO", "not closed"),
            ("( INFO ) )", "closes no list"),
            ("( INFO ) ( INFO )", "more than one"),
            ("( DANCE m1 )", "unknown message type"),
            ("( PLAY m1 )", "takes 2 arguments"),
            ("( PLAY m1 move )", "neither NIL nor a list"),
            ("( START m1 r () ten 5 )", "not a whole number"),
            ("( START m1 r rules 10 5 )", "an atom"),
            ("( () )", "a list; an atom"),
        ] {
            let e = parse(text).expect_err(text);
            assert!(e.contains(wanted), "{text}: {e}");
        }
        let deep = "(".repeat(1_000_000);
        assert!(parse(&deep).is_err(), "deep nesting is an error, not a stack overflow");
        let nested = |depth: usize| format!("( START m r ({}{}) 1 1 )", "(".repeat(depth), ")".repeat(depth));
        assert!(matches!(parse(&nested(256)), Ok(Message::Start { .. })), "rules as deep as the reader takes");
        assert!(parse(&nested(257)).expect_err("too deep").contains("nested more than 258 deep"));
        assert!(parse(&nested(1_000_000)).is_err());
        let long = format!("( INFO {})", "a ".repeat(1_000_000));
        assert!(parse(&long).expect_err("too many items").contains("more than 6 items"));
    }

    proptest::proptest! {
        #[test]
        fn no_text_panics_the_reader(text in "[()a-zA-Z0-9 ;\n?<=-]{0,80}") {
            let _ = parse(&text);
        }

        #[test]
        fn no_bytes_panic_the_reader(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80)) {
            let _ = parse(&String::from_utf8_lossy(&bytes));
        }
    }
}
