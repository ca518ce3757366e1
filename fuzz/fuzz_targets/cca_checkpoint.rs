//! Fuzz target `cca_checkpoint`: see `stratagem_fuzz::cca_checkpoint`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stratagem_fuzz::cca_checkpoint(data));
