//! `blockprint srd`: the checked content's book in, the SRD booklet as PDF, one Markdown file, and a
//! Markdown book (one file per chapter, mdBook `SUMMARY.md`) under `--out/srd/` out.

use crate::content::{Library, prose};
use crate::render::output::Output;
use crate::render::packet::{Format, Paper};
use crate::render::pdf::Pdf;
use crate::render::srd;

use super::Status;

pub(super) fn write_srd(
    lib: &Library,
    report: &crate::check::Report,
    paper: Paper,
    formats: &[Format],
    out: &Output,
) -> Status {
    let Some(book) = lib.books.first() else {
        eprintln!("error: the content has no `[[book]]`, so there is no SRD to make");
        eprintln!(
            "  = help: `blockprint init DIR` writes the built-in content, whose bbb/srd/book.toml is an example"
        );
        return Status::Rules;
    };
    let Some(data) = srd::data(lib, report, book, paper) else {
        eprintln!(
            "error: content passed the checker but some table has no odds; please report this"
        );
        return Status::Rules;
    };
    let stem = format!("{}-srd", prose::anchor(&book.title));
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    if formats.contains(&Format::Pdf) {
        match Pdf::new().render("srd/srd.typ", &data, "blockprint/srd") {
            Ok(pdf) => files.push((format!("srd/{stem}.pdf"), pdf)),
            Err(e) => {
                eprintln!("error: {e}");
                return Status::Rules;
            }
        }
    }
    if formats.contains(&Format::Md) {
        let titles = lib
            .tables
            .iter()
            .map(|t| (t.id.value.clone(), t.title.clone()))
            .collect();
        let rendered = crate::render::markdown::environment(titles).and_then(|env| {
            Ok((
                srd::markdown_single(&env, &data, book)?,
                srd::markdown_book(&env, &data, book)?,
            ))
        });
        match rendered {
            Ok((single, chapters)) => {
                files.push((format!("srd/{stem}.md"), single.into_bytes()));
                for (name, text) in chapters {
                    files.push((format!("srd/book/{name}"), text.into_bytes()));
                }
            }
            Err(e) => {
                eprintln!("error: cannot render the SRD Markdown: {e:#}");
                return Status::Rules;
            }
        }
    }
    if formats.contains(&Format::Json) {
        match serde_json::to_string_pretty(&data) {
            Ok(s) => files.push((format!("srd/{stem}.json"), (s + "\n").into_bytes())),
            Err(e) => {
                eprintln!("error: {e}");
                return Status::Io;
            }
        }
    }
    if let Err(e) = out.write_all(&files) {
        eprintln!("error: {e}");
        return Status::Io;
    }
    eprintln!(
        "wrote the SRD ({} files) to {}",
        files.len(),
        out.root().join("srd").display()
    );
    Status::Ok
}
