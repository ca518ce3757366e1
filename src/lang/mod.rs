//! The language: types, primitive sets, typed trees, lowering of forms and
//! type checking. Imports nothing from `eval`.

pub mod activation;
pub mod builtin;
pub mod check;
pub mod forms;
pub mod library;
pub mod lower_network;
pub mod lower_primset;
pub mod network;
pub mod primset;
pub mod program;
pub mod syntax_helpers;
pub mod types;

pub use forms::{Individual, NamedTree, Policy, PrimSetId, Rule, Weights};
pub use network::{NetGenes, Network};
pub use primset::{Node, Part, PrimId, PrimKind, PrimSet, Primitive, Tree};
pub use program::{FormRef, Loader, Module, ProgramRef};
pub use types::{Base, TypeId, Value};
