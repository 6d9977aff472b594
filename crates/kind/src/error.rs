//! The kind contract's one error, typed ([`KindError`]): a stable code (`kind-…`), its exit status and
//! its message, worded here once. Listed in `docs/errors.md`.

use blockprint_content::error::Coded;

use crate::Format;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KindError {
    /// A kind that lists a format it writes itself (`csv`, `txt`) but writes no files in it (a bug in
    /// the kind).
    NoFiles {
        kind: String,
        format: Format,
        document: String,
    },
}

impl KindError {
    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 1] = ["kind-no-files"];
}

impl std::fmt::Display for KindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KindError::NoFiles {
                kind,
                format,
                document,
            } => write!(
                f,
                "kind `{kind}` lists the format {format:?} but writes no such files (document `{document}`)"
            ),
        }
    }
}

impl std::error::Error for KindError {}

impl Coded for KindError {
    fn code(&self) -> &'static str {
        match self {
            KindError::NoFiles { .. } => "kind-no-files",
        }
    }

    fn exit_code(&self) -> u8 {
        70
    }
}
