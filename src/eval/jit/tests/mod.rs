//! Tests of the JIT engine: seeded random programs run on the interpreter
//! and on the JIT and compared by bits (`differential`), folding when
//! compiling (`folding`), the generator they use (`random`), and population
//! compilation at GP scale (`population`).

mod differential;
mod folding;
mod population;
mod random;
