//! Programs: files of forms, their imports, and the [`Module`] they lower to.
//!
//! A file is read, then lowered in two passes: first `import` and `primset`
//! forms in order (a primset may extend one defined above it or imported),
//! then the forms that use primsets (`individual`, `policy`, `weights`,
//! `network`), which
//! may therefore name a primset defined anywhere in the file or its imports.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::forms::{Individual, Policy, PrimSetId, Weights, lower_individual, lower_policy, lower_weights};
use super::library;
use super::lower_network::lower_network;
use super::lower_primset::lower_primset;
use super::network::Network;
use super::primset::PrimSet;
use super::syntax_helpers::Cx;
use crate::diagnostic::{Diagnostic, FileId, Sources, did_you_mean};
use crate::syntax::{Atom, Sexp, SexpKind, read};

/// A top-level form of a file, in the order written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormRef {
    PrimSet(usize),
    Individual(usize),
    Policy(usize),
    Weights(usize),
    Network(usize),
    Experiment(usize),
}

/// Everything the loaded files define.
#[derive(Debug, Default, Clone)]
pub struct Module {
    pub primsets: Vec<PrimSet>,
    pub individuals: Vec<Individual>,
    pub policies: Vec<Policy>,
    pub weights: Vec<Weights>,
    pub networks: Vec<Network>,
    /// `(experiment ...)` forms as read, with their file; lowered by `evolve::experiment`.
    pub experiments: Vec<(FileId, Sexp)>,
    /// Forms per file, in the order written (for `check` summaries).
    pub forms: Vec<(FileId, FormRef)>,
}

impl Module {
    pub fn primset(&self, id: PrimSetId) -> &PrimSet {
        &self.primsets[id.0]
    }

    pub fn find_primset(&self, name: &str) -> Option<PrimSetId> {
        self.primsets.iter().rposition(|p| p.name == name).map(PrimSetId)
    }

    pub fn find_individual(&self, name: &str) -> Option<&Individual> {
        self.individuals.iter().find(|i| i.name == name)
    }

    /// One line: kind, name, trees, nodes, depth (and a few kind-specific counts).
    pub fn summarize(&self, form: FormRef) -> String {
        let m = self;
        match form {
            FormRef::PrimSet(i) => {
                let ps = &m.primsets[i];
                let defs: Vec<_> = ps
                    .prims
                    .iter()
                    .filter_map(|p| match &p.kind {
                        super::primset::PrimKind::Derived(d) => Some(&d.body),
                        _ => None,
                    })
                    .collect();
                let nodes: usize = defs.iter().map(|t| t.len()).sum();
                let depth = defs.iter().map(|t| t.depth(ps)).max().unwrap_or(0);
                format!(
                    "primset {} trees={} nodes={nodes} depth={depth} types={} primitives={} ercs={}",
                    ps.name,
                    defs.len(),
                    ps.types.len(),
                    ps.prims.len(),
                    ps.ercs.len()
                )
            }
            FormRef::Individual(i) => {
                let ind = &m.individuals[i];
                let ps = m.primset(ind.primset);
                let nodes: usize = ind.trees.iter().map(|t| t.tree.len()).sum();
                let depth = ind.trees.iter().map(|t| t.tree.depth(ps)).max().unwrap_or(0);
                format!("individual {} trees={} nodes={nodes} depth={depth}", ind.name, ind.trees.len())
            }
            FormRef::Policy(i) => {
                let p = &m.policies[i];
                let ps = m.primset(p.primset);
                let trees = p.rules.iter().flat_map(|r| [&r.condition, &r.value]).chain([&p.default]);
                let (n, nodes, depth) =
                    trees.fold((0, 0, 0), |(n, nodes, depth), t| (n + 1, nodes + t.len(), depth.max(t.depth(ps))));
                format!("policy {} trees={n} nodes={nodes} depth={depth} rules={}", p.name, p.rules.len())
            }
            FormRef::Weights(i) => {
                let w = &m.weights[i];
                format!("weights {} trees=1 nodes={} depth=1 terms={}", w.name, w.terms.len(), w.terms.len())
            }
            FormRef::Network(i) => {
                let net = &m.networks[i];
                let g = net.genes();
                let enabled = g.links.iter().filter(|l| l.enabled).count();
                format!(
                    "network {} trees=1 nodes={} depth={} inputs={} hidden={} links={} enabled={enabled}",
                    net.name,
                    g.n_values(),
                    net.depth(),
                    g.inputs.len(),
                    g.nodes.len() - 1,
                    g.links.len()
                )
            }
            FormRef::Experiment(i) => {
                let name =
                    m.experiments[i].1.as_list().and_then(|l| l.get(1)).map_or_else(String::new, Sexp::to_string);
                format!("experiment {name} trees=0 nodes=0 depth=0")
            }
        }
    }

