//! The SRD booklet: a checked library with a `[[book]]` in; one document whose PDF is the typeset booklet
//! and whose Markdown is the single-file edition plus an mdBook folder (`book/`, one file per chapter).

pub mod book;

use crate::{Checked, Document, Kind, Markdown, Request, Requirements};
use blockprint_content::error::{Error, Result};
use blockprint_content::prose;
use book as srd;

pub struct SrdKind;

impl SrdKind {
    fn data<'c>(
        cx: &'c Checked,
        req: &Request,
    ) -> Result<(srd::SrdData, &'c blockprint_content::Book)> {
        let book = cx.lib.books.first().ok_or_else(|| {
            Error::Rules("the content has no `[[book]]`, so there is no SRD to make (`blockprint init DIR` writes the built-in content, whose bbb/srd/book.toml is an example)".into())
        })?;
        let data = srd::data(&cx.lib, &cx.report, book, req.paper)
            .ok_or_else(|| Error::Bug("checked content without odds for some table".into()))?;
        Ok((data, book))
    }
}

/// What the `SrdKind` kind is.
pub static INFO: crate::KindInfo = crate::KindInfo::new(
    "srd",
    "the System Reference Document: typeset booklet, one Markdown file, an mdBook folder",
    "srd",
    crate::PDF_MD_JSON,
)
.titled("Rules reference (SRD)");

impl Kind for SrdKind {
    fn info(&self) -> &crate::KindInfo {
        &INFO
    }
    fn requires(&self) -> Requirements {
        Requirements {
            book: true,
            ..Requirements::default()
        }
    }
    fn count(&self, cx: &Checked, _req: &Request) -> Result<usize> {
        Ok(usize::from(!cx.lib.books.is_empty()))
    }
    fn document(&self, cx: &Checked, req: &Request, _i: usize) -> Result<Document> {
        let (data, book) = Self::data(cx, req)?;
        // The title's anchor, cut at 64 characters so a long title still makes a file name the file
        // system takes (most allow 255 bytes).
        let anchor: String = prose::anchor(&book.title).chars().take(64).collect();
        let anchor = anchor.trim_matches('-');
        let stem = format!("{}-srd", if anchor.is_empty() { "book" } else { anchor });
        Ok(Document::new(
            stem,
            "srd/srd",
            book.title.clone(),
            serde_json::to_value(&data).map_err(|e| Error::Bug(e.to_string()))?,
        )
        .audience(crate::Audience::Reader))
    }
    fn markdown(
        &self,
        cx: &Checked,
        engine: &dyn Markdown,
        doc: &Document,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        let paper = serde_json::from_value(doc.data["paper"].clone())
            .map_err(|e| Error::Bug(e.to_string()))?;
        let req = Request {
            seed: 0,
            paper,
            first: 1,
            count: 1,
        };
        let (data, book) = Self::data(cx, &req)?;
        let env = engine.markdown_env();
        let failed = |e: minijinja::Error| engine.markdown_error("srd/srd.md.j2", &e);
        let mut files = vec![(
            format!("{}.md", doc.stem),
            srd::markdown_single(env, &data, book)
                .map_err(failed)?
                .into_bytes(),
        )];
        for (name, text) in srd::markdown_book(env, &data, book).map_err(failed)? {
            files.push((format!("book/{name}"), text.into_bytes()));
        }
        files.push((
            "book/book.toml".to_owned(),
            srd::book_toml(&data).into_bytes(),
        ));
        Ok(files)
    }
}
