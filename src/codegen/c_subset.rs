//! C from a subset of Rust, so that code a game needs in its exported
//! players is written once, as Rust the crate compiles and runs, and the
//! C is generated from it (the Ant Wars humants' planner:
//! `src/games/antwars/planning.rs`).
//!
//! The subset: consts of numbers (or arrays of integers), one trait of the
//! host's [`Host`] methods (the *senses*: what the code reads of the world,
//! which the C host writes its own way), structs of numbers and arrays, and
//! functions generic over the senses, taking numbers, references to structs
//! and arrays, and function pointers. Every `let` has its type; loops are
//! `for` over a range or over cells the senses yield; values are `if`s,
//! arithmetic, comparisons, casts, calls and the float methods `max`, `min`,
//! `powi`, `powf`, `ln` and `is_nan`, each translated to a C computation of
//! the same bits (`powi` as compiler-rt's `__powidf2`, which Rust's calls;
//! `max` and `min` ignoring NaN as Rust's do). Anything else is refused with
//! what it was, which the tests of the code's owner see.
//!
//! The C is ANSI C (declarations first, no `//`), compact (the Ant Wars
//! contest limits a player to 5,000 bytes): names are shortened (functions
//! and structs to their initials, variables and fields to letters), consts
//! folded into literals, each function on one line. The Rust of the same
//! items is their text as written ([`Subset::rust`]).

use std::collections::{BTreeSet, HashMap};

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, FnArg, Item, Lit, Pat, ReturnType, Stmt, Type, UnOp};

/// A value known when translating: a literal, a const, or a fold of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Known {
    Int(i64),
    Float(f64),
    Ints(Vec<i64>),
}

impl Known {
    fn c(&self) -> String {
        match self {
            Known::Int(i) => i.to_string(),
            Known::Float(f) => format!("{f:?}"),
            Known::Ints(v) => format!("{v:?}"),
        }
    }

    fn is_zero(&self) -> bool {
        matches!(self, Known::Int(0)) || matches!(self, Known::Float(f) if *f == 0.0)
    }
}

/// What a call of a senses method is in C.
pub enum HostCall {
    /// This C expression (arguments already in it).
    Text(String),
    /// A call of this function of the subset with the method's arguments.
    Item(&'static str),
}

/// How the C player provides the senses.
pub trait Host {
    /// The C of the senses method `name` called with `args` (C text), or
    /// `None` if the host has no such method.
    fn method(&self, name: &str, args: &[String]) -> Option<HostCall>;
    /// The C loop head visiting, in `var`, the cells the senses method
    /// `name` yields (e.g. `for(c=0;c<121;c++)if(F[c])`).
    fn cells(&self, name: &str, var: &str, args: &[String]) -> Option<String>;
}

/// A parsed file of the subset, with the values of the consts it imports.
pub struct Subset<'a> {
    text: &'a str,
    items: Vec<Item>,
    externs: &'a [(&'a str, &'a str, Known)],
    names: HashMap<String, String>,
}

/// The items some roots need, and the senses methods they call.
#[derive(Debug, Default)]
pub struct Closure {
    pub items: BTreeSet<String>,
    pub methods: BTreeSet<String>,
    pub externs: BTreeSet<String>,
}

/// The C of a closure, and what it needs from the C library.
#[derive(Debug)]
pub struct CText {
    pub text: String,
    /// Whether it calls `pow` or `log` (<math.h>).
    pub math: bool,
}

#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Int,
    Float,
    Bool,
    Void,
    Senses,
    Struct(String),
    /// A reference to a struct or an array: a pointer in C.
    Ref(Box<Ty>),
    Array(Box<Ty>, usize),
    Fn(Vec<Ty>, Box<Ty>),
}

fn item_name(item: &Item) -> Option<String> {
    match item {
        Item::Fn(f) => Some(f.sig.ident.to_string()),
        Item::Struct(s) => Some(s.ident.to_string()),
        Item::Const(c) => Some(c.ident.to_string()),
        Item::Trait(t) => Some(t.ident.to_string()),
        _ => None,
    }
}

/// A C function or struct name from a Rust one: its words' initials
/// (`best_plan` BP, `Plan` P), or a one-word name's first two letters.
fn initials(name: &str) -> String {
    let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    if words.len() == 1 && name.chars().next().is_some_and(char::is_lowercase) {
        let mut c = name.chars();
        return c.next().map(|f| f.to_ascii_uppercase()).into_iter().chain(c.take(1)).collect();
    }
    let camel: String = name.chars().filter(|c| c.is_uppercase()).collect();
    if words.len() == 1 && !camel.is_empty() {
        return camel;
    }
    words.iter().filter_map(|w| w.chars().next()).map(|c| c.to_ascii_uppercase()).collect()
}

/// The `n`th short name: a, b, …, z, aa, ab, ….
fn letters(n: usize) -> String {
    let abc = |i: usize| char::from(b'a' + (i % 26) as u8);
    if n < 26 { abc(n).to_string() } else { format!("{}{}", abc(n / 26 - 1), abc(n)) }
}

/// A refusal of `what`, with where it is in the file.
fn refuse<T>(what: &impl Spanned, why: &str) -> Result<T, String> {
    let at = what.span().start();
    Err(format!("{why} (line {}, column {})", at.line, at.column + 1))
}

