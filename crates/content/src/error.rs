//! One error type for every command: what went wrong in, the text for stderr and the exit status out.
//! 0 success; 1 content or rule errors (including a user's own template); 2 usage or I/O errors (and an
//! output folder that holds another batch); 70 a bug in blockprint itself, such as a built-in template that
//! does not compile (sysexits' `EX_SOFTWARE`), reported as a bug, never as a content error.
//!
//! # Typed errors from every crate
//! Each crate words its own failures in a typed error (an enum with the data, not a sentence) and
//! implements [`Coded`] for it: a stable kebab code (`chase-reach`, `roll-no-table`, listed in
//! `docs/errors.md`), the exit status it maps to, and, when the message speaks of options, their ids
//! (each its clap argument id, which is also the studio's form field). Such an error travels in
//! [`Error::Typed`] keeping all three (`?` converts it: `From` is implemented for every [`Coded`]
//! type), and [`Error::code`], [`Error::exit_code`] and [`Error::options`] read through to it.
//!
//! A library speaks of an option in its own words ("the paper size"): that is the typed error's
//! `Display`, and what [`Error`]'s `Display` prints after the prefix its exit status calls for
//! (`error: `, or for 70 `internal error (a bug in blockprint, please report it): `). A front that has
//! its own names for options shows the error with [`Error::render`], passing the name it gives an
//! option id (the command line its flag, `--paper`; the studio its field's label); the typed error
//! then words the message around those names ([`Coded::named`]). Nothing else of the message changes.

use std::path::PathBuf;

use crate::diag::Diagnostic;

/// Where a template problem is: file (as `templates/<kind>/<file>`), 1-based line and column, the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateSpot {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub source_line: String,
}

/// A problem a template reported: typst or minijinja, error or warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateDiag {
    pub message: String,
    pub spot: Option<TemplateSpot>,
    pub hints: Vec<String>,
}

impl std::fmt::Display for TemplateDiag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if let Some(s) = &self.spot {
            let width = s.line.to_string().len();
            write!(
                f,
                "\n{:width$}--> {}:{}:{}\n{:width$} |\n{} | {}\n{:width$} | {}^",
                "",
                s.file,
                s.line,
                s.column,
                "",
                s.line,
                s.source_line,
                "",
                " ".repeat(s.column.saturating_sub(1)),
            )?;
        }
        for h in &self.hints {
            write!(f, "\n  = hint: {h}")?;
        }
        Ok(())
    }
}

/// A crate's typed error as the shared [`Error`] carries it (see the module's doc). Implement it with
/// `code` and `exit_code`; an error whose message speaks of options adds `options` and `named`.
pub trait Coded: std::error::Error + Send + Sync + 'static {
    /// The stable code (kebab case, prefixed with the crate's word: `render-…`), listed in
    /// `docs/errors.md`.
    fn code(&self) -> &'static str;

    /// The exit status: 1 content or rules at fault, 2 a bad option or I/O, 70 a bug in blockprint.
    fn exit_code(&self) -> u8;

    /// The options the message speaks of, by their ids (`paper_size`: the clap argument id, the
    /// studio's field name), the one at fault first; none for an error about no option.
    fn options(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// The message (without the `error: ` prefix) with each option it speaks of called what `name`
    /// gives for its id: a front's name for it (the command line's flag, `--paper`). `Display` is the
    /// message with the library's own words for them. The default, for an error about no option, is
    /// `Display`'s message.
    fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        let _ = name;
        self.to_string()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Content that does not pass the checker; `rendered` is the located report for stderr.
    #[error(
        "{rendered}error: {count} content error(s) in {root}; fix them (see `blockprint check`) and run again"
    )]
    Content {
        count: usize,
        root: String,
        rendered: String,
        diagnostics: Vec<Diagnostic>,
    },
    #[error("error: {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The output folder holds files of another batch.
    #[error("{}", conflict(dir, theirs, ours, &|id| match id {
        "force" => "the force option".into(),
        _ => "output".into(),
    }))]
    Conflict {
        dir: PathBuf,
        theirs: String,
        ours: String,
    },
    /// A template failed. `builtin` templates failing is a bug in blockprint.
    #[error("{}", template_message(*builtin, template, diags))]
    Template {
        builtin: bool,
        template: String,
        diags: Vec<TemplateDiag>,
    },
    /// A crate's typed error, with its code, exit status and option ([`Coded`]).
    #[error("{}{}", prefix(.0.exit_code()), .0)]
    Typed(Box<dyn Coded>),
}

/// Impossibilities any crate can meet, each with its data (exit 70, codes `bug-…`). A crate's own
/// impossibilities, with data only it has, are variants of its own error.
#[derive(Debug, thiserror::Error)]
pub enum Bug {
    /// A thread or task that panicked: "a merging thread", "drawing a preview".
    #[error("{what} panicked")]
    Panicked { what: &'static str },
    /// A value that cannot be written out: "the manifest as JSON", "the zip archive".
    #[error("cannot write {what}: {message}")]
    Write { what: String, message: String },
    /// The system refused what blockprint asked of it: "start 4 worker threads", "listen".
    #[error("cannot {doing}: {message}")]
    System { doing: String, message: String },
}

impl Bug {
    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 3] = ["bug-panicked", "bug-write", "bug-system"];

