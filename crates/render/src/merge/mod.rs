//! Merge: already-rendered PDF files in, one PDF out, streamed: each input is parsed, its pages and what they
//! use are renumbered and written at once, then dropped, so memory holds one input plus a few bytes per page.
//!
//! What is copied from an input: its pages, in order, and every object reachable from them (contents,
//! resources, fonts, images, annotations…), with inherited page attributes (`/MediaBox`, `/CropBox`,
//! `/Resources`, `/Rotate`) resolved onto each page, and its structure tree (a tagged PDF, as typst writes):
//! the output is tagged when its inputs are, each tagged input's structure under a `Part` element of one
//! `Document` element, its `/StructParents` and `/StructParent` keys moved past those of the inputs before
//! it and its parent tree entries with them; the first tagged input's `/Lang` and role map are the
//! output's. What is not: the input's catalog, page tree nodes, `/Info`, outline, XMP metadata, ID tree,
//! name trees and article threads (an untagged input's `/StructParents` keys are dropped). Links: URI and other external
//! actions are kept; a link to a page of the same input — an explicit destination, or a named one that the
//! input's `/Dests` name tree resolves (typst writes all its internal links that way) — becomes an explicit
//! destination to the copied page; a link to anything else (a page of no input, an unknown name) is dropped.
//! Streams are copied byte for byte with their filters; object streams and xref streams in inputs are read
//! (by lopdf) and written out as plain objects.
//!
//! The output has a two-level page tree (leaves of [`LEAF_PAGES`] pages), one top-level bookmark per input
//! pointing at its first page, an `/Info` with the title and no dates, a classic xref table and an `/ID` made
//! from a SHA-256 of everything before it: the same inputs give byte-identical output.
mod copy;
mod parse;
mod read;
#[cfg(test)]
mod tests;
mod write;

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use lopdf::{Dictionary, Document, Object};

use copy::{Copier, Ids, PageTree, leaf_dict};
use read::{load, media_box, parse_version, source_pages};
use write::{Sink, text_string};

/// One already-rendered PDF and the title of its bookmark in the merged file.
pub struct Input {
    pub path: PathBuf,
    pub bookmark: String,
}

/// How to merge.
pub struct Options {
    /// `/Title` of the merged document (shown by viewers instead of the file name).
    pub title: String,
    /// Append a blank page (with the MediaBox of its last page) after each input with an odd page count, so
    /// every input starts on an odd page when printed duplex. The page says so in small grey type
    /// ([`BLANK_NOTE`]), as printed books do, so nobody takes it for a misprint.
    pub pad_to_even: bool,
    /// The `/Creator` and `/Producer` of the merged file ([`crate::engine::creator`]); none are written
    /// without it.
    pub creator: Option<String>,
}

/// What was merged: `pages` counts every page of the output, the `blank_pages` added for padding included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    pub inputs: usize,
    pub pages: usize,
    pub blank_pages: usize,
}

