//! Fuzz target `read_check`: see `stratagem_fuzz::read_check`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stratagem_fuzz::read_check(data));