impl<'a> Subset<'a> {
    /// Parses `text`; `externs` gives the name, Rust type and value of each
    /// const it imports (its `use` items are not read).
    pub fn parse(text: &'a str, externs: &'a [(&'a str, &'a str, Known)], reserved: &[&str]) -> Result<Self, String> {
        let file = syn::parse_file(text).map_err(|e| format!("not Rust: {e}"))?;
        let items: Vec<Item> = file
            .items
            .into_iter()
            .filter(|i| !matches!(i, Item::Use(_)) && !matches!(i, Item::Mod(m) if m.content.is_some()))
            .collect();
        let mut names = HashMap::new();
        let mut taken: BTreeSet<String> = reserved.iter().map(|s| (*s).to_owned()).collect();
        for item in &items {
            if let (Item::Fn(_) | Item::Struct(_), Some(name)) = (item, item_name(item)) {
                let base = initials(&name);
                let mut short = base.clone();
                let mut k = 1;
                while taken.contains(&short) {
                    short = format!("{base}{k}");
                    k += 1;
                }
                taken.insert(short.clone());
                names.insert(name, short);
            }
        }
        Ok(Subset { text, items, externs, names })
    }

    /// The C name of function or struct `item`.
    pub fn c_name(&self, item: &str) -> Option<&str> {
        self.names.get(item).map(String::as_str)
    }

    fn item(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|i| item_name(i).as_deref() == Some(name))
    }

    /// The items `roots` need (the functions they call, the structs and
    /// consts they name, the trait), and the senses methods called.
    pub fn closure(&self, roots: &[&str], host_items: &dyn Fn(&str) -> Option<&'static str>) -> Closure {
        let mut out = Closure::default();
        let mut todo: Vec<String> = roots.iter().map(|s| (*s).to_owned()).collect();
        while let Some(name) = todo.pop() {
            if out.items.contains(&name) {
                continue;
            }
            if self.externs.iter().any(|e| e.0 == name) {
                out.externs.insert(name);
                continue;
            }
            let Some(item) = self.item(&name) else { continue };
            out.items.insert(name);
            let tokens = match item {
                Item::Fn(f) => quote_tokens(f),
                Item::Struct(s) => quote_tokens(s),
                Item::Const(c) => quote_tokens(c),
                Item::Trait(t) => quote_tokens(t),
                _ => Vec::new(),
            };
            for (i, word) in tokens.iter().enumerate() {
                let method = i > 0 && tokens[i - 1] == ".";
                if method && self.is_senses_method(word) {
                    out.methods.insert(word.clone());
                    if let Some(item) = host_items(word) {
                        todo.push(item.to_owned());
                    }
                } else if !method {
                    todo.push(word.clone());
                }
            }
        }
        out
    }

    fn senses_trait(&self) -> Option<&syn::ItemTrait> {
        self.items.iter().find_map(|i| if let Item::Trait(t) = i { Some(t) } else { None })
    }

    fn is_senses_method(&self, name: &str) -> bool {
        self.senses_method(name).is_some()
    }

    fn senses_method(&self, name: &str) -> Option<&syn::Signature> {
        self.senses_trait()?.items.iter().find_map(|i| match i {
            syn::TraitItem::Fn(f) if f.sig.ident == name => Some(&f.sig),
            _ => None,
        })
    }

    /// The Rust of a closure: the imported consts with their values, then
    /// its items as written, in the file's order.
    pub fn rust(&self, closure: &Closure) -> String {
        let mut s = String::new();
        for (name, ty, value) in self.externs.iter().filter(|e| closure.externs.contains(e.0)) {
            s.push_str(&format!("const {name}: {ty} = {};\n", value.c()));
        }
        if !s.is_empty() {
            s.push('\n');
        }
        let lines: Vec<&str> = self.text.lines().collect();
        for item in &self.items {
            if item_name(item).is_some_and(|n| closure.items.contains(&n)) {
                let span = item.span();
                let (first, last) = (span.start().line - 1, span.end().line);
                let first = (0..first).rev().take_while(|&l| lines[l].starts_with("///")).last().unwrap_or(first);
                s.push_str(&lines[first..last].join("\n"));
                s.push_str("\n\n");
            }
        }
        s
    }

    /// The C of a closure's structs and functions, in the file's order.
    pub fn c(&self, closure: &Closure, host: &dyn Host) -> Result<CText, String> {
        let mut helpers = Helpers::default();
        let mut body = String::new();
        for item in &self.items {
            let Some(name) = item_name(item).filter(|n| closure.items.contains(n)) else { continue };
            match item {
                Item::Struct(_) => body.push_str(&self.c_struct(&name)?),
                Item::Fn(f) => {
                    let mut t = FnTranslator::new(self, host, &mut helpers);
                    body.push_str(&t.function(f)?);
                }
                _ => {}
            }
        }
        let mut text = String::new();
        if helpers.powi {
            // compiler-rt's __powidf2, which Rust's powi calls.
            text.push_str(
                "static double Pw(double a,int n){double r=1.0;int m=n<0;for(;;){if(n&1)r*=a;n/=2;if(!n)break;a*=a;}\
                 return m?1.0/r:r;}\n",
            );
        }
        if helpers.max {
            text.push_str("static double Mx(double a,double b){return a!=a||b>a?b:a;}\n");
        }
        if helpers.min {
            text.push_str("static double Mn(double a,double b){return a!=a||b<a?b:a;}\n");
        }
        text.push_str(&body);
        Ok(CText { text, math: helpers.math })
    }

    fn struct_fields(&self, name: &str) -> Option<Vec<(String, Ty)>> {
        let Some(Item::Struct(st)) = self.item(name) else { return None };
        st.fields.iter().map(|f| Some((f.ident.as_ref()?.to_string(), self.ty(&f.ty).ok()?))).collect()
    }

    fn c_struct(&self, name: &str) -> Result<String, String> {
        let fields =
            self.struct_fields(name).ok_or_else(|| format!("struct `{name}`: fields of the subset's types"))?;
        let mut s = format!("struct {}{{", self.names[name]);
        for (i, (_, ty)) in fields.iter().enumerate() {
            s.push_str(&declarator(ty, &letters(i), self)?);
            s.push(';');
        }
        s.push_str("};\n");
        Ok(s)
    }

    fn known(&self, name: &str) -> Option<Known> {
        if let Some(e) = self.externs.iter().find(|e| e.0 == name) {
            return Some(e.2.clone());
        }
        match self.item(name)? {
            Item::Const(c) => self.fold(&c.expr),
            _ => None,
        }
    }

    /// The value of a const expression.
    fn fold(&self, e: &Expr) -> Option<Known> {
        match e {
            Expr::Lit(l) => match &l.lit {
                Lit::Int(i) => i.base10_parse().ok().map(Known::Int),
                Lit::Float(f) => f.base10_parse().ok().map(Known::Float),
                _ => None,
            },
            Expr::Path(p) => self.known(&p.path.get_ident()?.to_string()),
            Expr::Paren(p) => self.fold(&p.expr),
            Expr::Cast(c) => match (self.fold(&c.expr)?, self.ty(&c.ty).ok()?) {
                (Known::Int(i), Ty::Float) => Some(Known::Float(i as f64)),
                (Known::Int(i), Ty::Int) => Some(Known::Int(i)),
                (Known::Float(f), Ty::Float) => Some(Known::Float(f)),
                _ => None,
            },
            Expr::Index(ix) => match (self.fold(&ix.expr)?, self.fold(&ix.index)?) {
                (Known::Ints(v), Known::Int(i)) => v.get(usize::try_from(i).ok()?).copied().map(Known::Int),
                _ => None,
            },
            Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match self.fold(&u.expr)? {
                Known::Int(i) => Some(Known::Int(-i)),
                Known::Float(f) => Some(Known::Float(-f)),
                Known::Ints(_) => None,
            },
            Expr::Binary(b) => match (self.fold(&b.left)?, self.fold(&b.right)?) {
                (Known::Int(x), Known::Int(y)) => Some(Known::Int(match b.op {
                    BinOp::Add(_) => x + y,
                    BinOp::Sub(_) => x - y,
                    BinOp::Mul(_) => x * y,
                    _ => return None,
                })),
                _ => None,
            },
            _ => None,
        }
    }

    fn ty(&self, t: &Type) -> Result<Ty, String> {
        match t {
            Type::Path(p) => {
                let name = p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                Ok(match name.as_str() {
                    "usize" | "u32" | "i32" | "u8" | "i64" | "u64" => Ty::Int,
                    "f64" => Ty::Float,
                    "bool" => Ty::Bool,
                    _ if self.struct_fields(&name).is_some() => Ty::Struct(name),
                    // A generic parameter: the senses.
                    _ if name.len() == 1 => Ty::Senses,
                    _ => return refuse(t, "a type outside the subset"),
                })
            }
            Type::Reference(r) => match self.ty(&r.elem)? {
                Ty::Senses => Ok(Ty::Senses),
                inner @ (Ty::Struct(_) | Ty::Array(..)) => Ok(Ty::Ref(Box::new(inner))),
                _ => refuse(t, "a reference to other than a struct or an array"),
            },
            Type::Array(a) => {
                let Some(Known::Int(n)) = self.fold(&a.len) else { return refuse(t, "an array of unknown length") };
                Ok(Ty::Array(Box::new(self.ty(&a.elem)?), n as usize))
            }
            Type::BareFn(f) => {
                let args = f.inputs.iter().map(|a| self.ty(&a.ty)).collect::<Result<_, _>>()?;
                Ok(Ty::Fn(args, Box::new(self.ret(&f.output)?)))
            }
            _ => refuse(t, "a type outside the subset"),
        }
    }

    fn ret(&self, r: &ReturnType) -> Result<Ty, String> {
        match r {
            ReturnType::Default => Ok(Ty::Void),
            ReturnType::Type(_, t) => self.ty(t),
        }
    }
}