    /// [`Bug::Write`] of a value as JSON.
    pub fn json(what: &str, e: impl std::fmt::Display) -> Self {
        Bug::Write {
            what: format!("{what} as JSON"),
            message: e.to_string(),
        }
    }

    /// [`Bug::System`]: `doing` failed with `e`.
    pub fn system(doing: impl Into<String>, e: impl std::fmt::Display) -> Self {
        Bug::System {
            doing: doing.into(),
            message: e.to_string(),
        }
    }
}

impl Coded for Bug {
    fn code(&self) -> &'static str {
        match self {
            Bug::Panicked { .. } => "bug-panicked",
            Bug::Write { .. } => "bug-write",
            Bug::System { .. } => "bug-system",
        }
    }

    fn exit_code(&self) -> u8 {
        70
    }
}

/// What a message of this exit status starts with.
fn prefix(exit: u8) -> &'static str {
    if exit == 70 {
        "internal error (a bug in blockprint, please report it): "
    } else {
        "error: "
    }
}

impl<E: Coded> From<E> for Error {
    fn from(e: E) -> Self {
        Error::Typed(Box::new(e))
    }
}

/// [`Error::Conflict`]'s message, the options to force it (`force`) and to choose the folder (`out`)
/// called what `name` gives.
fn conflict(
    dir: &std::path::Path,
    theirs: &str,
    ours: &str,
    name: &dyn Fn(&'static str) -> String,
) -> String {
    format!(
        "error: {} holds the output of another run ({theirs}), not of this one ({ours})\n  = help: pass {} to replace it, or choose another {} folder",
        dir.display(),
        name("force"),
        name("out")
    )
}

fn template_message(builtin: bool, template: &str, diags: &[TemplateDiag]) -> String {
    let mut s = String::new();
    for d in diags {
        s.push_str(&format!("error: {d}\n"));
    }
    if builtin {
        s.push_str(&format!(
            "internal error: blockprint's built-in template `{template}` failed — this is a bug in blockprint, not in your content; please report it with the command you ran"
        ));
    } else {
        s.push_str(&format!(
            "error: template `{template}` failed; fix it at the place shown"
        ));
    }
    s
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 5] =
        ["content", "io", "conflict", "template", "template-builtin"];

    /// The error's stable code (kebab case): what kind of failure it is, whatever its message.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Typed(e) => e.code(),
            Error::Content { .. } => "content",
            Error::Io { .. } => "io",
            Error::Conflict { .. } => "conflict",
            Error::Template { builtin: false, .. } => "template",
            Error::Template { builtin: true, .. } => "template-builtin",
        }
    }

    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Typed(e) => e.exit_code(),
            Error::Content { .. } => 1,
            Error::Template { builtin: false, .. } => 1,
            Error::Io { .. } | Error::Conflict { .. } => 2,
            Error::Template { builtin: true, .. } => 70,
        }
    }

    /// The ids of the options a typed error speaks of, the one at fault first (see
    /// [`Coded::options`]).
    pub fn options(&self) -> Vec<&'static str> {
        match self {
            Error::Typed(e) => e.options(),
            Error::Conflict { .. } => vec!["force", "out"],
            _ => Vec::new(),
        }
    }

    /// The text for the user, as `Display` gives it but with the options named the front's way:
    /// `name` turns an option id into the front's name for it (`paper_size` to `--paper-size`).
    pub fn render(&self, name: impl Fn(&'static str) -> String) -> String {
        match self {
            Error::Typed(e) if !e.options().is_empty() => {
                format!("{}{}", prefix(e.exit_code()), e.named(&name))
            }
            Error::Conflict { dir, theirs, ours } => conflict(dir, theirs, ours, &name),
            _ => self.to_string(),
        }
    }

    /// The typed error inside, if it is a `T`.
    pub fn typed<T: Coded>(&self) -> Option<&T> {
        match self {
            Error::Typed(e) => {
                let e: &dyn std::error::Error = e.as_ref();
                e.downcast_ref()
            }
            _ => None,
        }
    }
}

impl Coded for crate::roll::RollError {
    fn code(&self) -> &'static str {
        RollError::code(self)
    }

    fn exit_code(&self) -> u8 {
        RollError::exit_code(self)
    }
}

