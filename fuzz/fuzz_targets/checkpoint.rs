//! Fuzz target `checkpoint`: see `stratagem_fuzz::checkpoint`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stratagem_fuzz::checkpoint(data));
