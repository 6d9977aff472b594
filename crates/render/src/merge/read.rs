//! Reading inputs: a PDF file in, a parsed lopdf `Document` out (only the objects the merge needs when it
//! can), and from it the pages in order with their inherited attributes, and the named destinations.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;

use lopdf::{Document, Object, ObjectId};

use super::{DROPPED_TYPES, INHERITABLE, MergeError};

/// Read and parse one input: only the objects the merge needs when it has one classic xref table (what typst
/// writes), else the whole file with lopdf's loader (xref and object streams, updates, damaged files).
/// lopdf skips objects it cannot parse; a reference to one is caught while copying.
pub(super) fn load(path: &Path) -> Result<Document, MergeError> {
    let bytes = std::fs::read(path).map_err(|source| MergeError::Io {
        path: path.to_owned(),
        source,
    })?;
    let parse_err = |message: String| MergeError::Parse {
        path: path.to_owned(),
        message,
    };
    // lopdf should return errors for bad input; a panic on some malformed file must not take the batch down.
    let doc = std::panic::catch_unwind(|| {
        load_needed(&bytes).unwrap_or_else(|| Document::load_mem(&bytes))
    })
    .map_err(|_| parse_err("the PDF parser failed on this file".into()))?
    .map_err(|e| parse_err(e.to_string()))?;
    if doc.is_encrypted() || doc.encryption_state.is_some() {
        return Err(parse_err("encrypted PDFs are not supported".into()));
    }
    Ok(doc)
}

