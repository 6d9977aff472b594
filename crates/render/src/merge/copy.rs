//! Renumbering and copying: an input's pages and what they reach in, serialized objects in the output's id
//! space out (with the output page tree's ids handed out alongside).

use std::collections::{HashMap, VecDeque};
use std::io::Write;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::read::{SourcePage, named_destinations};
use super::write::{needs_space, write_name, write_object};
use super::{DROPPED_KEYS, DROPPED_TYPES, INHERITABLE, LEAF_PAGES, MergeError, ROOT_ID};

/// Output object ids, handed out in order.
pub(super) struct Ids(pub(super) u32);

impl Ids {
    pub(super) fn next(&mut self) -> Result<u32, MergeError> {
        let id = self.0;
        // Far beyond any real batch, and what a classic xref table stays practical for.
        if id >= 100_000_000 {
            return Err(MergeError::TooLarge("more than 100 million objects"));
        }
        self.0 += 1;
        Ok(id)
    }
}

/// The output page tree: pages in leaves of [`LEAF_PAGES`], leaves under the root ([`ROOT_ID`]).
#[derive(Default)]
pub(super) struct PageTree {
    /// Ids of the leaves, in order (the root's kids).
    pub(super) leaves: Vec<u32>,
    /// The leaf being filled: its id and its pages' ids.
    pub(super) current: Option<(u32, Vec<u32>)>,
    /// Leaves filled and not written yet.
    pub(super) full: Vec<(u32, Vec<u32>)>,
}

impl PageTree {
    /// Allocate the next page: its id and its parent leaf's id.
    pub(super) fn add_page(&mut self, ids: &mut Ids) -> Result<(u32, u32), MergeError> {
        let (leaf, kids) = match &mut self.current {
            Some(current) => current,
            None => {
                let leaf = ids.next()?;
                self.leaves.push(leaf);
                self.current.insert((leaf, Vec::with_capacity(LEAF_PAGES)))
            }
        };
        let leaf = *leaf;
        let page = ids.next()?;
        kids.push(page);
        if kids.len() == LEAF_PAGES {
            self.full.extend(self.current.take());
        }
        Ok((page, leaf))
    }
}

pub(super) fn leaf_dict(kids: &[u32]) -> Dictionary {
    let mut leaf = Dictionary::new();
    leaf.set("Type", Object::Name(b"Pages".to_vec()));
    leaf.set("Parent", Object::Reference((ROOT_ID, 0)));
    leaf.set(
        "Kids",
        kids.iter()
            .map(|&id| Object::Reference((id, 0)))
            .collect::<Vec<_>>(),
    );
    leaf.set("Count", kids.len() as i64);
    leaf
}

/// Copies one input's objects into the output's id space, serializing them as it goes. Lives for one input.
pub(super) struct Copier<'d, 'i> {
    doc: &'d Document,
    /// Input page → output page.
    pages: HashMap<ObjectId, u32>,
    /// Input object → output object, for every object queued or written.
    ids: HashMap<ObjectId, u32>,
    /// Objects found and not written yet, in output id order.
    pub(super) queue: VecDeque<(ObjectId, u32)>,
    next: &'i mut Ids,
    /// The input's named destinations, read on first use.
    named: Option<HashMap<Vec<u8>, Object>>,
    /// The first thing wrong with the input (a missing object: a damaged or truncated file), or too many ids.
    pub(super) problem: Option<String>,
    /// When the input's structure tree is copied: its root (references to it become references to the
    /// input's `Part`), that `Part`, and what is added to its `/StructParents` and `/StructParent` keys.
    pub(super) structure: Option<(ObjectId, u32, i64)>,
    /// One more than the largest `/StructParents` or `/StructParent` key copied (before the offset).
    pub(super) keys: i64,
}

impl<'d, 'i> Copier<'d, 'i> {
    pub(super) fn new(doc: &'d Document, pages: HashMap<ObjectId, u32>, next: &'i mut Ids) -> Self {
        Self {
            doc,
            pages,
            ids: HashMap::new(),
            queue: VecDeque::new(),
            next,
            named: None,
            problem: None,
            structure: None,
            keys: 0,
        }
    }

