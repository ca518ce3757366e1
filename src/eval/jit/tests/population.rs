//! Population compilation: hash-consing, sharing across threads, and memory
//! that comes back when populations are dropped.