/// A document holding only what the merge reads — the catalog, the page tree, the structure tree and
/// everything reachable from them (not the outline, `/Info`, XMP metadata or ID tree) — parsed object by
/// object by [`super::parse`] (lopdf's parser is slow, ~10 µs for a small dictionary), or lopdf's `Reader`
/// for what that leaves. `None` for a
/// file without exactly one classic xref table.
pub(super) fn load_needed(bytes: &[u8]) -> Option<lopdf::Result<Document>> {
    use lopdf::xref::{Xref, XrefEntry, XrefType};

    let version = bytes.strip_prefix(b"%PDF-")?;
    let version =
        std::str::from_utf8(&version[..version.iter().position(|b| b.is_ascii_whitespace())?])
            .ok()?;
    let tail = &bytes[bytes.len().saturating_sub(512)..];
    let eof = tail.windows(5).rposition(|w| w == b"%%EOF")?;
    let at = tail[..eof].windows(9).rposition(|w| w == b"startxref")?;
    let start: usize = std::str::from_utf8(&tail[at + 9..eof])
        .ok()?
        .trim()
        .parse()
        .ok()?;

    // The table: `xref`, subsections of `first count` and 20-byte entries, `trailer`, the trailer dictionary.
    let mut tokens = bytes
        .get(start..)?
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty());
    if tokens.next()? != b"xref" {
        return None;
    }
    let number = |t: &[u8]| std::str::from_utf8(t).ok()?.parse::<u32>().ok();
    let mut xref = Xref::new(0, XrefType::CrossReferenceTable);
    loop {
        let first = tokens.next()?;
        if first == b"trailer" {
            break;
        }
        let (first, count) = (number(first)?, number(tokens.next()?)?);
        for id in first..first.checked_add(count)? {
            let (offset, generation, kind) = (
                number(tokens.next()?)?,
                number(tokens.next()?)?,
                tokens.next()?,
            );
            if kind == b"n" && id > 0 {
                xref.insert(
                    id,
                    XrefEntry::Normal {
                        offset,
                        generation: u16::try_from(generation).ok()?,
                    },
                );
            }
        }
    }
    xref.size = xref.max_id() + 1;
    let trailer_at = start + bytes[start..].windows(7).position(|w| w == b"trailer")?;
    let trailer = bytes.get(trailer_at..bytes.len() - tail.len() + at)?;
    let has = |key: &[u8]| trailer.windows(key.len()).any(|w| w == key);
    if has(b"/Prev") || has(b"/XRefStm") || has(b"/Encrypt") {
        return None;
    }
    let root = trailer.windows(5).position(|w| w == b"/Root")?;
    let mut root_tokens = trailer[root + 5..]
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty());
    let root_id = number(root_tokens.next()?)?;
    let root_gen = u16::try_from(number(root_tokens.next()?)?).ok()?;
    if !root_tokens.next()?.starts_with(b"R") {
        return None;
    }
    let root = (root_id, root_gen);

    let mut reader = lopdf::Reader {
        buffer: bytes,
        document: Document::new(),
        encryption_state: None,
        raw_objects: Default::default(),
        password: None,
        strict: false,
    };
    reader.document.version = version.to_string();
    reader.document.max_id = xref.max_id();
    reader.document.reference_table = xref;
    reader.document.trailer.set("Root", Object::Reference(root));

    let mut objects = std::collections::BTreeMap::new();
    let mut queue = VecDeque::from([root]);
    let mut refs = Vec::new();
    while let Some(id) = queue.pop_front() {
        if objects.contains_key(&id) {
            continue;
        }
        // The lean reader first (typst's objects), lopdf's for anything it leaves.
        let obj = match super::parse::object(bytes, &reader.document.reference_table, id) {
            Some(obj) => obj,
            None => match reader.get_object(id, &mut HashSet::new()) {
                Ok(obj) => obj,
                Err(_) => continue, // as lopdf's loader does; a reference to it is reported when copying
            },
        };
        let dict = match &obj {
            Object::Dictionary(d) => Some(d),
            Object::Stream(s) => Some(&s.dict),
            _ => None,
        };
        let kind = dict
            .and_then(|d| d.get(b"Type").ok())
            .and_then(|t| t.as_name().ok())
            .unwrap_or(b"");
        match (kind, dict) {
            (b"Catalog", Some(d)) => {
                for key in [
                    &b"Pages"[..],
                    b"Names",
                    b"Dests",
                    b"StructTreeRoot",
                    b"Lang",
                ] {
                    if let Ok(v) = d.get(key) {
                        references(v, &mut refs);
                    }
                }
            }
            (b"Pages" | b"Page" | b"Annot", Some(d)) => {
                for (key, v) in d.iter() {
                    if key != b"Parent" && key != b"P" {
                        references(v, &mut refs);
                    }
                }
            }
            // The structure tree is copied: its elements and parent tree (not the ID tree).
            (b"StructTreeRoot", Some(d)) => {
                for key in [&b"K"[..], b"ParentTree", b"RoleMap", b"ClassMap"] {
                    if let Ok(v) = d.get(key) {
                        references(v, &mut refs);
                    }
                }
            }
            (kind, _) if DROPPED_TYPES.contains(&kind) => {}
            (_, Some(d)) => d.iter().for_each(|(_, v)| references(v, &mut refs)),
            (_, None) => references(&obj, &mut refs),
        }
        queue.extend(refs.drain(..).filter(|r| !objects.contains_key(r)));
        objects.insert(id, obj);
    }
    reader.document.objects = objects;
    Some(Ok(reader.document))
}

/// Every reference in a direct object.
fn references(obj: &Object, out: &mut Vec<ObjectId>) {
    match obj {
        Object::Reference(id) => out.push(*id),
        Object::Array(items) => items.iter().for_each(|o| references(o, out)),
        Object::Dictionary(d) => d.iter().for_each(|(_, o)| references(o, out)),
        Object::Stream(s) => s.dict.iter().for_each(|(_, o)| references(o, out)),
        _ => {}
    }
}

/// `"1.7"` → (1, 7); anything unreadable counts as 1.7.
pub(super) fn parse_version(v: &str) -> (u32, u32) {
    let mut parts = v.trim().splitn(2, '.').map(|p| p.parse::<u32>());
    match (parts.next(), parts.next()) {
        (Some(Ok(major)), Some(Ok(minor))) => (major, minor),
        _ => (1, 7),
    }
}

/// One page of an input, with its effective inheritable attributes (own value, else the nearest ancestor's).
pub(super) struct SourcePage<'d> {
    pub(super) id: ObjectId,
    pub(super) inherited: [Option<&'d Object>; 4],
}