    /// Write the output page dictionary for an input page.
    pub(super) fn page(&mut self, buf: &mut Vec<u8>, page: &SourcePage, parent: u32) {
        let doc = self.doc;
        let src = doc
            .get_object(page.id)
            .and_then(Object::as_dict)
            .expect("checked by source_pages");
        write!(buf, "<</Type/Page/Parent {parent} 0 R").expect("writing to a Vec");
        for (key, inherited) in INHERITABLE.iter().zip(page.inherited) {
            if let Some(v) = inherited {
                self.entry(buf, key, v, false, 1);
            }
        }
        for (key, v) in src.iter() {
            let key = key.as_slice();
            if matches!(key, b"Type" | b"Parent" | b"Annots") || INHERITABLE.contains(&key) {
                continue;
            }
            self.entry(buf, key, v, false, 1);
        }
        if let Ok((_, Object::Array(annots))) = src.get(b"Annots").and_then(|a| doc.dereference(a))
        {
            let mut kept = Vec::with_capacity(annots.len());
            for annot in annots {
                if self.keep_annotation(annot)
                    && let Some(annot) = self.simple(annot)
                {
                    kept.push(annot);
                }
            }
            if !kept.is_empty() {
                buf.extend_from_slice(b"/Annots[");
                for (i, annot) in kept.iter().enumerate() {
                    if i > 0 {
                        buf.push(b' ');
                    }
                    match annot {
                        Simple::Ref(new) => write!(buf, "{new} 0 R").expect("writing to a Vec"),
                        Simple::Direct(annot) => self.value(buf, annot, 1),
                    }
                }
                buf.push(b']');
            }
        }
        buf.extend_from_slice(b">>");
    }

    /// A stream's dictionary, with `/Length` set to the length of its content.
    pub(super) fn stream_dict(&mut self, buf: &mut Vec<u8>, d: &Dictionary, length: usize) {
        buf.extend_from_slice(b"<<");
        for (key, v) in d.iter() {
            if key != b"Length" {
                self.entry(buf, key, v, false, 1);
            }
        }
        write!(buf, "/Length {length}>>").expect("writing to a Vec");
    }

