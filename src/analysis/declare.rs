//! One declaration per relation: [`relations!`](crate::relations) turns a list of relations
//! (name, documented typed columns) into everything that speaks of them: the struct of tuple
//! vectors that fact extraction fills, its [`Table`]s (what `hornbeam facts` writes and rule
//! files read), and, for the families that rule sets are written against, the
//! [`ascent::ascent_source!`] declarations and a macro that loads the vectors into an ascent
//! program or reads them back out. [`schema`] and [`reference`] print the Soufflé declarations
//! and the reference table of the docs from the same tables.
//!
//! Must not: compute facts (the families' `extract`/`tables` functions do), print or write.

/// The type of a column, in Soufflé's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// An id, index or integer (`number`).
    Number,
    /// A name or text (`symbol`).
    Symbol,
}

impl ColumnType {
    /// Soufflé's name of the type.
    pub fn souffle(self) -> &'static str {
        match self {
            ColumnType::Number => "number",
            ColumnType::Symbol => "symbol",
        }
    }
}

/// A type that can be a column of a declared relation: it has a Soufflé type and prints as one
/// cell of a `.facts` file.
pub trait Column {
    /// The Soufflé type of the column.
    const TYPE: ColumnType;
    /// The cell: a number in decimal, a symbol with tabs and line breaks replaced by spaces.
    fn cell(&self) -> String;
}

macro_rules! number_columns {
    ($($t:ty => |$x:ident| $e:expr),* $(,)?) => {$(
        impl Column for $t {
            const TYPE: ColumnType = ColumnType::Number;
            fn cell(&self) -> String {
                let $x = self;
                $e.to_string()
            }
        }
    )*};
}

number_columns! {
    u32 => |x| x,
    i64 => |x| x,
    crate::chc::PredId => |x| x.0,
    crate::chc::ClauseId => |x| x.0,
    crate::term::VarId => |x| x.0,
}

fn symbol(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

impl Column for String {
    const TYPE: ColumnType = ColumnType::Symbol;
    fn cell(&self) -> String {
        symbol(self)
    }
}

impl Column for &'static str {
    const TYPE: ColumnType = ColumnType::Symbol;
    fn cell(&self) -> String {
        symbol(self)
    }
}

/// One relation as a table: its schema and its rows printed as cells.
#[derive(Clone, Debug)]
pub struct Table {
    /// The relation name (also the `.facts` file's stem).
    pub name: &'static str,
    /// What a tuple means (the relation's documentation; see [`Table::doc_text`]).
    pub doc: &'static str,
    /// Column names and types.
    pub columns: &'static [(&'static str, ColumnType)],
    /// The tuples, one cell per column.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The documentation on one line, spaces collapsed.
    pub fn doc_text(&self) -> String {
        self.doc.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The Soufflé declaration: `name(col: type, ...)`.
    pub fn signature(&self) -> String {
        let cols: Vec<String> = self
            .columns
            .iter()
            .map(|(n, ty)| format!("{n}: {}", ty.souffle()))
            .collect();
        format!("{}({})", self.name, cols.join(", "))
    }
}

/// The Soufflé declarations of `tables` (`.decl` with a comment, and `.input`), after `header`
/// (comment lines).
pub fn schema(header: &str, tables: &[Table]) -> String {
    let mut out = String::from(header);
    out.push('\n');
    for t in tables {
        let mut line = String::from("//");
        for word in t.doc_text().split(' ') {
            if line.len() + 1 + word.len() > 96 && line.len() > 2 {
                out.push_str(&line);
                out.push('\n');
                line = String::from("//");
            }
            line.push(' ');
            line.push_str(word);
        }
        out.push_str(&line);
        out.push('\n');
        out.push_str(&format!(".decl {}\n", t.signature()));
        out.push_str(&format!(".input {}\n\n", t.name));
    }
    out
}

