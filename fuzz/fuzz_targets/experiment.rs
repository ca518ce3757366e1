//! Fuzz target `experiment`: see `stratagem_fuzz::experiment`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stratagem_fuzz::experiment(data));
