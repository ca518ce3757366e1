//! Fuzz target `csv_rows`: see `stratagem_fuzz::csv_rows`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stratagem_fuzz::csv_rows(data));
