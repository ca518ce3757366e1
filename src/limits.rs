//! Resource limits: how much input Stratagem reads and how much work one
//! command may ask for before it is refused with a diagnostic.
//!
//! Every limit has a name, a default and a hard maximum; `--limit NAME=VALUE`
//! (a global option of every command) raises or lowers it for one run. An
//! error that hits a limit names it and says how to raise it, so a user
//! with a genuinely large input is never stuck. The limits are set once per
//! process, before any work starts; library users get the defaults.

use std::fmt;
use std::sync::OnceLock;

/// One configurable limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// Bytes of a program, trees file, checkpoint or other text input.
    InputSize,
    /// Bytes of a CSV table (`eval --rows`, `batch --rows`).
    CsvSize,
    /// How deep lists may nest in any file the reader reads.
    Nesting,
    /// Games of one `play` match.
    Games,
    /// Depth of an α-β search (`alphabeta:D`, `select:D`, experiments' search).
    SearchDepth,
    /// Depth of `perft`.
    PerftDepth,
    /// Games one generation of an experiment plays (population × games per
    /// individual, validation included).
    GamesPerGeneration,
    /// Milliseconds a foreign program (a sandboxed C player) has to answer
    /// one call, a move; past it, it forfeits.
    ForeignTime,
    /// Bytes of address space of a foreign program's process.
    ForeignMemory,
    /// Bytes of a message from a GGP game server (`ggp serve`): rules cost
    /// some 60 times their size to load, and anyone who reaches the port
    /// may send them.
    GgpMessage,
}

impl Limit {
    pub const ALL: [Limit; 10] = [
        Limit::InputSize,
        Limit::CsvSize,
        Limit::Nesting,
        Limit::Games,
        Limit::SearchDepth,
        Limit::PerftDepth,
        Limit::GamesPerGeneration,
        Limit::ForeignTime,
        Limit::ForeignMemory,
        Limit::GgpMessage,
    ];

    /// The name used on the command line (`--limit input-size=128M`).
    pub fn name(self) -> &'static str {
        match self {
            Limit::InputSize => "input-size",
            Limit::CsvSize => "csv-size",
            Limit::Nesting => "nesting",
            Limit::Games => "games",
            Limit::SearchDepth => "search-depth",
            Limit::PerftDepth => "perft-depth",
            Limit::GamesPerGeneration => "games-per-generation",
            Limit::ForeignTime => "foreign-time",
            Limit::ForeignMemory => "foreign-memory",
            Limit::GgpMessage => "ggp-message",
        }
    }

    pub fn default_value(self) -> u64 {
        match self {
            Limit::InputSize => 64 << 20,
            Limit::CsvSize => 1 << 30,
            Limit::Nesting => 256,
            Limit::Games => 1_000_000_000,
            Limit::SearchDepth => 32,
            Limit::PerftDepth => 40,
            Limit::GamesPerGeneration => 100_000_000,
            Limit::ForeignTime => 1000,
            Limit::ForeignMemory => 1 << 30,
            Limit::GgpMessage => 4 << 20,
        }
    }

    /// The most `--limit` accepts: past it the program itself would fail
    /// (a stack too small for the nesting, a count that does not fit).
    pub fn hard_maximum(self) -> u64 {
        match self {
            Limit::InputSize | Limit::CsvSize => 1 << 40,
            // Checking, compiling and evaluating recurse once per level, and
            // matches evaluate on worker threads with the default stack.
            Limit::Nesting => 1024,
            Limit::Games | Limit::GamesPerGeneration => 1 << 53,
            Limit::SearchDepth | Limit::PerftDepth => 1000,
            Limit::ForeignTime => 3_600_000,
            Limit::ForeignMemory | Limit::GgpMessage => 1 << 40,
        }
    }

    /// Whether values are byte counts (printed with KiB/MiB/GiB, read with K/M/G).
    fn is_size(self) -> bool {
        matches!(self, Limit::InputSize | Limit::CsvSize | Limit::ForeignMemory | Limit::GgpMessage)
    }

    /// What the limit counts, for messages.
    pub fn unit(self) -> &'static str {
        match self {
            Limit::InputSize | Limit::CsvSize | Limit::ForeignMemory | Limit::GgpMessage => "bytes",
            Limit::ForeignTime => "milliseconds",
            Limit::Nesting => "levels",
            Limit::Games | Limit::GamesPerGeneration => "games",
            Limit::SearchDepth | Limit::PerftDepth => "plies",
        }
    }

    /// The current value: the one set for this run, else the default.
    pub fn get(self) -> u64 {
        match CONFIGURED.get() {
            Some(set) => set.value(self),
            None => self.default_value(),
        }
    }

    /// The value as a user would write it (`64 MiB`, `256`).
    pub fn show(self, value: u64) -> String {
        if self.is_size() { show_bytes(value) } else { value.to_string() }
    }

    /// The sentence every refusal ends with.
    pub fn how_to_raise(self) -> String {
        format!("the `{}` limit is {}; {}", self.name(), self.show(self.get()), self.raise_hint())
    }

    /// "raise it with `--limit NAME=N` (at most MAX)".
    pub fn raise_hint(self) -> String {
        format!("raise it with `--limit {}=N` (at most {})", self.name(), self.show(self.hard_maximum()))
    }

    /// `Err` with a full message when `value` exceeds the limit; `what` names
    /// the request, e.g. "`--games 5000000000`".
    pub fn check(self, value: u64, what: &str) -> Result<(), String> {
        if value > self.get() { Err(format!("{what} exceeds a limit: {}", self.how_to_raise())) } else { Ok(()) }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The values of every limit for one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    values: Vec<(Limit, u64)>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { values: Limit::ALL.iter().map(|&l| (l, l.default_value())).collect() }
    }
}

