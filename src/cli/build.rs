//! `blockprint build`: checked content in, everything blockprint makes written under `--out`: the tables
//! reference, a batch of case packets, and the SRD booklet (when the content has a book).

use std::collections::BTreeMap;

use crate::content::ContentRoot;
use crate::render::{data, markdown, output::Output};

use super::Status;

pub(super) fn run(root: &ContentRoot, opts: &super::case::CaseOptions, out: &Output) -> Status {
    let (lib, report) = match super::checked(root) {
        Ok(x) => x,
        Err(s) => return s,
    };
    let Some(reference) = data::reference(&lib, &report) else {
        eprintln!(
            "error: content passed the checker but some table has no odds; please report this"
        );
        return Status::Rules;
    };
    let titles: BTreeMap<String, String> = lib
        .tables
        .iter()
        .map(|t| (t.id.value.clone(), t.title.clone()))
        .collect();
    let rendered = markdown::environment(titles).and_then(|env| {
        let ctx = serde_json::json!({ "source": root.label(), "tables": reference.tables, "lookups": reference.lookups,
            "decks": reference.decks, "npcs": reference.npcs, "editorial": reference.editorial });
        markdown::render(&env, "tables/tables.md.j2", &ctx)
    });
    let md = match rendered {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot render tables.md: {e}");
            return Status::Rules;
        }
    };
    let json = match serde_json::to_string_pretty(&reference) {
        Ok(s) => s + "\n",
        Err(e) => {
            eprintln!("error: cannot write JSON: {e}");
            return Status::Io;
        }
    };
    for (rel, bytes) in [
        ("tables.md", md.as_bytes()),
        ("tables.json", json.as_bytes()),
    ] {
        match out.write(rel, bytes) {
            Ok(path) => eprintln!("wrote {}", path.display()),
            Err(e) => {
                eprintln!("error: {e}");
                return Status::Io;
            }
        }
    }
    let status = super::case::write_cases(&lib, opts, out);
    if status != Status::Ok || lib.books.is_empty() {
        return status;
    }
    super::srd::write_srd(
        &lib,
        &report,
        opts.paper,
        &[
            crate::render::packet::Format::Pdf,
            crate::render::packet::Format::Md,
        ],
        out,
    )
}
