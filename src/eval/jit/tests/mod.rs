//! Tests of the JIT engine.