/// The identifiers and punctuation of an item, for following its names.
fn quote_tokens(item: &impl ToTokens) -> Vec<String> {
    let mut out = Vec::new();
    walk(item.to_token_stream(), &mut out);
    out
}

fn walk(ts: proc_macro2::TokenStream, out: &mut Vec<String>) {
    for tt in ts {
        match tt {
            proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
            proc_macro2::TokenTree::Punct(p) => out.push(p.as_char().to_string()),
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), out),
            proc_macro2::TokenTree::Literal(_) => out.push(String::new()),
        }
    }
}

/// The C declarator of `name` of type `ty` (`int a`, `double b[6]`,
/// `struct P*c`, `double(*d)(int,double)`).
fn declarator(ty: &Ty, name: &str, subset: &Subset) -> Result<String, String> {
    Ok(match ty {
        Ty::Int | Ty::Bool => format!("int {name}"),
        Ty::Float => format!("double {name}"),
        Ty::Struct(s) => format!("struct {} {name}", subset.names[s]),
        Ty::Array(elem, n) => format!("{}[{n}]", declarator(elem, name, subset)?),
        Ty::Ref(inner) => match &**inner {
            Ty::Struct(s) => format!("struct {}*{name}", subset.names[s]),
            Ty::Array(elem, _) => declarator(elem, &format!("*{name}"), subset)?,
            _ => return Err(format!("a reference to {inner:?}")),
        },
        Ty::Fn(args, ret) => {
            let args: Vec<&str> = args
                .iter()
                .filter(|a| **a != Ty::Senses)
                .map(|a| if *a == Ty::Float { "double" } else { "int" })
                .collect();
            let ret = match **ret {
                Ty::Float => "double",
                Ty::Void => "void",
                _ => "int",
            };
            format!("{ret}(*{name})({})", if args.is_empty() { "void".to_owned() } else { args.join(",") })
        }
        Ty::Void | Ty::Senses => return Err(format!("a variable of type {ty:?}")),
    })
}

