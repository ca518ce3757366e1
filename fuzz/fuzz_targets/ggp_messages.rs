//! Fuzz target `ggp_messages`: see `stratagem_fuzz::ggp_messages`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stratagem_fuzz::ggp_messages(data));