use crate::roll::RollError;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        assert_eq!(Error::io("x", std::io::Error::other("x")).exit_code(), 2);
        let t = |builtin| Error::Template {
            builtin,
            template: "case/case.typ".into(),
            diags: vec![],
        };
        assert_eq!(t(true).exit_code(), 70);
        assert_eq!(t(false).exit_code(), 1);
        assert!(t(true).to_string().contains("bug in blockprint"));
        assert!(!t(true).to_string().contains("content error"));
    }

    #[test]
    fn every_kind_of_error_has_its_own_listed_code() {
        let t = |builtin| Error::Template {
            builtin,
            template: String::new(),
            diags: vec![],
        };
        let all = [
            Error::Content {
                count: 1,
                root: String::new(),
                rendered: String::new(),
                diagnostics: vec![],
            },
            Error::io("x", std::io::Error::other("x")),
            Error::Conflict {
                dir: "x".into(),
                theirs: String::new(),
                ours: String::new(),
            },
            t(false),
            t(true),
        ];
        let codes: Vec<&str> = all.iter().map(Error::code).collect();
        assert_eq!(codes, Error::CODES);
    }

    /// A typed error of some crate, about an option or not.
    #[derive(Debug, thiserror::Error)]
    enum Sample {
        #[error("{}", self.named(&|id| match id { "paper_size" => "the paper size", _ => "the number of copies" }.into()))]
        Paper(String),
        #[error("the engine fell over")]
        Fell,
    }

    impl Coded for Sample {
        fn code(&self) -> &'static str {
            match self {
                Sample::Paper(_) => "sample-paper",
                Sample::Fell => "sample-fell",
            }
        }
        fn exit_code(&self) -> u8 {
            match self {
                Sample::Paper(_) => 2,
                Sample::Fell => 70,
            }
        }
        fn options(&self) -> Vec<&'static str> {
            match self {
                Sample::Paper(_) => vec!["paper_size", "copies"],
                Sample::Fell => vec![],
            }
        }
        fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
            match self {
                Sample::Paper(p) => format!(
                    "invalid value for {}: `{p}` is no paper (and {} is ignored)",
                    name("paper_size"),
                    name("copies")
                ),
                Sample::Fell => self.to_string(),
            }
        }
    }

    #[test]
    fn a_typed_error_keeps_its_code_status_and_option_and_a_front_names_the_option() {
        let paper = Error::from(Sample::Paper("A9".into()));
        assert_eq!(
            (paper.code(), paper.exit_code(), paper.options()),
            ("sample-paper", 2, vec!["paper_size", "copies"])
        );
        assert_eq!(
            paper.to_string(),
            "error: invalid value for the paper size: `A9` is no paper (and the number of copies is ignored)"
        );
        let flag = |id: &str| format!("--{}", id.replace('_', "-"));
        assert_eq!(
            paper.render(flag),
            "error: invalid value for --paper-size: `A9` is no paper (and --copies is ignored)"
        );
        assert!(matches!(paper.typed::<Sample>(), Some(Sample::Paper(p)) if p == "A9"));
        assert!(paper.typed::<RollError>().is_none());

        let bug = Error::from(Sample::Fell);
        assert_eq!((bug.code(), bug.exit_code()), ("sample-fell", 70));
        assert!(bug.options().is_empty());
        assert_eq!(
            bug.render(flag),
            "internal error (a bug in blockprint, please report it): the engine fell over"
        );

        // `?` converts, and a roll error keeps its own code (the message as before).
        let roll = || -> Result<()> { Err(RollError::NoTable { table: "t".into() })? };
        let e = roll().unwrap_err();
        assert_eq!((e.code(), e.exit_code()), ("roll-no-table", 1));
        assert_eq!(e.to_string(), "error: no table `t`");
    }

    #[test]
    fn a_conflict_speaks_of_forcing_and_the_command_line_of_its_flags() {
        let e = Error::Conflict {
            dir: "out".into(),
            theirs: "case, seed 1".into(),
            ours: "case, seed 2".into(),
        };
        let head = "error: out holds the output of another run (case, seed 1), not of this one (case, seed 2)\n  = help: ";
        assert_eq!(
            e.to_string(),
            format!("{head}pass the force option to replace it, or choose another output folder")
        );
        assert_eq!(
            e.render(|id| format!("--{id}")),
            format!("{head}pass --force to replace it, or choose another --out folder")
        );
    }

    #[test]
    fn the_shared_bugs_are_bugs_with_their_listed_codes() {
        let all = [
            Bug::Panicked { what: "a worker" },
            Bug::json("the manifest", "key must be a string"),
            Bug::system("start 4 worker threads", "no memory"),
        ];
        let codes: Vec<&str> = all.iter().map(Coded::code).collect();
        assert_eq!(codes, Bug::CODES);
        let shown: Vec<String> = all
            .into_iter()
            .map(|b| Error::from(b).to_string())
            .collect();
        assert_eq!(
            shown,
            [
                "internal error (a bug in blockprint, please report it): a worker panicked",
                "internal error (a bug in blockprint, please report it): cannot write the manifest as JSON: key must be a string",
                "internal error (a bug in blockprint, please report it): cannot start 4 worker threads: no memory",
            ]
        );
    }

    #[test]
    fn template_diagnostics_show_the_place() {
        let d = TemplateDiag {
            message: "unknown variable: nme".into(),
            spot: Some(TemplateSpot {
                file: "templates/case/case-lib.typ".into(),
                line: 12,
                column: 5,
                source_line: "  c.nme".into(),
            }),
            hints: vec![],
        };
        assert_eq!(
            d.to_string(),
            "unknown variable: nme\n  --> templates/case/case-lib.typ:12:5\n   |\n12 |   c.nme\n   |     ^"
        );
    }
}
