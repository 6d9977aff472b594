//! The render crate's errors, typed ([`RenderError`]): what went wrong, with its data, a stable code
//! (`render-…`) and the exit status it maps to. Every message is worded here, once. The one option the
//! crate reads, the folders of fonts of the user's own, it calls "the font folder"; the command line
//! names it by its flag (`--font-path`, from its id `font_path`) through [`Coded::named`]. The codes are
//! listed in `docs/errors.md`.

use std::fmt;
use std::path::PathBuf;

use blockprint_content::error::Coded;

/// The id of the option that gives folders of fonts (the clap id; the command line's `--font-path`).
pub const FONT_PATH: &str = "font_path";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// A font folder that is not there.
    NoFontFolder { dir: PathBuf },
    /// A font folder that holds no font file, in it or below it.
    NoFontInFolder { dir: PathBuf },
    /// A file of a font folder that is no font typst can read.
    BadFont { dir: PathBuf, file: PathBuf },
    /// A template's data that is not a JSON object (a bug: every kind passes an object).
    NotAnObject { template: String },
    /// A template that typeset another number of pages than it was given pictures to draw (a bug).
    PageCount {
        template: String,
        pages: usize,
        pictures: usize,
    },
    /// A PDF blockprint cannot make from typst's pages (a bug): a merged print file, a fillable copy.
    Pdf { made: String, message: String },
    /// A checksum in the output folder's journal that is no SHA-256 (a bug: blockprint wrote it).
    Checksum { sha: String },
}

impl RenderError {
    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 7] = [
        "render-no-font-folder",
        "render-no-font-in-folder",
        "render-bad-font",
        "render-not-an-object",
        "render-page-count",
        "render-pdf",
        "render-checksum",
    ];

    /// The message with the font folder option called `name`.
    fn message(&self, name: &str) -> String {
        let help = || {
            format!(
                "give a folder that holds font files ({})",
                crate::fonts::endings()
            )
        };
        match self {
            RenderError::NoFontFolder { dir } => format!(
                "{name} {}: no such folder\n  = help: {}",
                dir.display(),
                help()
            ),
            RenderError::NoFontInFolder { dir } => format!(
                "{name} {}: no font file in the folder or below it\n  = help: {}",
                dir.display(),
                help()
            ),
            RenderError::BadFont { dir, file } => format!(
                "{name} {}: {} is no font that can be read\n  = help: take it out of the folder, or give a folder of good font files",
                dir.display(),
                file.display()
            ),
            RenderError::NotAnObject { template } => {
                format!("cannot pass data to {template}: not an object")
            }
            RenderError::PageCount {
                template,
                pages,
                pictures,
            } => format!("`{template}` typeset {pages} pages for {pictures} pictures"),
            RenderError::Pdf { made, message } => format!("cannot make {made}: {message}"),
            RenderError::Checksum { sha } => format!("bad sha256 `{sha}`"),
        }
    }
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message("the font folder"))
    }
}

impl std::error::Error for RenderError {}

impl Coded for RenderError {
    fn code(&self) -> &'static str {
        match self {
            RenderError::NoFontFolder { .. } => "render-no-font-folder",
            RenderError::NoFontInFolder { .. } => "render-no-font-in-folder",
            RenderError::BadFont { .. } => "render-bad-font",
            RenderError::NotAnObject { .. } => "render-not-an-object",
            RenderError::PageCount { .. } => "render-page-count",
            RenderError::Pdf { .. } => "render-pdf",
            RenderError::Checksum { .. } => "render-checksum",
        }
    }

    /// 2 for a font folder that cannot be used (an option), 70 for the rest (bugs).
    fn exit_code(&self) -> u8 {
        match self {
            RenderError::NoFontFolder { .. }
            | RenderError::NoFontInFolder { .. }
            | RenderError::BadFont { .. } => 2,
            _ => 70,
        }
    }

    fn options(&self) -> Vec<&'static str> {
        match self.exit_code() {
            2 => vec![FONT_PATH],
            _ => Vec::new(),
        }
    }

    fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        self.message(&name(FONT_PATH))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_of_each() -> Vec<RenderError> {
        let dir = || PathBuf::from("fonts");
        vec![
            RenderError::NoFontFolder { dir: dir() },
            RenderError::NoFontInFolder { dir: dir() },
            RenderError::BadFont {
                dir: dir(),
                file: "fonts/a.ttf".into(),
            },
            RenderError::NotAnObject {
                template: "case.typ".into(),
            },
            RenderError::PageCount {
                template: "cards.typ".into(),
                pages: 2,
                pictures: 3,
            },
            RenderError::Pdf {
                made: "print.pdf".into(),
                message: "x".into(),
            },
            RenderError::Checksum { sha: "x".into() },
        ]
    }

    #[test]
    fn every_error_has_its_listed_code_and_speaks_of_no_flag() {
        let codes: Vec<&str> = one_of_each().iter().map(Coded::code).collect();
        assert_eq!(codes, RenderError::CODES);
        for e in one_of_each() {
            assert!(!e.to_string().contains("--"), "{e}");
        }
    }

    #[test]
    fn the_library_says_the_font_folder_and_the_command_line_its_flag() {
        let e = blockprint_content::error::Error::from(RenderError::NoFontFolder {
            dir: "nope".into(),
        });
        assert_eq!((e.code(), e.exit_code()), ("render-no-font-folder", 2));
        assert!(
            e.to_string()
                .starts_with("error: the font folder nope: no such folder\n  = help: ")
        );
        assert!(
            e.render(|id| format!("--{}", id.replace('_', "-")))
                .starts_with("error: --font-path nope: no such folder\n")
        );
    }
}
