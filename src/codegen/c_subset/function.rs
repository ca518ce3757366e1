//! A function of the subset as C: declarations first (every `let` hoisted,
//! zero arrays and structs zeroed there), short names for variables, the
//! senses' calls and loops as the [`Host`] writes them, and every
//! expression printed with C's precedence so that it means what Rust's did.

use syn::{BinOp, Expr, FnArg, Item, Lit, Pat, Stmt, UnOp};

use super::items::{Known, Subset, Ty, declarator, letters, refuse};

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

/// The C library and helper functions a translation calls.
#[derive(Default)]
pub(super) struct Helpers {
    pub(super) powi: bool,
    pub(super) max: bool,
    pub(super) min: bool,
    pub(super) math: bool,
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

pub(super) struct FnTranslator<'s, 'h> {
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
    pub(super) fn new(subset: &'s Subset<'s>, host: &'h dyn Host, helpers: &'h mut Helpers) -> Self {
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

    pub(super) fn function(&mut self, f: &syn::ItemFn) -> Result<String, String> {
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