    /// An annotation as it will be copied: a reference to its copy, or the direct dictionary; `None` when the
    /// reference leads to an object that is not copied.
    fn simple<'o>(&mut self, obj: &'o Object) -> Option<Simple<'o>> {
        match obj {
            Object::Reference(id) => self.reference(*id).map(Simple::Ref),
            other => Some(Simple::Direct(other)),
        }
    }

    /// False for an annotation that is not a dictionary, or whose link (`/Dest`, or `/A` with `/S /GoTo`)
    /// leads to no page of this input.
    fn keep_annotation(&mut self, annot: &Object) -> bool {
        let doc = self.doc;
        let Ok((_, Object::Dictionary(annot))) = doc.dereference(annot) else {
            return false;
        };
        if let Ok(dest) = annot.get(b"Dest") {
            return self.destination(dest).is_some();
        }
        if let Ok((_, Object::Dictionary(action))) =
            annot.get(b"A").and_then(|a| doc.dereference(a))
            && action
                .get(b"S")
                .and_then(Object::as_name)
                .is_ok_and(|s| s == b"GoTo")
        {
            return action
                .get(b"D")
                .is_ok_and(|d| self.destination(d).is_some());
        }
        true
    }

    /// The explicit destination (`[page /XYZ …]`) that `dest` (explicit, or a name) stands for, if it leads to
    /// a page of this input.
    fn destination(&mut self, dest: &Object) -> Option<Object> {
        let doc = self.doc;
        let (_, mut dest) = doc.dereference(dest).ok()?;
        if let Object::Name(name) | Object::String(name, _) = dest {
            let named = self.named.get_or_insert_with(|| named_destinations(doc));
            dest = doc.dereference(named.get(name.as_slice())?).ok()?.1;
            if let Object::Dictionary(d) = dest {
                dest = doc.dereference(d.get(b"D").ok()?).ok()?.1;
            }
        }
        let array = dest.as_array().ok()?;
        let page = array.first()?.as_reference().ok()?;
        self.pages.contains_key(&page).then(|| dest.clone())
    }

    /// The output id for an input object, queueing it for copying when first seen; `None` for objects that
    /// are not copied (see [`DROPPED_TYPES`]) and for missing ones.
    fn reference(&mut self, id: ObjectId) -> Option<u32> {
        if let Some(&new) = self.pages.get(&id).or_else(|| self.ids.get(&id)) {
            return Some(new);
        }
        if let Some((root, part, _)) = self.structure
            && root == id
        {
            return Some(part);
        }
        let Some(obj) = self.doc.objects.get(&id) else {
            self.problem.get_or_insert_with(|| {
                format!(
                    "object {} {} R is missing (is the file truncated?)",
                    id.0, id.1
                )
            });
            return None;
        };
        let dict = match obj {
            Object::Dictionary(d) => Some(d),
            Object::Stream(s) => Some(&s.dict),
            _ => None,
        };
        if let Some(t) = dict
            .and_then(|d| d.get(b"Type").ok())
            .and_then(|t| t.as_name().ok())
            && DROPPED_TYPES.contains(&t)
        {
            return None;
        }
        let new = match self.next.next() {
            Ok(new) => new,
            Err(e) => {
                self.problem.get_or_insert_with(|| e.to_string());
                return None;
            }
        };
        self.ids.insert(id, new);
        self.queue.push_back((id, new));
        Some(new)
    }

    /// Write one dictionary entry, renumbered: nothing for a null value, a [`DROPPED_KEYS`] key or a value
    /// that is not copied; a named destination made explicit.
    fn entry(&mut self, buf: &mut Vec<u8>, key: &[u8], v: &Object, goto: bool, depth: u32) {
        if DROPPED_KEYS.contains(&key) {
            if let (Some((_, _, offset)), Object::Integer(n)) = (self.structure, v) {
                self.keys = self.keys.max(n + 1);
                write_name(buf, key);
                write!(buf, " {}", n + offset).expect("writing to a Vec");
            }
            return;
        }
        let named = (key == b"Dest" || goto && key == b"D")
            && matches!(v, Object::Name(_) | Object::String(..));
        let explicit;
        let v = if named {
            match self.destination(v) {
                Some(dest) => {
                    explicit = dest;
                    &explicit
                }
                None => return,
            }
        } else {
            v
        };
        let reference = match v {
            Object::Null | Object::Stream(_) => return,
            Object::Reference(id) => match self.reference(*id) {
                Some(new) => Some(new),
                None => return,
            },
            _ => None,
        };
        write_name(buf, key);
        match reference {
            Some(new) => write!(buf, " {new} 0 R").expect("writing to a Vec"),
            None => {
                if needs_space(v) {
                    buf.push(b' ');
                }
                self.value(buf, v, depth);
            }
        }
    }

    /// Write a direct object with its references renumbered (null for what is not copied).
    pub(super) fn value(&mut self, buf: &mut Vec<u8>, obj: &Object, depth: u32) {
        if depth > 128 {
            buf.extend_from_slice(b"null"); // nesting this deep is not a real PDF
            return;
        }
        match obj {
            Object::Reference(id) => match self.reference(*id) {
                Some(new) => write!(buf, "{new} 0 R").expect("writing to a Vec"),
                None => buf.extend_from_slice(b"null"),
            },
            Object::Array(items) => {
                buf.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        buf.push(b' ');
                    }
                    self.value(buf, item, depth + 1);
                }
                buf.push(b']');
            }
            Object::Dictionary(d) => {
                let goto = d
                    .get(b"S")
                    .and_then(Object::as_name)
                    .is_ok_and(|s| s == b"GoTo");
                buf.extend_from_slice(b"<<");
                for (key, v) in d.iter() {
                    self.entry(buf, key, v, goto, depth + 1);
                }
                buf.extend_from_slice(b">>");
            }
            Object::Stream(_) => buf.extend_from_slice(b"null"), // streams are indirect; a direct one is malformed
            other => write_object(buf, other),
        }
    }
}

/// An annotation to list in a page's `/Annots`.
enum Simple<'o> {
    Ref(u32),
    Direct(&'o Object),
}