    /// The individual, policy, weight vector or network `name`.
    pub fn program(&self, name: &str) -> Option<ProgramRef<'_>> {
        let ind = || self.individuals.iter().find(|i| i.name == name).map(ProgramRef::Individual);
        let policy = || self.policies.iter().find(|p| p.name == name).map(ProgramRef::Policy);
        let weights = || self.weights.iter().find(|w| w.name == name).map(ProgramRef::Weights);
        let network = || self.networks.iter().find(|n| n.name == name).map(ProgramRef::Network);
        ind().or_else(policy).or_else(weights).or_else(network)
    }

    /// The diagnostic (of `code`) for a program `name` that `origin` does
    /// not define: a name it does define, or the list of them.
    pub fn unknown_program(&self, code: &'static str, origin: &str, name: &str) -> Diagnostic {
        let names = self.program_names();
        let help = match did_you_mean(name, names.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None if names.is_empty() => "it defines no individuals, policies, weight vectors or networks".to_owned(),
            None => format!("it defines: {}", names.join(", ")),
        };
        Diagnostic::error(code, format!("`{origin}` defines no individual, policy, weights or network `{name}`"))
            .with_help(help)
    }

    /// Names of the individuals, policies and weight vectors, for suggestions.
    pub fn program_names(&self) -> Vec<&str> {
        let inds = self.individuals.iter().map(|i| i.name.as_str());
        let pols = self.policies.iter().map(|p| p.name.as_str());
        let ws = self.weights.iter().map(|w| w.name.as_str());
        let nets = self.networks.iter().map(|n| n.name.as_str());
        inds.chain(pols).chain(ws).chain(nets).collect()
    }
}

