//! One error type for every command: what went wrong in, the text for stderr and the exit status out.
//! 0 success; 1 content or rule errors (including a user's own template); 2 usage or I/O errors (and an
//! output folder that holds another batch); 70 a bug in blockprint itself, such as a built-in template that
//! does not compile (sysexits' `EX_SOFTWARE`), reported as a bug, never as a content error.

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
    /// A rule could not be applied to checked content (a roll that cannot be made).
    #[error("error: {0}")]
    Rules(String),
    /// A wrong option or combination of options.
    #[error("error: {0}")]
    Usage(String),
    #[error("error: {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The output folder holds files of another batch.
    #[error(
        "error: {} holds the output of another run ({theirs}), not of this one ({ours})\n  = help: pass --force to replace it, or choose another --out folder",
        dir.display()
    )]
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
    /// Anything else that can only be a bug in blockprint.
    #[error("internal error (a bug in blockprint, please report it): {0}")]
    Bug(String),
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
    pub const CODES: [&'static str; 8] = [
        "content",
        "rules",
        "usage",
        "io",
        "conflict",
        "template",
        "template-builtin",
        "bug",
    ];

    /// The error's stable code (kebab case): what kind of failure it is, whatever its message.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Content { .. } => "content",
            Error::Rules(_) => "rules",
            Error::Usage(_) => "usage",
            Error::Io { .. } => "io",
            Error::Conflict { .. } => "conflict",
            Error::Template { builtin: false, .. } => "template",
            Error::Template { builtin: true, .. } => "template-builtin",
            Error::Bug(_) => "bug",
        }
    }

    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Content { .. } | Error::Rules(_) => 1,
            Error::Template { builtin: false, .. } => 1,
            Error::Usage(_) | Error::Io { .. } | Error::Conflict { .. } => 2,
            Error::Template { builtin: true, .. } | Error::Bug(_) => 70,
        }
    }
}

impl From<crate::roll::RollError> for Error {
    fn from(e: crate::roll::RollError) -> Self {
        Error::Rules(e.to_string())
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        assert_eq!(Error::Rules("x".into()).exit_code(), 1);
        assert_eq!(Error::Usage("x".into()).exit_code(), 2);
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
            Error::Rules(String::new()),
            Error::Usage(String::new()),
            Error::io("x", std::io::Error::other("x")),
            Error::Conflict {
                dir: "x".into(),
                theirs: String::new(),
                ours: String::new(),
            },
            t(false),
            t(true),
            Error::Bug(String::new()),
        ];
        let codes: Vec<&str> = all.iter().map(Error::code).collect();
        assert_eq!(codes, Error::CODES);
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