/// Why a merge failed. Input errors name the file; the output written so far is then incomplete.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error(
        "nothing to merge: a PDF needs at least one page, so at least one input PDF is required"
    )]
    NoInputs,
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("`{}` is not a usable PDF: {message}", path.display())]
    Parse { path: PathBuf, message: String },
    #[error("`{}` has no pages", path.display())]
    NoPages { path: PathBuf },
    #[error("cannot write the merged PDF: {0}")]
    Write(#[source] std::io::Error),
    #[error("the merged PDF is too large: {0}")]
    TooLarge(&'static str),
}

/// Pages per leaf of the output page tree (the root holds the leaves).
pub const LEAF_PAGES: usize = 64;

/// Object id of the page tree root; written last, referenced by every leaf.
const ROOT_ID: u32 = 1;

/// Keys into the input's structure tree (its parent tree): renumbered when the input's structure is
/// copied, else dropped.
const DROPPED_KEYS: [&[u8]; 2] = [b"StructParents", b"StructParent"];

/// Objects of these types are never copied; a reference to one becomes null (and its key is dropped). A
/// reference to the input's `StructTreeRoot` from its structure elements becomes one to the input's `Part`.
const DROPPED_TYPES: [&[u8]; 7] = [
    b"Catalog",
    b"Pages",
    b"Page",
    b"StructTreeRoot",
    b"Outlines",
    b"ObjStm",
    b"XRef",
];

/// An input's structure tree as the merge reads it: its root, the root's kids, its parent tree's entries
/// (key, value) and the next free key, its role map and the catalog's `/Lang`.
struct Structure {
    root: lopdf::ObjectId,
    kids: Object,
    parents: Vec<(i64, Object)>,
    next_key: i64,
    role_map: Option<Dictionary>,
    lang: Option<Object>,
}

/// The entries of a number tree (`/Nums`, through `/Kids`), in order.
fn number_tree(doc: &Document, node: &Object, depth: u32, out: &mut Vec<(i64, Object)>) {
    let Ok((_, Object::Dictionary(d))) = doc.dereference(node) else {
        return;
    };
    if depth > 32 {
        return;
    }
    if let Ok(Object::Array(nums)) = d.get(b"Nums").and_then(|n| doc.dereference(n)).map(|x| x.1) {
        for pair in nums.chunks(2) {
            if let [Object::Integer(k), v] = pair {
                out.push((*k, v.clone()));
            }
        }
    }
    if let Ok(Object::Array(kids)) = d.get(b"Kids").and_then(|n| doc.dereference(n)).map(|x| x.1) {
        for kid in kids {
            number_tree(doc, kid, depth + 1, out);
        }
    }
}

/// The structure tree of a tagged input, or `None`.
fn structure(doc: &Document) -> Option<Structure> {
    let catalog = doc.catalog().ok()?;
    let root = catalog.get(b"StructTreeRoot").ok()?.as_reference().ok()?;
    let tree = doc.get_object(root).ok()?.as_dict().ok()?;
    let kids = tree.get(b"K").ok()?.clone();
    let mut parents = Vec::new();
    if let Ok(p) = tree.get(b"ParentTree") {
        number_tree(doc, p, 0, &mut parents);
    }
    parents.sort_by_key(|(k, _)| *k);
    let next_key = tree
        .get(b"ParentTreeNextKey")
        .and_then(Object::as_i64)
        .unwrap_or(0)
        .max(parents.last().map_or(0, |(k, _)| k + 1));
    let role_map = tree
        .get(b"RoleMap")
        .and_then(|r| doc.dereference(r))
        .ok()
        .and_then(|(_, r)| r.as_dict().ok().cloned());
    let lang = catalog
        .get(b"Lang")
        .and_then(|l| doc.dereference(l))
        .ok()
        .map(|(_, l)| l.clone());
    Some(Structure {
        root,
        kids,
        parents,
        next_key,
        role_map,
        lang,
    })
}

/// Page attributes a page may inherit from its page tree ancestors.
const INHERITABLE: [&[u8]; 4] = [b"Resources", b"MediaBox", b"CropBox", b"Rotate"];

/// Write the merged PDF to `out`. Inputs are read one at a time, in order.
///
/// Each parsed input is copied out and dropped before the next; parsing is most of the work, so it runs
/// ahead on one thread per core (at most [`MAX_READERS`]), each holding at most [`READ_AHEAD`] parsed
/// inputs. Output goes
/// through an internal buffer, so `out` may be an unbuffered `File`. On error, what was written is incomplete.
pub fn merge(inputs: &[Input], opts: &Options, out: &mut dyn Write) -> Result<Stats, MergeError> {
    if inputs.is_empty() {
        return Err(MergeError::NoInputs);
    }
    let readers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_READERS)
        .min(inputs.len());
    std::thread::scope(|scope| {
        let queues: Vec<_> = (0..readers)
            .map(|k| {
                let (send, receive) = std::sync::mpsc::sync_channel(READ_AHEAD);
                scope.spawn(move || {
                    for input in inputs.iter().skip(k).step_by(readers) {
                        if send.send(load(&input.path)).is_err() {
                            break; // the merge stopped
                        }
                    }
                });
                receive
            })
            .collect();
        // Reader k parses inputs k, k + readers, k + 2·readers…: taking from the queues in turn keeps the order.
        let docs = inputs.iter().enumerate().map(|(i, input)| {
            queues[i % readers].recv().unwrap_or_else(|_| {
                Err(MergeError::Parse {
                    path: input.path.clone(),
                    message: "the PDF reader thread failed".into(),
                })
            })
        });
        write_merged(inputs, opts, out, docs)
    })
}