/// The C library and helper functions a translation calls.
#[derive(Default)]
struct Helpers {
    powi: bool,
    max: bool,
    min: bool,
    math: bool,
}

/// A C expression: its text, its precedence (C's, higher binds tighter;
/// 16 postfix and atoms) and its type.
struct C(String, u8, Ty);

/// A local variable: its C name and type, and whether it is zeroed where
/// it is declared (a zero array or struct, hoisted to the function's top).
struct Local {
    c: String,
    ty: Ty,
    zeroed: bool,
}

struct FnTranslator<'s, 'h> {
    subset: &'s Subset<'s>,
    host: &'h dyn Host,
    helpers: &'h mut Helpers,
    locals: Vec<(String, Local)>,
    ret: Ty,
    depth: usize,
    /// The next short name's number.
    next: usize,
}

impl<'s, 'h> FnTranslator<'s, 'h> {
    fn new(subset: &'s Subset<'s>, host: &'h dyn Host, helpers: &'h mut Helpers) -> Self {
        FnTranslator { subset, host, helpers, locals: Vec::new(), ret: Ty::Void, depth: 0, next: 0 }
    }

    fn local(&self, name: &str) -> Option<&Local> {
        self.locals.iter().rev().find(|(n, _)| n == name).map(|(_, l)| l)
    }

    fn declare(&mut self, name: &str, ty: Ty, zeroed: bool) -> Result<String, String> {
        if let Some(l) = self.local(name) {
            if l.ty != ty || zeroed {
                return Err(format!("`{name}` declared twice with other types"));
            }
            return Ok(l.c.clone());
        }
        let c = letters(self.next);
        self.next += 1;
        self.locals.push((name.to_owned(), Local { c: c.clone(), ty, zeroed }));
        Ok(c)
    }

    fn function(&mut self, f: &syn::ItemFn) -> Result<String, String> {
        let name = f.sig.ident.to_string();
        self.ret = self.subset.ret(&f.sig.output)?;
        let mut params = Vec::new();
        for input in &f.sig.inputs {
            let FnArg::Typed(pt) = input else { return refuse(input, "a method") };
            let Pat::Ident(id) = &*pt.pat else { return refuse(input, "a pattern parameter") };
            let ty = self.subset.ty(&pt.ty)?;
            if ty == Ty::Senses {
                let senses = Local { c: String::new(), ty, zeroed: false };
                self.locals.push((id.ident.to_string(), senses));
                continue;
            }
            let c = self.declare(&id.ident.to_string(), ty.clone(), false)?;
            params.push(declarator(&ty, &c, self.subset)?);
        }
        let n_params = self.locals.len();
        let body = self.block(&f.block, true)?;
        let ret = match self.ret {
            Ty::Float => "double",
            Ty::Void => "void",
            _ => "int",
        };
        let mut decls: Vec<(String, Vec<String>)> = Vec::new();
        for (_, l) in self.locals[n_params..].iter().filter(|(_, l)| l.ty != Ty::Senses) {
            let d = declarator(&l.ty, &l.c, self.subset)?;
            let (base, rest) = match d.find(' ') {
                Some(i) if !d.starts_with("struct") => (d[..i].to_owned(), d[i + 1..].to_owned()),
                _ => (String::new(), d.clone()),
            };
            let rest = if l.zeroed { format!("{rest}={{0}}") } else { rest };
            match decls.iter_mut().find(|(b, _)| *b == base && !base.is_empty()) {
                Some((_, names)) => names.push(rest),
                None => decls.push((base, vec![rest])),
            }
        }
        let decls: String = decls
            .iter()
            .map(|(b, n)| if b.is_empty() { format!("{};", n.join(",")) } else { format!("{b} {};", n.join(",")) })
            .collect();
        let params = if params.is_empty() { "void".to_owned() } else { params.join(",") };
        Ok(format!("static {ret} {}({params}){{{decls}{body}}}\n", self.subset.names[&name]))
    }

    /// The statements of a block; `tail` when its last expression is the
    /// function's value.
    fn block(&mut self, b: &syn::Block, tail: bool) -> Result<String, String> {
        let mut s = String::new();
        let n = b.stmts.len();
        for (i, stmt) in b.stmts.iter().enumerate() {
            let last = i + 1 == n;
            s.push_str(&match stmt {
                Stmt::Local(l) => self.let_stmt(l)?,
                Stmt::Expr(e, None) if last && tail && self.ret != Ty::Void => {
                    let v = self.expr(e)?;
                    format!("return {};", v.0)
                }
                Stmt::Expr(e, _) => self.stmt(e)?,
                other => return refuse(other, "a statement outside the subset"),
            });
        }
        Ok(s)
    }

