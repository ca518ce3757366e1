//! Fuzz target `puzzle_files`: see `stratagem_fuzz::puzzle_files`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stratagem_fuzz::puzzle_files(data));