/// The input's pages in order, walking its page tree from the catalog.
pub(super) fn source_pages(doc: &Document) -> Result<Vec<SourcePage<'_>>, String> {
    let catalog = doc
        .catalog()
        .map_err(|e| format!("no document catalog ({e})"))?;
    let root = catalog
        .get(b"Pages")
        .and_then(Object::as_reference)
        .map_err(|_| "the catalog has no page tree".to_string())?;
    let mut pages = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(root, [None; 4], 0u32)];
    while let Some((id, mut inherited, depth)) = stack.pop() {
        if depth > 64 {
            return Err("the page tree is more than 64 levels deep".into());
        }
        if !seen.insert(id) {
            continue; // a page or node listed twice (or a cycle): use it once
        }
        let node = doc.get_object(id).and_then(Object::as_dict).map_err(|_| {
            format!(
                "page tree object {} {} R is missing or not a dictionary",
                id.0, id.1
            )
        })?;
        for (slot, key) in inherited.iter_mut().zip(INHERITABLE) {
            if let Ok(v) = node.get(key) {
                *slot = Some(v);
            }
        }
        let is_node = match node.get(b"Type").and_then(Object::as_name) {
            Ok(t) => t == b"Pages",
            Err(_) => node.has(b"Kids"),
        };
        if is_node {
            let kids = node
                .get(b"Kids")
                .and_then(|k| doc.dereference(k))
                .and_then(|(_, k)| k.as_array())
                .map_err(|_| format!("page tree node {} {} R has no /Kids array", id.0, id.1))?;
            for kid in kids.iter().rev() {
                if let Ok(kid) = kid.as_reference() {
                    stack.push((kid, inherited, depth + 1));
                }
            }
        } else {
            pages.push(SourcePage { id, inherited });
        }
    }
    Ok(pages)
}

/// The MediaBox of a page as a direct array of numbers (US Letter if it has none, as readers assume).
pub(super) fn media_box(doc: &Document, page: &SourcePage) -> Object {
    let numbers = page.inherited[1]
        .and_then(|b| doc.dereference(b).ok())
        .and_then(|(_, b)| b.as_array().ok())
        .map(|b| {
            b.iter()
                .filter_map(|n| doc.dereference(n).ok().map(|(_, n)| n.clone()))
                .filter(|n| matches!(n, Object::Integer(_) | Object::Real(_)))
                .collect::<Vec<_>>()
        })
        .filter(|b| b.len() == 4);
    Object::Array(numbers.unwrap_or_else(|| vec![0.into(), 0.into(), 612.into(), 792.into()]))
}

/// An input's named destinations: the catalog's `/Names /Dests` name tree and the older `/Dests` dictionary.
pub(super) fn named_destinations(doc: &Document) -> HashMap<Vec<u8>, Object> {
    let mut out = HashMap::new();
    let Ok(catalog) = doc.catalog() else {
        return out;
    };
    fn deref<'a>(doc: &'a Document, o: &'a Object) -> Option<&'a Object> {
        doc.dereference(o).ok().map(|(_, o)| o)
    }
    if let Some(Object::Dictionary(dests)) = catalog.get(b"Dests").ok().and_then(|d| deref(doc, d))
    {
        for (name, dest) in dests.iter() {
            out.insert(name.clone(), dest.clone());
        }
    }
    let tree = catalog
        .get(b"Names")
        .ok()
        .and_then(|n| deref(doc, n))
        .and_then(|n| n.as_dict().ok())
        .and_then(|n| n.get(b"Dests").ok())
        .and_then(|d| deref(doc, d));
    let mut stack: Vec<&Object> = tree.into_iter().collect();
    let mut steps = 0;
    while let Some(Object::Dictionary(node)) = stack.pop() {
        steps += 1;
        if steps > 100_000 {
            break; // a cycle
        }
        if let Some(Object::Array(pairs)) = node.get(b"Names").ok().and_then(|n| deref(doc, n)) {
            for pair in pairs.chunks_exact(2) {
                if let Some(Object::String(name, _)) = deref(doc, &pair[0]) {
                    out.entry(name.clone()).or_insert_with(|| pair[1].clone());
                }
            }
        }
        if let Some(Object::Array(kids)) = node.get(b"Kids").ok().and_then(|k| deref(doc, k)) {
            stack.extend(kids.iter().rev().filter_map(|k| deref(doc, k)));
        }
    }
    out
}
