//! Generates the S-expression parser from grammar/sexpr.lalrpop.
fn main() {
    lalrpop::Configuration::new().set_in_dir("grammar").process().expect("grammar/sexpr.lalrpop is valid");
}