/// A program of a module by kind: what `gp:` players, `eval`, `export`
/// and the REPL name.
#[derive(Clone, Copy)]
pub enum ProgramRef<'m> {
    Individual(&'m Individual),
    Policy(&'m Policy),
    Weights(&'m Weights),
    Network(&'m Network),
}

impl ProgramRef<'_> {
    pub fn name(&self) -> &str {
        match self {
            ProgramRef::Individual(i) => &i.name,
            ProgramRef::Policy(p) => &p.name,
            ProgramRef::Weights(w) => &w.name,
            ProgramRef::Network(n) => &n.name,
        }
    }

    pub fn primset(&self) -> PrimSetId {
        match self {
            ProgramRef::Individual(i) => i.primset,
            ProgramRef::Policy(p) => p.primset,
            ProgramRef::Weights(w) => w.primset,
            ProgramRef::Network(n) => n.primset,
        }
    }
}

/// Loads files and their imports into one [`Module`], collecting diagnostics.
#[derive(Default)]
pub struct Loader {
    pub sources: Sources,
    pub module: Module,
    pub diags: Vec<Diagnostic>,
    /// Files already loaded (canonical path or `lib:NAME`), to load each once.
    loaded: HashMap<String, FileId>,
    /// Texts already lowered, to recognise one file reached two ways.
    texts: HashMap<std::sync::Arc<str>, FileId>,
    /// Files being loaded, to report import cycles.
    loading: Vec<String>,
    /// Primsets whose definition had errors: forms that use them are not
    /// checked, so one mistake is not reported again for every individual.
    broken_primsets: Vec<String>,
    /// Names of the individuals, policies and weight vectors lowered so far
    /// (one namespace), so a duplicate is found without a scan.
    program_names: HashSet<String>,
}

/// Lowering a file stops after this many diagnostics: the first ones are
/// what a user fixes, and a runaway file must not take minutes or gigabytes.
pub const MAX_DIAGNOSTICS_LOWERING: usize = 1000;

impl Loader {
    pub fn new() -> Loader {
        Loader::default()
    }

    /// Loads a file named by the user (command line, REPL). A missing file is a
    /// diagnostic, not a panic.
    pub fn load_path(&mut self, path: &Path) -> Option<FileId> {
        let key = canonical_key(path);
        if let Some(&id) = self.loaded.get(&key) {
            return Some(id);
        }
        match self.sources.load(path) {
            Ok(file) => {
                let file = self.lower_file(file, key.clone());
                self.loaded.insert(key, file);
                Some(file)
            }
            Err(e) => {
                self.diags.push(
                    Diagnostic::error("stratagem::io", format!("cannot read `{}`: {e}", path.display()))
                        .with_help("check the path; programs are text files of S-expressions (.sg)"),
                );
                None
            }
        }
    }

    /// Loads text that did not come from a file (tests, the REPL).
    pub fn load_text(&mut self, name: &str, text: &str) -> FileId {
        let file = self.sources.add(name, None, text);
        self.lower_file(file, format!("text:{}", file.0))
    }

    /// Lowers a newly read file and returns its id. A file whose text is
    /// identical to one already loaded is that file reached another way
    /// (`programs/primsets/arith.sg` on the command line and `(import arith)`):
    /// it is not lowered twice, and the earlier id is returned.
    fn lower_file(&mut self, file: FileId, key: String) -> FileId {
        let text = self.sources.get(file).text.clone();
        if let Some(&same) = self.texts.get(&text) {
            return same;
        }
        self.texts.insert(text.clone(), file);
        let (forms, read_diags) = read(file, &text);
        let had_read_errors = !read_diags.is_empty();
        self.diags.extend(read_diags);
        if had_read_errors {
            return file;
        }
        self.loading.push(key);
        let first_diag = self.diags.len();
        for form in &forms {
            if self.stop_lowering(file, form, first_diag) {
                break;
            }
            match form.head() {
                Some("import") => self.lower_import(file, form),
                Some("primset") => {
                    let mut cx = Cx { file, diags: &mut self.diags };
                    let lowered = lower_primset(&mut cx, form, &self.module.primsets);
                    if lowered.is_none()
                        && let Some(name) = form.as_list().and_then(|l| l.get(1)).and_then(Sexp::as_symbol)
                    {
                        self.broken_primsets.push(name.to_owned());
                    }
                    if let Some(ps) = lowered {
                        if let Some(old) = self.module.primsets.iter().find(|p| p.name == ps.name) {
                            let d = Diagnostic::error(
                                "stratagem::lower::duplicate",
                                format!("primset `{}` is defined twice", ps.name),
                            )
                            .at(file, form.span.first_byte(), "second definition");
                            let d = if old.file == file {
                                d.also(old.span.first_byte(), "first definition")
                            } else {
                                d.with_help(format!("the first is in {}", self.sources.get(old.file).name))
                            };
                            self.diags.push(d);
                        } else {
                            self.module.forms.push((file, FormRef::PrimSet(self.module.primsets.len())));
                            self.module.primsets.push(ps);
                        }
                    }
                }
                _ => {}
            }
        }
        for form in &forms {
            if self.stop_lowering(file, form, first_diag) {
                break;
            }
            match form.head() {
                Some("import" | "primset") => {}
                Some(kind @ ("individual" | "policy" | "weights" | "network")) => {
                    self.lower_program_form(file, form, kind)
                }
                // Experiments name games and operators; `evolve::experiment` lowers them.
                Some("experiment") => {
                    self.module.forms.push((file, FormRef::Experiment(self.module.experiments.len())));
                    self.module.experiments.push((file, form.clone()));
                }
                _ => self.diags.push(unknown_form(file, form)),
            }
        }
        self.loading.pop();
        file
    }

    /// Whether lowering `file` has reported enough (see
    /// [`MAX_DIAGNOSTICS_LOWERING`]); the first time, says so at `form`.
    fn stop_lowering(&mut self, file: FileId, form: &Sexp, first_diag: usize) -> bool {
        let reported = self.diags.len() - first_diag;
        if reported < MAX_DIAGNOSTICS_LOWERING {
            return false;
        }
        if self.diags.last().is_none_or(|d| d.code != "stratagem::lower::stopped") {
            self.diags.push(
                Diagnostic::error(
                    "stratagem::lower::stopped",
                    format!("checking stopped after {reported} problems in this file"),
                )
                .at(file, form.span.first_byte(), "the rest of the file is not checked")
                .with_help("fix the problems above and check again"),
            );
        }
        true
    }

    fn lower_import(&mut self, file: FileId, form: &Sexp) {
        let mut cx = Cx { file, diags: &mut self.diags };
        let Some(items) =
            cx.expect_len(form, 2, "(import NAME) for a shipped primset, or (import \"PATH\") relative to this file")
        else {
            return;
        };
        let target = &items[1];
        let (key, name, text, path) = match &target.kind {
            SexpKind::Atom(Atom::Symbol(name)) => match library::primset_source(name) {
                Some(text) => {
                    (format!("lib:{name}"), format!("programs/primsets/{name}.sg"), Some(text.to_owned()), None)
                }
                None => {
                    let mut d = Diagnostic::error("stratagem::import", format!("no shipped primset named `{name}`"))
                        .at(file, target.span, "unknown library primset");
                    d = match did_you_mean(name, library::names()) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None => d.with_help(format!(
                            "shipped primsets: {}; import a file with (import \"PATH\")",
                            library::names().collect::<Vec<_>>().join(", ")
                        )),
                    };
                    self.diags.push(d);
                    return;
                }
            },
            SexpKind::Atom(Atom::Str(rel)) => {
                let base = self
                    .sources
                    .get(file)
                    .path
                    .as_ref()
                    .and_then(|p| p.parent().map(Path::to_path_buf))
                    .unwrap_or_default();
                let path: PathBuf = base.join(rel);
                (canonical_key(&path), path.display().to_string(), None, Some(path))
            }
            _ => {
                cx.usage(form, "(import NAME) or (import \"PATH\")");
                return;
            }
        };
        if self.loading.contains(&key) {
            self.diags.push(
                Diagnostic::error("stratagem::import-cycle", format!("import cycle: `{name}` is already being loaded"))
                    .at(file, target.span, "imports a file that imports this one")
                    .with_help("move the shared definitions into a file both can import"),
            );
            return;
        }
        if self.loaded.contains_key(&key) {
            return;
        }
        let loaded = match (text, path) {
            (Some(text), _) => Ok(self.sources.add(name.clone(), None, text)),
            (None, Some(path)) => self.sources.load(&path),
            (None, None) => return,
        };
        match loaded {
            Ok(id) => {
                let id = self.lower_file(id, key.clone());
                self.loaded.insert(key, id);
            }
            Err(e) => self.diags.push(
                Diagnostic::error("stratagem::import", format!("cannot read `{name}`: {e}"))
                    .at(file, target.span, "imported here")
                    .with_help("import paths are relative to the importing file"),
            ),
        }
    }

    fn lower_program_form(&mut self, file: FileId, form: &Sexp, kind: &str) {
        let Some(items) = form.as_list() else { return };
        let ps_name =
            items.get(2).filter(|c| c.head() == Some("primset")).and_then(|c| c.as_list()).and_then(|l| l.get(1));
        let Some(ps_sexp) = ps_name else {
            // Let the form's own lowering report the malformed header.
            let mut cx = Cx { file, diags: &mut self.diags };
            super::forms::lower_header(&mut cx, form, &format!("({kind} NAME (primset P) ...)"));
            return;
        };
        let Some(ps_id) = ps_sexp.as_symbol().and_then(|n| self.module.find_primset(n)) else {
            if ps_sexp.as_symbol().is_some_and(|n| self.broken_primsets.iter().any(|b| b == n)) {
                return;
            }
            let name = ps_sexp.to_string();
            let mut d = Diagnostic::error("stratagem::lower::unknown-primset", format!("unknown primset `{name}`")).at(
                file,
                ps_sexp.span,
                "not defined or imported",
            );
            let known: Vec<&str> = self.module.primsets.iter().map(|p| p.name.as_str()).collect();
            d = if let Some(s) = did_you_mean(&name, known) {
                d.with_help(format!("did you mean `{s}`?"))
            } else if library::primset_source(&name).is_some() {
                d.with_help(format!("it is shipped with Stratagem: add `(import {name})` to this file"))
            } else {
                d.with_help("define it in this file, or import the file that defines it with (import \"PATH\")")
            };
            self.diags.push(d);
            return;
        };
        let name = items.get(1).and_then(Sexp::as_symbol).unwrap_or("");
        if !name.is_empty() && self.program_names.contains(name) {
            self.diags.push(
                Diagnostic::error("stratagem::lower::duplicate", format!("`{name}` is defined twice"))
                    .at(file, items[1].span, "second definition")
                    .with_help("individuals, policies, weight vectors and networks share one namespace"),
            );
            return;
        }
        let ps = &self.module.primsets[ps_id.0];
        let mut cx = Cx { file, diags: &mut self.diags };
        let lowered = match kind {
            "individual" => lower_individual(&mut cx, form, ps, ps_id).map(Lowered::Individual),
            "policy" => lower_policy(&mut cx, form, ps, ps_id).map(Lowered::Policy),
            "network" => lower_network(&mut cx, form, ps, ps_id).map(Lowered::Network),
            _ => lower_weights(&mut cx, form, ps, ps_id).map(Lowered::Weights),
        };
        if lowered.is_some() {
            self.program_names.insert(name.to_owned());
        }
        let m = &mut self.module;
        match lowered {
            Some(Lowered::Individual(ind)) => {
                m.forms.push((file, FormRef::Individual(m.individuals.len())));
                m.individuals.push(ind);
            }
            Some(Lowered::Policy(p)) => {
                m.forms.push((file, FormRef::Policy(m.policies.len())));
                m.policies.push(p);
            }
            Some(Lowered::Weights(w)) => {
                m.forms.push((file, FormRef::Weights(m.weights.len())));
                m.weights.push(w);
            }
            Some(Lowered::Network(n)) => {
                m.forms.push((file, FormRef::Network(m.networks.len())));
                m.networks.push(n);
            }
            None => {}
        }
    }
}

enum Lowered {
    Individual(Individual),
    Policy(Policy),
    Weights(Weights),
    Network(Network),
}

fn canonical_key(path: &Path) -> String {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf()).display().to_string()
}

const FORMS: [&str; 7] = ["import", "primset", "individual", "policy", "weights", "network", "experiment"];

fn unknown_form(file: FileId, form: &Sexp) -> Diagnostic {
    let found = match form.head() {
        Some(h) => format!("unknown form `({h} ...)`"),
        None => format!("expected a form, found {}", form.describe()),
    };
    let mut d = Diagnostic::error("stratagem::lower::form", found).at(file, form.span, "not a top-level form");
    if let Some(s) = form.head().and_then(|h| did_you_mean(h, FORMS)) {
        d = d.with_help(format!("did you mean `({s} ...)`?"));
    } else {
        d = d.with_help(format!("top-level forms: {}", FORMS.map(|f| format!("({f} ...)")).join(", ")));
    }
    d
}