    fn let_stmt(&mut self, l: &syn::Local) -> Result<String, String> {
        let Pat::Type(pt) = &l.pat else { return refuse(l, "a `let` without its type") };
        let Pat::Ident(id) = &*pt.pat else { return refuse(l, "a pattern") };
        let name = id.ident.to_string();
        let ty = self.subset.ty(&pt.ty)?;
        let Some(init) = &l.init else { return refuse(l, "a `let` without a value") };
        let hoisted = |t: &Self| {
            if t.depth > 0 { Err(format!("`{name}`: arrays and structs only at a function's top")) } else { Ok(()) }
        };
        match (&*init.expr, &ty) {
            (Expr::Repeat(r), Ty::Array(..)) if self.subset.fold(&r.expr).is_some_and(|k| k.is_zero()) => {
                hoisted(self)?;
                self.declare(&name, ty, true)?;
                Ok(String::new())
            }
            (Expr::Struct(lit), Ty::Struct(st)) => {
                hoisted(self)?;
                let fields = self.subset.struct_fields(st).unwrap_or_default();
                let mut values = Vec::new();
                for fv in &lit.fields {
                    let syn::Member::Named(f) = &fv.member else { return refuse(fv, "a tuple field") };
                    let i = fields.iter().position(|(n, _)| f == n).ok_or_else(|| format!("no field `{f}`"))?;
                    let zero = match &fv.expr {
                        Expr::Repeat(r) => self.subset.fold(&r.expr).is_some_and(|k| k.is_zero()),
                        e => self.subset.fold(e).is_some_and(|k| k.is_zero()),
                    };
                    if !zero {
                        if matches!(fv.expr, Expr::Repeat(_)) {
                            return refuse(fv, "an array of other than zeros");
                        }
                        values.push((i, self.expr(&fv.expr)?));
                    }
                }
                let c = self.declare(&name, ty, true)?;
                Ok(values.iter().map(|(i, v)| format!("{c}.{}={};", letters(*i), v.0)).collect())
            }
            (Expr::Repeat(_) | Expr::Struct(_), _) => refuse(l, "an array of other than zeros"),
            (e, _) => {
                let v = self.expr(e)?;
                let c = self.declare(&name, ty, false)?;
                Ok(format!("{c}={};", v.0))
            }
        }
    }

    /// An expression as a statement.
    fn stmt(&mut self, e: &Expr) -> Result<String, String> {
        Ok(match e {
            Expr::If(i) => {
                let cond = self.expr(&i.cond)?;
                let then = self.nested(&i.then_branch)?;
                let mut s = format!("if({}){then}", cond.0);
                if let Some((_, other)) = &i.else_branch {
                    let other = match &**other {
                        Expr::Block(b) => self.nested(&b.block)?,
                        e => self.stmt(e)?,
                    };
                    s.push_str(&format!("else{}{other}", if other.starts_with('{') { "" } else { " " }));
                }
                s
            }
            Expr::ForLoop(f) => {
                let Pat::Ident(id) = &*f.pat else { return refuse(f, "a pattern in `for`") };
                let name = id.ident.to_string();
                let head = match &*f.expr {
                    Expr::Range(r) => {
                        let (Some(from), Some(to)) = (&r.start, &r.end) else { return refuse(f, "an open range") };
                        if matches!(r.limits, syn::RangeLimits::Closed(_)) {
                            return refuse(f, "an inclusive range");
                        }
                        let (from, to) = (self.expr(from)?, self.expr(to)?);
                        let v = self.declare(&name, Ty::Int, false)?;
                        format!("for({v}={};{v}<{};{v}++)", from.0, wrap(&to, 11))
                    }
                    Expr::MethodCall(m) if self.subset.is_senses_method(&m.method.to_string()) => {
                        let args = m.args.iter().map(|a| self.expr(a).map(|c| c.0)).collect::<Result<Vec<_>, _>>()?;
                        let v = self.declare(&name, Ty::Int, false)?;
                        self.host
                            .cells(&m.method.to_string(), &v, &args)
                            .ok_or_else(|| format!("the host yields no cells `{}`", m.method))?
                    }
                    other => return refuse(other, "a loop over other than a range or the senses' cells"),
                };
                format!("{head}{}", self.nested(&f.body)?)
            }
            Expr::Return(r) => match &r.expr {
                Some(v) => format!("return {};", self.expr(v)?.0),
                None => "return;".to_owned(),
            },
            Expr::Continue(_) => "continue;".to_owned(),
            Expr::Break(_) => "break;".to_owned(),
            Expr::Assign(_) | Expr::Binary(_) | Expr::Call(_) => format!("{};", self.expr(e)?.0),
            other => return refuse(other, "a statement outside the subset"),
        })
    }

    /// A nested block: braces unless it is one statement.
    fn nested(&mut self, b: &syn::Block) -> Result<String, String> {
        self.depth += 1;
        let inner = self.block(b, false);
        self.depth -= 1;
        let inner = inner?;
        let single = b.stmts.len() == 1 && !matches!(b.stmts[0], Stmt::Expr(Expr::If(_), _));
        Ok(if single { inner } else { format!("{{{inner}}}") })
    }