/// The reference of `tables` as a Markdown table (relation, columns, meaning), the way the
/// docs list them.
pub fn reference(tables: &[Table]) -> String {
    let mut out = String::from("| relation | meaning |\n|---|---|\n");
    for t in tables {
        let doc = t.doc_text().replace('|', "\\|");
        out.push_str(&format!("| `{}` | {doc} |\n", t.signature()));
    }
    out
}

/// Declares a family of relations once. From
///
/// ```text
/// relations! {
///     /// What the family is.
///     pub struct Facts;
///     source chc_input, macro chc_input_facts = __chc_input_facts;   // optional
///     /// What a tuple means.
///     pred(p: ::hornbeam::chc::PredId, arity: u32);
///     ...
/// }
/// ```
///
/// it makes `pub struct Facts` with one `Vec` of tuples per relation (the relation's name and
/// documentation) and `Facts::tables()`, every relation as a [`Table`] in the order declared.
/// With the `source` line, also the ascent source `chc_input` declaring every relation (so the
/// column types must be paths that resolve wherever the source is included: primitive types or
/// `::hornbeam::...`), and the macro `chc_input_facts!` (exported under the hidden name as
/// well): `chc_input_facts!(prog, facts)` loads the vectors into an ascent program that
/// includes the source, `chc_input_facts!(prog => facts)` copies them out of it.
///
/// Every column type implements [`Column`].
#[macro_export]
macro_rules! relations {
    (
        $(#[doc = $sdoc:literal])*
        $vis:vis struct $Facts:ident;
        source $source:ident, macro $io:ident = $hidden:ident;
        $($rels:tt)*
    ) => {
        $crate::relations! { $(#[doc = $sdoc])* $vis struct $Facts; $($rels)* }
        $crate::relations! { @source $(#[doc = $sdoc])* $source; $($rels)* }
        $crate::relations! { @io $io $hidden; $($rels)* }
    };
    (
        @source $(#[doc = $sdoc:literal])* $source:ident;
        $( $(#[doc = $doc:literal])+ $name:ident($($col:ident: $ty:ty),+ $(,)?); )*
    ) => {
        ::ascent::ascent_source! {
            $(#[doc = $sdoc])*
            $source:
            $( $(#[doc = $doc])+ relation $name($($ty),+); )*
        }
    };
    (
        @io $io:ident $hidden:ident;
        $( $(#[doc = $doc:literal])+ $name:ident($($col:ident: $ty:ty),+ $(,)?); )*
    ) => {
        #[doc(hidden)]
        #[macro_export]
        macro_rules! $hidden {
            ($prog:expr, $facts:expr) => {{
                let prog = &mut $prog;
                let facts = &$facts;
                $( prog.$name = facts.$name.clone(); )*
            }};
            ($prog:expr => $facts:expr) => {{
                let prog = &$prog;
                let facts = &mut $facts;
                $( facts.$name = prog.$name.clone(); )*
            }};
        }
        #[doc = concat!(
            "Loads the relations of `", stringify!($io), "` into an ascent program that ",
            "includes them (`", stringify!($io), "!(prog, facts)`), or copies them out of it ",
            "(`", stringify!($io), "!(prog => facts)`)."
        )]
        pub use $hidden as $io;
    };
    (
        $(#[doc = $sdoc:literal])*
        $vis:vis struct $Facts:ident;
        $( $(#[doc = $doc:literal])+ $name:ident($($col:ident: $ty:ty),+ $(,)?); )*
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        $vis struct $Facts {
            $( $(#[doc = $doc])+ pub $name: Vec<($($ty,)+)>, )*
        }

        impl $Facts {
            /// Every relation as a table, in the order of the declaration.
            pub fn tables(&self) -> Vec<$crate::analysis::Table> {
                use $crate::analysis::Column;
                vec![$(
                    $crate::analysis::Table {
                        name: stringify!($name),
                        doc: concat!($($doc, "\n"),+),
                        columns: &[$((stringify!($col), <$ty as Column>::TYPE)),+],
                        rows: self
                            .$name
                            .iter()
                            .map(|($($col,)+)| vec![$($col.cell()),+])
                            .collect(),
                    }
                ),*]
            }
        }
    };
}
