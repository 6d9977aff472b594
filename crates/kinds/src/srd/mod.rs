//! The SRD booklet: a checked library with a `[[book]]` in; one document whose PDF is the typeset booklet
//! and whose Markdown is the single-file edition plus an mdBook folder (`book/`, one file per chapter).

pub mod book;

use crate::error::{Problem, json, unchecked};
use crate::{Checked, Document, Kind, Markdown, Request, Requirements};
use blockprint_content::error::Result;
use blockprint_content::prose;
use book as srd;

pub struct SrdKind;

impl SrdKind {
    fn data<'c>(
        cx: &'c Checked,
        req: &Request,
    ) -> Result<(srd::SrdData, &'c blockprint_content::Book)> {
        let book = cx.lib.books.first().ok_or(Problem::NoBook)?;
        let data = srd::data(&cx.lib, &cx.report, book, req.paper)
            .ok_or_else(|| unchecked("has no odds for some table"))?;
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
            json("the SRD's data", &data)?,
        )
        .audience(crate::Audience::Reader))
    }
    fn markdown(
        &self,
        _cx: &Checked,
        engine: &dyn Markdown,
        doc: &Document,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        self.markdown_cached(engine, doc, &mut srd::MarkdownCache::default())
    }
}

impl SrdKind {
    /// [`Kind::markdown`] keeping the chapters and appendices written in `cache`, for one who makes the
    /// SRD's Markdown again and again with `engine` (the `data` fuzz target): a chapter whose text and
    /// reads of the book's data are unchanged is not written again. The files are the same either way.
    pub fn markdown_cached(
        &self,
        engine: &dyn Markdown,
        doc: &Document,
        cache: &mut srd::MarkdownCache,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        // The Markdown is written from the document's data, as its JSON and PDF are.
        let eds = srd::markdown(engine.markdown_env(), &doc.data, cache)
            .map_err(|e| engine.markdown_error("srd/srd.md.j2", &e))?;
        let mut files = vec![(format!("{}.md", doc.stem), eds.single.into_bytes())];
        for (name, text) in eds.book {
            files.push((format!("book/{name}"), text.into_bytes()));
        }
        files.push((
            "book/book.toml".to_owned(),
            srd::book_toml(&doc.data).into_bytes(),
        ));
        Ok(files)
    }
}