    fn expr(&mut self, e: &Expr) -> Result<C, String> {
        if let Some(k) = self.subset.fold(e) {
            let ty = match k {
                Known::Int(_) => Ty::Int,
                Known::Float(_) => Ty::Float,
                Known::Ints(_) => return refuse(e, "a const array as a value"),
            };
            let text = k.c();
            let prec = if text.starts_with('-') { 15 } else { 16 };
            return Ok(C(text, prec, ty));
        }
        match e {
            Expr::Lit(l) => match &l.lit {
                Lit::Bool(b) => Ok(C(if b.value { "1" } else { "0" }.to_owned(), 16, Ty::Bool)),
                _ => refuse(e, "a literal outside the subset"),
            },
            Expr::Paren(p) => self.expr(&p.expr),
            Expr::Path(p) => {
                let name = p.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                if let Some(l) = self.local(&name) {
                    return Ok(C(l.c.clone(), 16, l.ty.clone()));
                }
                match self.subset.item(&name) {
                    Some(Item::Fn(f)) => {
                        let args = f.sig.inputs.iter().filter_map(|a| match a {
                            FnArg::Typed(t) => self.subset.ty(&t.ty).ok(),
                            FnArg::Receiver(_) => None,
                        });
                        let ty = Ty::Fn(args.collect(), Box::new(self.subset.ret(&f.sig.output)?));
                        Ok(C(self.subset.names[&name].clone(), 16, ty))
                    }
                    _ => refuse(e, &format!("`{name}`, which is no variable, const or function here")),
                }
            }
            Expr::Reference(r) => {
                let inner = self.expr(&r.expr)?;
                match inner.2 {
                    Ty::Struct(_) => Ok(C(format!("&{}", wrap(&inner, 15)), 15, Ty::Ref(Box::new(inner.2)))),
                    Ty::Array(..) => Ok(C(inner.0, inner.1, Ty::Ref(Box::new(inner.2)))),
                    Ty::Senses => Ok(inner),
                    _ => refuse(e, "a reference to other than a struct or an array"),
                }
            }
            Expr::Cast(c) => {
                let inner = self.expr(&c.expr)?;
                match (self.subset.ty(&c.ty)?, &inner.2) {
                    (Ty::Float, Ty::Float) | (Ty::Int, Ty::Int | Ty::Bool) => Ok(C(inner.0, inner.1, inner.2)),
                    (Ty::Float, _) => Ok(C(format!("(double){}", wrap(&inner, 15)), 15, Ty::Float)),
                    (Ty::Int, Ty::Float) => Ok(C(format!("(int){}", wrap(&inner, 15)), 15, Ty::Int)),
                    _ => refuse(e, "a cast outside the subset"),
                }
            }
            Expr::Unary(u) => {
                let inner = self.expr(&u.expr)?;
                match u.op {
                    UnOp::Neg(_) => Ok(C(format!("-{}", wrap(&inner, 15)), 15, inner.2)),
                    UnOp::Not(_) if inner.2 == Ty::Bool => Ok(C(format!("!{}", wrap(&inner, 15)), 15, Ty::Bool)),
                    _ => refuse(e, "a unary operator outside the subset"),
                }
            }
            Expr::Binary(b) => self.binary(b),
            Expr::Assign(a) => {
                let (l, r) = (self.expr(&a.left)?, self.expr(&a.right)?);
                Ok(C(format!("{}={}", l.0, wrap(&r, 2)), 2, Ty::Void))
            }
            Expr::Field(f) => {
                let base = self.expr(&f.base)?;
                let syn::Member::Named(field) = &f.member else { return refuse(e, "a tuple field") };
                let (st, arrow) = match &base.2 {
                    Ty::Struct(s) => (s.clone(), "."),
                    Ty::Ref(inner) => match &**inner {
                        Ty::Struct(s) => (s.clone(), "->"),
                        _ => return refuse(e, "a field of other than a struct"),
                    },
                    _ => return refuse(e, "a field of other than a struct"),
                };
                let fields = self.subset.struct_fields(&st).unwrap_or_default();
                let i = fields.iter().position(|(n, _)| field == n).ok_or_else(|| format!("no field `{field}`"))?;
                Ok(C(format!("{}{arrow}{}", wrap(&base, 16), letters(i)), 16, fields[i].1.clone()))
            }
            Expr::Index(ix) => {
                let (base, index) = (self.expr(&ix.expr)?, self.expr(&ix.index)?);
                let elem = match &base.2 {
                    Ty::Array(elem, _) => (**elem).clone(),
                    Ty::Ref(inner) => match &**inner {
                        Ty::Array(elem, _) => (**elem).clone(),
                        _ => return refuse(e, "an index of other than an array"),
                    },
                    _ => return refuse(e, "an index of other than an array"),
                };
                Ok(C(format!("{}[{}]", wrap(&base, 16), index.0), 16, elem))
            }
            Expr::If(i) => {
                let cond = self.expr(&i.cond)?;
                let then = self.value_of(&i.then_branch)?;
                let Some((_, other)) = &i.else_branch else { return refuse(e, "an `if` value without `else`") };
                let other = match &**other {
                    Expr::Block(b) => self.value_of(&b.block)?,
                    e => self.expr(e)?,
                };
                let ty = then.2.clone();
                Ok(C(format!("{}?{}:{}", wrap(&cond, 4), then.0, wrap(&other, 3)), 3, ty))
            }
            Expr::Call(call) => self.call(call),
            Expr::MethodCall(m) => self.method(m),
            other => refuse(other, "an expression outside the subset"),
        }
    }

    /// The value of a block of one expression.
    fn value_of(&mut self, b: &syn::Block) -> Result<C, String> {
        match b.stmts.as_slice() {
            [Stmt::Expr(e, None)] => self.expr(e),
            _ => refuse(b, "a block value of statements"),
        }
    }

