//! `stratagem rush-hour generate`: hard Rush Hour boards, one per line in
//! Fogleman's format (`<length> <board> <cluster size>`), which `solve`
//! reads back.

use clap::Subcommand;
use rayon::prelude::*;

use super::{Failure, Outcome, out};
use crate::games::rushhour::generate::generate;

#[derive(Subcommand, Debug)]
pub enum RushHourCommand {
    /// Generate solvable boards whose optimal solution is at least L slides.
    Generate {
        /// The board's side: 6 or 8.
        #[arg(long, default_value_t = 8)]
        size: u8,
        /// Boards to generate.
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Fewest slides of a board's optimal solution.
        #[arg(long, value_name = "L", default_value_t = 30)]
        min_length: u32,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Climbs from a fresh random board each board may take before it is
        /// given up (a climb takes up to 400 changes of one vehicle).
        #[arg(long, default_value_t = 50)]
        attempts: usize,
        /// Threads (0: all cores). Board i depends only on the seed and i.
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
}

pub fn run(command: RushHourCommand) -> Outcome {
    let RushHourCommand::Generate { size, count, min_length, seed, attempts, threads } = command;
    if size != 6 && size != 8 {
        return Err(Failure::message(
            "stratagem::rush-hour::size",
            format!("`--size {size}`: Rush Hour boards are 6×6 or 8×8"),
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::message("stratagem::rush-hour::threads", e.to_string()))?;
    let boards: Vec<_> = pool.install(|| {
        (0..count)
            .into_par_iter()
            .map(|i| {
                let mut rng = crate::rng::stream(seed, &[0x7268, i as u64]);
                generate(size, min_length, &mut rng, attempts)
            })
            .collect()
    });
    let mut text = String::new();
    let mut missing = 0;
    for g in boards.iter() {
        match g {
            Some(g) => text.push_str(&format!("{:02} {} {}\n", g.length, g.board, g.cluster)),
            None => missing += 1,
        }
    }
    out(&text);
    if missing > 0 {
        return Err(Failure::message(
            "stratagem::rush-hour::generate",
            format!(
                "{missing} of {count} boards reached no {min_length} slides in {attempts} climbs: ask for fewer slides or more `--attempts`"
            ),
        ));
    }
    Ok(())
}