/// What a padding page says, centred on it in small grey type.
pub const BLANK_NOTE: &str = "This page is intentionally blank.";
/// The note's size in points, and the smallest it is shrunk to on a page too narrow for it (below that, on a
/// page narrower than a playing card, the page stays empty).
const BLANK_NOTE_SIZE: f64 = 8.0;
const BLANK_NOTE_MIN_SIZE: f64 = 6.0;
/// The least room (points, about 5 mm) kept between the note and the page's side edges.
const BLANK_NOTE_MARGIN: f64 = 14.0;
const BLANK_FONT_NAME: &str = "BpBlank";

/// Helvetica, one of the PDF standard fonts every reader has (nothing to embed), in WinAnsi encoding.
fn blank_font_dict() -> Dictionary {
    let mut d = Dictionary::new();
    d.set("Type", Object::Name(b"Font".to_vec()));
    d.set("Subtype", Object::Name(b"Type1".to_vec()));
    d.set("BaseFont", Object::Name(b"Helvetica".to_vec()));
    d.set("Encoding", Object::Name(b"WinAnsiEncoding".to_vec()));
    d
}

/// Width of a character of [`BLANK_NOTE`] in Helvetica, in thousandths of the type size (its AFM metrics).
fn helvetica_width(c: char) -> f64 {
    match c {
        ' ' | '.' | 't' | 'f' => 278.0,
        'i' | 'l' | 'j' => 222.0,
        's' | 'y' | 'k' | 'c' | 'v' | 'x' | 'z' => 500.0,
        'r' => 333.0,
        'm' => 833.0,
        'w' => 722.0,
        'T' => 611.0,
        _ => 556.0,
    }
}

/// The content stream of a padding page with this MediaBox: [`BLANK_NOTE`] centred on the page in 50% grey,
/// or `None` when the page is too narrow for it at [`BLANK_NOTE_MIN_SIZE`].
fn blank_note(media_box: &Object) -> Option<Vec<u8>> {
    let n: Vec<f64> = media_box
        .as_array()
        .ok()?
        .iter()
        .filter_map(|o| match o {
            Object::Integer(i) => Some(*i as f64),
            Object::Real(r) => Some(f64::from(*r)),
            _ => None,
        })
        .collect();
    let [x0, y0, x1, y1] = n[..] else { return None };
    let (left, right) = (x0.min(x1), x0.max(x1));
    let (bottom, top) = (y0.min(y1), y0.max(y1));
    let em: f64 = BLANK_NOTE.chars().map(helvetica_width).sum::<f64>() / 1000.0;
    let size = BLANK_NOTE_SIZE.min((right - left - 2.0 * BLANK_NOTE_MARGIN) / em);
    if !size.is_finite() || size < BLANK_NOTE_MIN_SIZE {
        return None;
    }
    let x = (left + right - em * size) / 2.0;
    let y = (bottom + top - 0.7 * size) / 2.0; // cap height of Helvetica is about 0.7 em
    Some(
        format!("BT 0.5 g /{BLANK_FONT_NAME} {size:.2} Tf {x:.2} {y:.2} Td ({BLANK_NOTE}) Tj ET")
            .into_bytes(),
    )
}

/// Inputs parsed ahead per reader thread.
pub const READ_AHEAD: usize = 2;
/// Reader threads at most.
pub const MAX_READERS: usize = 4;