    fn binary(&mut self, b: &syn::ExprBinary) -> Result<C, String> {
        let (l, r) = (self.expr(&b.left)?, self.expr(&b.right)?);
        let (op, prec, ty) = match b.op {
            BinOp::Add(_) => ("+", 12, l.2.clone()),
            BinOp::Sub(_) => ("-", 12, l.2.clone()),
            BinOp::Mul(_) => ("*", 13, l.2.clone()),
            BinOp::Div(_) => ("/", 13, l.2.clone()),
            BinOp::Rem(_) => ("%", 13, l.2.clone()),
            BinOp::Shl(_) => ("<<", 11, l.2.clone()),
            BinOp::Shr(_) => (">>", 11, l.2.clone()),
            BinOp::Lt(_) => ("<", 10, Ty::Bool),
            BinOp::Le(_) => ("<=", 10, Ty::Bool),
            BinOp::Gt(_) => (">", 10, Ty::Bool),
            BinOp::Ge(_) => (">=", 10, Ty::Bool),
            BinOp::Eq(_) => ("==", 9, Ty::Bool),
            BinOp::Ne(_) => ("!=", 9, Ty::Bool),
            BinOp::BitAnd(_) => ("&", 8, l.2.clone()),
            BinOp::BitXor(_) => ("^", 7, l.2.clone()),
            BinOp::BitOr(_) => ("|", 6, l.2.clone()),
            BinOp::And(_) => ("&&", 5, Ty::Bool),
            BinOp::Or(_) => ("||", 4, Ty::Bool),
            BinOp::AddAssign(_) => ("+=", 2, Ty::Void),
            BinOp::SubAssign(_) => ("-=", 2, Ty::Void),
            BinOp::MulAssign(_) => ("*=", 2, Ty::Void),
            BinOp::DivAssign(_) => ("/=", 2, Ty::Void),
            BinOp::BitOrAssign(_) => ("|=", 2, Ty::Void),
            BinOp::BitAndAssign(_) => ("&=", 2, Ty::Void),
            _ => return refuse(b, "an operator outside the subset"),
        };
        let (left, right) = if prec == 2 { (wrap(&l, 16), wrap(&r, 2)) } else { (wrap(&l, prec), wrap(&r, prec + 1)) };
        // `a- -b`, not `a--b`.
        let gap = if right.starts_with(op.chars().last().unwrap_or(' ')) && matches!(op, "+" | "-") { " " } else { "" };
        Ok(C(format!("{left}{op}{gap}{right}"), prec, ty))
    }

    fn call(&mut self, call: &syn::ExprCall) -> Result<C, String> {
        let Expr::Path(p) = &*call.func else { return refuse(call, "a call of other than a function") };
        let segments: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
        if let [ty, from] = segments.as_slice()
            && from == "from"
            && call.args.len() == 1
        {
            let inner = self.expr(&call.args[0])?;
            return match ty.as_str() {
                "f64" if inner.2 == Ty::Float => Ok(inner),
                "f64" => Ok(C(format!("(double){}", wrap(&inner, 15)), 15, Ty::Float)),
                "u32" | "usize" | "i32" | "i64" | "u64" if inner.2 != Ty::Float => Ok(C(inner.0, inner.1, Ty::Int)),
                _ => refuse(call, "a conversion outside the subset"),
            };
        }
        let callee = self.expr(&call.func)?;
        let Ty::Fn(_, ret) = callee.2 else { return refuse(call, "a call of other than a function") };
        let mut args = Vec::new();
        for a in &call.args {
            let c = self.expr(a)?;
            if c.2 != Ty::Senses {
                args.push(c.0);
            }
        }
        Ok(C(format!("{}({})", callee.0, args.join(",")), 16, *ret))
    }

    fn method(&mut self, m: &syn::ExprMethodCall) -> Result<C, String> {
        let name = m.method.to_string();
        let receiver = self.expr(&m.receiver)?;
        let mut args = Vec::new();
        for a in &m.args {
            args.push(self.expr(a)?);
        }
        if receiver.2 == Ty::Senses {
            let Some(sig) = self.subset.senses_method(&name) else { return refuse(m, "no method of the senses") };
            let ret = self.subset.ret(&sig.output)?;
            let texts: Vec<String> = args.iter().map(|a| a.0.clone()).collect();
            return match self.host.method(&name, &texts) {
                Some(HostCall::Text(t)) => Ok(C(t, 16, ret)),
                Some(HostCall::Item(item)) => {
                    let c = self.subset.c_name(item).ok_or_else(|| format!("no function `{item}`"))?;
                    Ok(C(format!("{c}({})", texts.join(",")), 16, ret))
                }
                None => Err(format!("the host has no senses method `{name}`")),
            };
        }
        let float = receiver.2 == Ty::Float;
        Ok(match (name.as_str(), args.as_slice()) {
            ("max" | "min", [y]) if float => {
                let f = if name == "max" { "Mx" } else { "Mn" };
                if name == "max" {
                    self.helpers.max = true
                } else {
                    self.helpers.min = true
                }
                C(format!("{f}({},{})", receiver.0, y.0), 16, Ty::Float)
            }
            ("max" | "min", [y]) => {
                let op = if name == "max" { ">" } else { "<" };
                let (x, y) = (wrap(&receiver, 11), wrap(y, 11));
                C(format!("{x}{op}{y}?{x}:{y}"), 3, Ty::Int)
            }
            ("powi", [n]) if float => {
                self.helpers.powi = true;
                C(format!("Pw({},{})", receiver.0, n.0), 16, Ty::Float)
            }
            ("powf", [y]) if float => {
                self.helpers.math = true;
                C(format!("pow({},{})", receiver.0, y.0), 16, Ty::Float)
            }
            ("ln", []) if float => {
                self.helpers.math = true;
                C(format!("log({})", receiver.0), 16, Ty::Float)
            }
            ("is_nan", []) if float => {
                let x = wrap(&receiver, 10);
                C(format!("{x}!={x}"), 9, Ty::Bool)
            }
            _ => return refuse(m, "a method outside the subset"),
        })
    }
}

