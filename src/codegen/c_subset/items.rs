//! The items of a file of the subset: parsed, named for C (functions and
//! structs by their initials), followed from roots to what they need
//! ([`Subset::closure`]), written back as Rust ([`Subset::rust`]), consts
//! folded and types read for the translation of functions (`function.rs`).

use std::collections::{BTreeSet, HashMap};

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Item, Lit, ReturnType, Type, UnOp};

/// A value known when translating: a literal, a const, or a fold of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Known {
    Int(i64),
    Float(f64),
    Ints(Vec<i64>),
}

impl Known {
    pub(super) fn c(&self) -> String {
        match self {
            Known::Int(i) => i.to_string(),
            Known::Float(f) => format!("{f:?}"),
            Known::Ints(v) => format!("{v:?}"),
        }
    }

    pub(super) fn is_zero(&self) -> bool {
        matches!(self, Known::Int(0)) || matches!(self, Known::Float(f) if *f == 0.0)
    }
}

/// A parsed file of the subset, with the values of the consts it imports.
pub struct Subset<'a> {
    text: &'a str,
    items: Vec<Item>,
    externs: &'a [(&'a str, &'a str, Known)],
    pub(super) names: HashMap<String, String>,
}

/// The items some roots need, and the senses methods they call.
#[derive(Debug, Default)]
pub struct Closure {
    pub items: BTreeSet<String>,
    pub methods: BTreeSet<String>,
    pub externs: BTreeSet<String>,
}

/// The type of a value of the subset, as the translation needs it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ty {
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

pub(super) fn item_name(item: &Item) -> Option<String> {
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
pub(super) fn letters(n: usize) -> String {
    let abc = |i: usize| char::from(b'a' + (i % 26) as u8);
    if n < 26 { abc(n).to_string() } else { format!("{}{}", abc(n / 26 - 1), abc(n)) }
}

/// A refusal of `what`, with where it is in the file.
pub(super) fn refuse<T>(what: &impl Spanned, why: &str) -> Result<T, String> {
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

    /// The file's items, in order.
    pub(super) fn items(&self) -> &[Item] {
        &self.items
    }

    /// The C name of function or struct `item`.
    pub fn c_name(&self, item: &str) -> Option<&str> {
        self.names.get(item).map(String::as_str)
    }

    pub(super) fn item(&self, name: &str) -> Option<&Item> {
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

    pub(super) fn is_senses_method(&self, name: &str) -> bool {
        self.senses_method(name).is_some()
    }

    pub(super) fn senses_method(&self, name: &str) -> Option<&syn::Signature> {
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

    pub(super) fn struct_fields(&self, name: &str) -> Option<Vec<(String, Ty)>> {
        let Some(Item::Struct(st)) = self.item(name) else { return None };
        st.fields.iter().map(|f| Some((f.ident.as_ref()?.to_string(), self.ty(&f.ty).ok()?))).collect()
    }

    pub(super) fn c_struct(&self, name: &str) -> Result<String, String> {
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

    pub(super) fn known(&self, name: &str) -> Option<Known> {
        if let Some(e) = self.externs.iter().find(|e| e.0 == name) {
            return Some(e.2.clone());
        }
        match self.item(name)? {
            Item::Const(c) => self.fold(&c.expr),
            _ => None,
        }
    }

    /// The value of a const expression.
    pub(super) fn fold(&self, e: &Expr) -> Option<Known> {
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

    pub(super) fn ty(&self, t: &Type) -> Result<Ty, String> {
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

    pub(super) fn ret(&self, r: &ReturnType) -> Result<Ty, String> {
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
pub(super) fn declarator(ty: &Ty, name: &str, subset: &Subset) -> Result<String, String> {
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
