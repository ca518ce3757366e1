//! `stratagem games [--format json]`: every registered game with its kind,
//! roles, domain and the shipped primsets that bind to it. Any GDL game
//! description (a `.kif` file) is a game too, named by its path; the text
//! listing says so.

use super::{Format, Outcome, out};
use crate::games::registry::{self, GAMES};

pub fn run(format: Format) -> Outcome {
    match format {
        Format::Json => out(&format!("{}\n", registry::describe_json())),
        Format::Text => {
            let width = GAMES.iter().map(|e| e.name.len()).max().unwrap_or(0);
            let mut text = String::new();
            for e in &GAMES {
                let primsets = e.primsets();
                let primsets = if primsets.is_empty() { "none".to_owned() } else { primsets.join(", ") };
                text.push_str(&format!(
                    "{:width$}  {}, roles {}; primsets: {}\n{:width$}  {}\n",
                    e.name,
                    e.kind.name(),
                    e.roles.join(" "),
                    primsets,
                    "",
                    e.summary,
                ));
            }
            text.push_str(
                "\nAny GDL game description is a game too: pass its path, e.g. `--game games/ticTacToe.kif`\n\
                 (kind and roles come from the file; `stratagem gdl check GAME.kif` checks it);\n\
                 the `gdl` primset binds to every one (docs/GDL.md).\n",
            );
            out(&text);
        }
    }
    Ok(())
}