impl Limits {
    pub fn value(&self, limit: Limit) -> u64 {
        self.values.iter().find(|(l, _)| *l == limit).map_or(limit.default_value(), |&(_, v)| v)
    }

    pub fn set(&mut self, limit: Limit, value: u64) {
        if let Some(slot) = self.values.iter_mut().find(|(l, _)| *l == limit) {
            slot.1 = value;
        }
    }

    /// Makes these the limits of the process. Only the first call counts (the
    /// CLI calls it once, before any work).
    pub fn install(self) {
        let _ = CONFIGURED.set(self);
    }
}

static CONFIGURED: OnceLock<Limits> = OnceLock::new();

/// A `--limit NAME=VALUE` argument, parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitSetting {
    pub limit: Limit,
    pub value: u64,
}

/// Parses `NAME=VALUE`; sizes take a K, M or G suffix (powers of 1024).
pub fn parse_setting(arg: &str) -> Result<LimitSetting, String> {
    let names = || Limit::ALL.iter().map(|l| l.name()).collect::<Vec<_>>().join(", ");
    let (name, value) =
        arg.split_once('=').ok_or_else(|| format!("expected NAME=VALUE, where NAME is one of: {}", names()))?;
    let limit = Limit::ALL.iter().copied().find(|l| l.name() == name).ok_or_else(|| {
        let hint = crate::spelling::did_you_mean(name, Limit::ALL.iter().map(|l| l.name()))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        format!("unknown limit `{name}`{hint}; the limits are: {}", names())
    })?;
    let parsed = if limit.is_size() { parse_bytes(value) } else { value.parse::<u64>().ok() };
    let value = parsed.ok_or_else(|| {
        if limit.is_size() {
            format!("`{value}` is not a size for `{name}` (a number of bytes, or with K, M or G: 128M)")
        } else {
            format!("`{value}` is not a whole number for `{name}`")
        }
    })?;
    if value == 0 || value > limit.hard_maximum() {
        return Err(format!("`{name}` must be between 1 and {}", limit.show(limit.hard_maximum())));
    }
    Ok(LimitSetting { limit, value })
}

fn parse_bytes(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, shift) = match text.char_indices().last()? {
        (i, 'k' | 'K') => (&text[..i], 10),
        (i, 'm' | 'M') => (&text[..i], 20),
        (i, 'g' | 'G') => (&text[..i], 30),
        _ => (text, 0),
    };
    digits.parse::<u64>().ok()?.checked_mul(1u64 << shift)
}

fn show_bytes(n: u64) -> String {
    const UNITS: [(u64, &str); 4] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (size, unit) in UNITS {
        if n >= size && n.is_multiple_of(size) {
            return format!("{} {unit}", n / size);
        }
    }
    format!("{n} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_with_units_and_refuse_nonsense() {
        let s = parse_setting("input-size=128M").expect("parses");
        assert_eq!((s.limit, s.value), (Limit::InputSize, 128 << 20));
        assert_eq!(parse_setting("games=5").map(|s| s.value), Ok(5));
        assert!(parse_setting("games=5K").is_err(), "only sizes take units");
        assert!(parse_setting("nesting=0").is_err());
        assert!(parse_setting("nesting=2000").is_err(), "past the hard maximum");
        let typo = parse_setting("nestng=10").expect_err("unknown");
        assert!(typo.contains("did you mean `nesting`"), "{typo}");
        assert!(parse_setting("games").is_err());
        assert!(parse_setting("input-size=99999999999G").is_err(), "overflow is refused");
    }

    #[test]
    fn messages_name_the_limit_and_how_to_raise_it() {
        let err = Limit::Games.check(u64::MAX, "`--games 18446744073709551615`").expect_err("over");
        assert!(err.contains("`--limit games=N`"), "{err}");
        assert_eq!(Limit::InputSize.show(64 << 20), "64 MiB");
        assert_eq!(Limit::InputSize.show(1000), "1000 bytes");
        assert!(Limit::Games.check(10, "x").is_ok());
    }
}
