//! Fuzz target `positions`: see `stratagem_fuzz::positions`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stratagem_fuzz::positions(data));
