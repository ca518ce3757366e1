//! Fuzz target `gdl`: see `stratagem_fuzz::gdl`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stratagem_fuzz::gdl(data));