/// `c`'s text, parenthesized if it binds looser than `min`.
fn wrap(c: &C, min: u8) -> String {
    if c.1 < min { format!("({})", c.0) } else { c.0.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Senses of one method and one kind of cells.
    struct Grid;

    impl Host for Grid {
        fn method(&self, name: &str, args: &[String]) -> Option<HostCall> {
            match (name, args) {
                ("at", [c]) => Some(HostCall::Text(format!("W[{c}]"))),
                ("twice", [_]) => Some(HostCall::Item("double_it")),
                _ => None,
            }
        }

        fn cells(&self, name: &str, var: &str, _: &[String]) -> Option<String> {
            (name == "full").then(|| format!("for({var}=0;{var}<9;{var}++)if(W[{var}])"))
        }
    }

    const CODE: &str = r#"
use super::LIMIT;

/// The fall of a step.
pub const FALL: f64 = 0.5;

pub trait Look {
    fn at(&self, cell: usize) -> f64;
    fn twice(&self, x: u32) -> u32;
    fn full(&self) -> impl Iterator<Item = usize> + '_;
}

/// Doubles.
pub fn double_it(x: u32) -> u32 {
    x * 2
}

pub struct Pair {
    sum: f64,
    seen: [u32; LIMIT],
}

fn bit<L: Look>(look: &L, set: u32, i: u32) -> bool {
    (set >> i) & 1 == 1 && look.twice(i) > 0
}

pub fn total<L: Look>(look: &L, k: f64) -> f64 {
    let mut pair: Pair = Pair { sum: 0.0, seen: [0; LIMIT] };
    for c in look.full() {
        if bit(look, 5, c as u32) {
            pair.sum += look.at(c) * FALL - -k;
        } else if c > 3 {
            pair.seen[0] = c as u32;
        }
    }
    let m: f64 = pair.sum.max(k.min(1.0));
    if m.is_nan() { 0.0 } else { m * LIMIT as f64 }
}
"#;

    const EXTERNS: [(&str, &str, Known); 1] = [("LIMIT", "usize", Known::Int(4))];

    fn c_of(roots: &[&str]) -> CText {
        let subset = Subset::parse(CODE, &EXTERNS, &["W"]).expect("parses");
        let closure = subset.closure(roots, &|m| (m == "twice").then_some("double_it"));
        subset.c(&closure, &Grid).expect("translates")
    }

    #[test]
    fn c_keeps_rusts_precedence_and_folds_consts() {
        let c = c_of(&["total"]).text;
        // `==` binds looser than `&` in Rust, tighter in C.
        assert!(c.contains("return (a>>b&1)==1&&DI(b)>0;"), "{c}");
        assert!(c.contains("b.a+=W[c]*0.5- -a;"), "{c}");
        assert!(c.contains("struct P{double a;int b[4];};") && c.contains("struct P b={0};"), "{c}");
        assert!(c.contains("for(c=0;c<9;c++)if(W[c]){if(Bi(5,c))"), "{c}");
        assert!(c.contains("else if(c>3)b.b[0]=c;"), "{c}");
        assert!(c.contains("d=Mx(b.a,Mn(a,1.0));return d!=d?0.0:d*4.0;"), "{c}");
        // Items in the file's order, each after what it calls.
        let (d, b, t) = (
            c.find("static int DI(").unwrap(),
            c.find("static int Bi(").unwrap(),
            c.find("static double To(").unwrap(),
        );
        assert!(d < b && b < t, "{c}");
        assert!(!c_of(&["double_it"]).text.contains("Mx("), "helpers only when called");
    }

    #[test]
    fn rust_is_the_items_as_written_with_the_imported_consts() {
        let subset = Subset::parse(CODE, &EXTERNS, &[]).expect("parses");
        let closure = subset.closure(&["total"], &|m| (m == "twice").then_some("double_it"));
        let rust = subset.rust(&closure);
        assert!(
            rust.starts_with("const LIMIT: usize = 4;\n\n/// The fall of a step.\npub const FALL: f64 = 0.5;\n"),
            "{rust}"
        );
        assert!(rust.contains("/// Doubles.\npub fn double_it(x: u32) -> u32 {\n    x * 2\n}\n"), "{rust}");
        assert!(rust.contains("pub trait Look {") && !rust.contains("use super"), "{rust}");
    }

    #[test]
    fn code_outside_the_subset_is_refused_with_where() {
        for (code, why) in [
            ("fn f(x: f64) -> f64 { let g = x; g }", "without its type"),
            ("fn f(x: f64) -> f64 { let v: Vec<f64> = vec![x]; x }", "outside the subset"),
            ("fn f(x: f64) -> f64 { x.sqrt() }", "a method outside the subset"),
            ("fn f(x: u32) -> u32 { let mut s: u32 = 0; for i in 0..=x { s += i; } s }", "an inclusive range"),
            ("fn f(x: f64) -> f64 { let a: [f64; 2] = [1.0; 2]; a[0] * x }", "other than zeros"),
        ] {
            let subset = Subset::parse(code, &[], &[]).expect("parses");
            let closure = subset.closure(&["f"], &|_| None);
            let err = subset.c(&closure, &Grid).map(|c| c.text).expect_err(code);
            assert!(err.contains(why) && err.contains("line 1"), "{code}: {err}");
        }
        assert!(Subset::parse("fn (", &[], &[]).is_err());
    }
}