/// The merge proper, on inputs parsed elsewhere (`docs` yields one per input, in order).
fn write_merged(
    inputs: &[Input],
    opts: &Options,
    out: &mut dyn Write,
    docs: impl Iterator<Item = Result<Document, MergeError>>,
) -> Result<Stats, MergeError> {
    let mut w = Sink::new(out);
    w.raw(b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n")?;

    let mut ids = Ids(ROOT_ID + 1);
    let mut tree = PageTree::default();
    let mut first_pages = Vec::with_capacity(inputs.len());
    let mut stats = Stats {
        inputs: inputs.len(),
        pages: 0,
        blank_pages: 0,
    };
    let mut version = (1, 7);
    // The font of the blank pages' note, written once, with the first blank page that has one.
    let mut blank_font: Option<u32> = None;
    // The merged structure tree: its `Document` element, the inputs' `Part` elements, the parent tree's
    // entries (written as they were copied), the next free key, the role map and the language.
    let mut document_elem: Option<u32> = None;
    let mut parts: Vec<u32> = Vec::new();
    let mut parent_tree: Vec<(i64, Vec<u8>)> = Vec::new();
    let mut next_key: i64 = 0;
    let mut role_map: Option<Dictionary> = None;
    let mut lang: Option<Object> = None;

    for (input, doc) in inputs.iter().zip(docs) {
        let doc = doc?;
        version = version.max(parse_version(&doc.version));
        let parse_err = |message: String| MergeError::Parse {
            path: input.path.clone(),
            message,
        };
        let pages = source_pages(&doc).map_err(parse_err)?;
        if pages.is_empty() {
            return Err(MergeError::NoPages {
                path: input.path.clone(),
            });
        }

        // Page ids first, so that links between the input's pages can point at the copies.
        let mut placed = Vec::with_capacity(pages.len());
        for _ in &pages {
            placed.push(tree.add_page(&mut ids)?);
        }
        first_pages.push(placed[0].0);
        let mut page_ids = HashMap::with_capacity(pages.len());
        for (p, &(id, _)) in pages.iter().zip(&placed) {
            page_ids.entry(p.id).or_insert(id);
        }

        let tagged = structure(&doc);
        let part = match &tagged {
            Some(s) => {
                let doc_elem = match document_elem {
                    Some(id) => id,
                    None => *document_elem.insert(ids.next()?),
                };
                let part = ids.next()?;
                parts.push(part);
                role_map = role_map.or_else(|| s.role_map.clone());
                lang = lang.or_else(|| s.lang.clone());
                Some((s, part, doc_elem))
            }
            None => None,
        };
        let mut cx = Copier::new(&doc, page_ids, &mut ids);
        if let Some((s, part, _)) = part {
            cx.structure = Some((s.root, part, next_key));
        }
        for (p, &(id, parent)) in pages.iter().zip(&placed) {
            w.object(id, |buf| cx.page(buf, p, parent))?;
        }
        if let Some((s, part, doc_elem)) = part {
            w.object(part, |buf| {
                write!(buf, "<</Type/StructElem/S/Part/P {doc_elem} 0 R/K ")
                    .expect("writing to a Vec");
                cx.value(buf, &s.kids, 1);
                buf.extend_from_slice(b">>");
            })?;
            for (k, v) in &s.parents {
                let mut buf = Vec::new();
                cx.value(&mut buf, v, 1);
                parent_tree.push((k + next_key, buf));
            }
        }
        while let Some((old, new)) = cx.queue.pop_front() {
            match doc.objects.get(&old) {
                Some(Object::Stream(s)) => w.stream(
                    new,
                    |buf| cx.stream_dict(buf, &s.dict, s.content.len()),
                    &s.content,
                )?,
                Some(obj) => w.object(new, |buf| cx.value(buf, obj, 0))?,
                None => unreachable!("only existing objects are queued"),
            }
        }
        if let Some(message) = cx.problem.take() {
            return Err(parse_err(message));
        }
        if let Some((s, ..)) = part {
            // The next input's keys start past every key of this one, whether its parent tree or its
            // pages and annotations name it.
            next_key += s.next_key.max(cx.keys);
        }
        drop(cx);
        stats.pages += pages.len();

        if opts.pad_to_even && pages.len() % 2 == 1 {
            let last = pages.last().expect("pages is not empty");
            let (id, parent) = tree.add_page(&mut ids)?;
            let mbox = media_box(&doc, last);
            let mut blank = Dictionary::new();
            blank.set("Type", Object::Name(b"Page".to_vec()));
            blank.set("Parent", Object::Reference((parent, 0)));
            let mut resources = Dictionary::new();
            if let Some(content) = blank_note(&mbox) {
                let font = match blank_font {
                    Some(font) => font,
                    None => {
                        let font = ids.next()?;
                        w.dict(font, blank_font_dict())?;
                        *blank_font.insert(font)
                    }
                };
                let mut fonts = Dictionary::new();
                fonts.set(BLANK_FONT_NAME, Object::Reference((font, 0)));
                resources.set("Font", fonts);
                let stream = ids.next()?;
                w.stream(
                    stream,
                    |buf| write!(buf, "<</Length {}>>", content.len()).expect("writing to a Vec"),
                    &content,
                )?;
                blank.set("Contents", Object::Reference((stream, 0)));
            }
            blank.set("MediaBox", mbox);
            blank.set("Resources", resources);
            w.dict(id, blank)?;
            stats.pages += 1;
            stats.blank_pages += 1;
        }
        drop(doc);
        while let Some((id, kids)) = tree.full.pop() {
            w.dict(id, leaf_dict(&kids))?;
        }
    }

    if let Some((id, kids)) = tree.current.take() {
        w.dict(id, leaf_dict(&kids))?;
    }
    let mut root = Dictionary::new();
    root.set("Type", Object::Name(b"Pages".to_vec()));
    root.set(
        "Kids",
        tree.leaves
            .iter()
            .map(|&id| Object::Reference((id, 0)))
            .collect::<Vec<_>>(),
    );
    root.set("Count", stats.pages as i64);
    w.dict(ROOT_ID, root)?;

    let outlines = ids.next()?;
    let n = first_pages.len() as u32;
    let mut dict = Dictionary::new();
    dict.set("Type", Object::Name(b"Outlines".to_vec()));
    dict.set("First", Object::Reference((outlines + 1, 0)));
    dict.set("Last", Object::Reference((outlines + n, 0)));
    dict.set("Count", n as i64);
    w.dict(outlines, dict)?;
    for (i, (input, &page)) in inputs.iter().zip(&first_pages).enumerate() {
        let id = ids.next()?;
        let mut item = Dictionary::new();
        item.set("Title", text_string(&input.bookmark));
        item.set("Parent", Object::Reference((outlines, 0)));
        if i > 0 {
            item.set("Prev", Object::Reference((id - 1, 0)));
        }
        if i + 1 < first_pages.len() {
            item.set("Next", Object::Reference((id + 1, 0)));
        }
        item.set(
            "Dest",
            vec![Object::Reference((page, 0)), Object::Name(b"Fit".to_vec())],
        );
        w.dict(id, item)?;
    }

    let struct_root = match document_elem {
        Some(doc_elem) => {
            let kids = parts
                .iter()
                .map(|&id| Object::Reference((id, 0)))
                .collect::<Vec<_>>();
            let root = ids.next()?;
            let mut elem = Dictionary::new();
            elem.set("Type", Object::Name(b"StructElem".to_vec()));
            elem.set("S", Object::Name(b"Document".to_vec()));
            elem.set("P", Object::Reference((root, 0)));
            elem.set("K", kids);
            if let Some(l) = &lang {
                elem.set("Lang", l.clone());
            }
            w.dict(doc_elem, elem)?;
            let tree = ids.next()?;
            w.object(tree, |buf| {
                buf.extend_from_slice(b"<</Nums[");
                for (i, (k, v)) in parent_tree.iter().enumerate() {
                    if i > 0 {
                        buf.push(b' ');
                    }
                    write!(buf, "{k} ").expect("writing to a Vec");
                    buf.extend_from_slice(v);
                }
                buf.extend_from_slice(b"]>>");
            })?;
            let mut dict = Dictionary::new();
            dict.set("Type", Object::Name(b"StructTreeRoot".to_vec()));
            dict.set("K", Object::Reference((doc_elem, 0)));
            dict.set("ParentTree", Object::Reference((tree, 0)));
            dict.set("ParentTreeNextKey", next_key);
            if let Some(r) = role_map.take() {
                dict.set("RoleMap", r);
            }
            w.dict(root, dict)?;
            Some(root)
        }
        None => None,
    };

    let info = ids.next()?;
    let mut dict = Dictionary::new();
    dict.set("Title", text_string(&opts.title));
    if let Some(c) = &opts.creator {
        dict.set("Creator", Object::string_literal(c.as_str()));
        dict.set("Producer", Object::string_literal(c.as_str()));
    }
    w.dict(info, dict)?;

    let catalog = ids.next()?;
    let mut dict = Dictionary::new();
    dict.set("Type", Object::Name(b"Catalog".to_vec()));
    if version > (1, 7) {
        dict.set(
            "Version",
            Object::Name(format!("{}.{}", version.0, version.1).into_bytes()),
        );
    }
    dict.set("Pages", Object::Reference((ROOT_ID, 0)));
    dict.set("Outlines", Object::Reference((outlines, 0)));
    dict.set("PageMode", Object::Name(b"UseOutlines".to_vec()));
    if let Some(root) = struct_root {
        dict.set("StructTreeRoot", Object::Reference((root, 0)));
        let mut mark = Dictionary::new();
        mark.set("Marked", true);
        dict.set("MarkInfo", mark);
    }
    if let Some(l) = lang {
        dict.set("Lang", l);
    }
    let mut prefs = Dictionary::new();
    prefs.set("DisplayDocTitle", true);
    dict.set("ViewerPreferences", prefs);
    w.dict(catalog, dict)?;

    w.finish(ids.0, catalog, info)?;
    Ok(stats)
}
