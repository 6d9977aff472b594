//! Serialization: lopdf objects and already-serialized object bodies in, PDF bytes out, with the byte
//! offsets for the xref table, the trailer and the `/ID` hashed from everything written.

use std::io::{BufWriter, Write};

use lopdf::{Dictionary, Object, StringFormat};
use sha2::{Digest, Sha256};

use super::MergeError;

/// A text string: ASCII as a literal (ASCII is also PDFDocEncoding), anything else as UTF-16BE with a BOM.
/// (Non-ASCII PDFDocEncoding is avoided: some readers, lopdf's `get_toc` among them, read BOM-less titles as
/// UTF-8.)
pub(super) fn text_string(s: &str) -> Object {
    if s.is_ascii() {
        return Object::String(s.as_bytes().to_vec(), StringFormat::Literal);
    }
    let mut bytes = Vec::with_capacity(2 + 2 * s.len());
    bytes.extend_from_slice(&[0xFE, 0xFF]);
    for unit in s.encode_utf16() {
        bytes.extend_from_slice(&unit.to_be_bytes());
    }
    Object::String(bytes, StringFormat::Hexadecimal)
}

/// Whether a value written right after a name needs a space before it.
pub(super) fn needs_space(v: &Object) -> bool {
    matches!(
        v,
        Object::Null
            | Object::Boolean(_)
            | Object::Integer(_)
            | Object::Real(_)
            | Object::Reference(_)
    )
}

/// Write a direct object as it is (references unchanged).
pub(super) fn write_object(buf: &mut Vec<u8>, obj: &Object) {
    match obj {
        Object::Null => buf.extend_from_slice(b"null"),
        Object::Boolean(b) => buf.extend_from_slice(if *b { b"true" } else { b"false" }),
        Object::Integer(i) => write!(buf, "{i}").expect("writing to a Vec"),
        // `Display` for floats never uses exponents; PDF has no NaN or infinity.
        Object::Real(r) if r.is_finite() => write!(buf, "{r}").expect("writing to a Vec"),
        Object::Real(_) => buf.push(b'0'),
        Object::Name(name) => write_name(buf, name),
        Object::String(s, StringFormat::Literal) => {
            buf.push(b'(');
            for &b in s {
                match b {
                    b'(' | b')' | b'\\' => buf.extend_from_slice(&[b'\\', b]),
                    b'\r' => buf.extend_from_slice(b"\\r"),
                    _ => buf.push(b),
                }
            }
            buf.push(b')');
        }
        Object::String(s, StringFormat::Hexadecimal) => {
            buf.push(b'<');
            for &b in s {
                write!(buf, "{b:02X}").expect("writing to a Vec");
            }
            buf.push(b'>');
        }
        Object::Array(items) => {
            buf.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    buf.push(b' ');
                }
                write_object(buf, item);
            }
            buf.push(b']');
        }
        Object::Dictionary(d) => {
            buf.extend_from_slice(b"<<");
            for (key, v) in d.iter() {
                write_name(buf, key);
                if needs_space(v) {
                    buf.push(b' ');
                }
                write_object(buf, v);
            }
            buf.extend_from_slice(b">>");
        }
        Object::Stream(_) => buf.extend_from_slice(b"null"),
        Object::Reference((id, generation)) => {
            write!(buf, "{id} {generation} R").expect("writing to a Vec")
        }
    }
}

pub(super) fn write_name(buf: &mut Vec<u8>, name: &[u8]) {
    buf.push(b'/');
    for &b in name {
        if b"()<>[]{}/%#".contains(&b) || !(0x21..=0x7E).contains(&b) {
            write!(buf, "#{b:02X}").expect("writing to a Vec");
        } else {
            buf.push(b);
        }
    }
}

/// The output: counts bytes for the xref, hashes them for the `/ID`, and records each object's offset.
pub(super) struct Sink<'w> {
    out: BufWriter<&'w mut dyn Write>,
    pos: u64,
    hash: Sha256,
    xref: Xref,
    /// Reused buffer for serializing one object.
    buf: Vec<u8>,
}

impl<'w> Sink<'w> {
    pub(super) fn new(out: &'w mut dyn Write) -> Self {
        Self {
            out: BufWriter::with_capacity(64 * 1024, out),
            pos: 0,
            hash: Sha256::new(),
            xref: Xref::default(),
            buf: Vec::with_capacity(16 * 1024),
        }
    }

    pub(super) fn raw(&mut self, bytes: &[u8]) -> Result<(), MergeError> {
        self.out.write_all(bytes).map_err(MergeError::Write)?;
        self.hash.update(bytes);
        self.pos += bytes.len() as u64;
        Ok(())
    }

    /// Write the indirect object `id`, whose body `body` serializes.
    pub(super) fn object(
        &mut self,
        id: u32,
        body: impl FnOnce(&mut Vec<u8>),
    ) -> Result<(), MergeError> {
        self.stream_parts(id, body, None)
    }

    /// Write the stream object `id`: its dictionary (which `dict` serializes, `/Length` included) and `content`.
    pub(super) fn stream(
        &mut self,
        id: u32,
        dict: impl FnOnce(&mut Vec<u8>),
        content: &[u8],
    ) -> Result<(), MergeError> {
        self.stream_parts(id, dict, Some(content))
    }

    pub(super) fn dict(&mut self, id: u32, dict: Dictionary) -> Result<(), MergeError> {
        self.object(id, |buf| write_object(buf, &Object::Dictionary(dict)))
    }

    fn stream_parts(
        &mut self,
        id: u32,
        body: impl FnOnce(&mut Vec<u8>),
        content: Option<&[u8]>,
    ) -> Result<(), MergeError> {
        if self.pos > 9_999_999_999 {
            return Err(MergeError::TooLarge(
                "over 10 GB, more than a classic xref table can address",
            ));
        }
        self.xref.record(id, self.pos);
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        writeln!(buf, "{id} 0 obj").expect("writing to a Vec");
        body(&mut buf);
        let result = match content {
            None => {
                buf.extend_from_slice(b"\nendobj\n");
                self.raw(&buf)
            }
            Some(content) => {
                buf.extend_from_slice(b"\nstream\n");
                self.raw(&buf)
                    .and_then(|()| self.raw(content))
                    .and_then(|()| self.raw(b"\nendstream\nendobj\n"))
            }
        };
        self.buf = buf;
        result
    }

    /// Write the xref table, the trailer (with an `/ID` hashed from everything before it) and flush.
    pub(super) fn finish(mut self, size: u32, catalog: u32, info: u32) -> Result<(), MergeError> {
        let start = self.pos;
        let mut table = Vec::with_capacity(64 * 1024);
        write!(table, "xref\n0 {size}\n0000000000 65535 f\r\n").expect("writing to a Vec");
        let mut offsets = std::mem::take(&mut self.xref).into_offsets();
        for _ in 1..size {
            // Every id handed out is written; a gap would be a bug, written as a free entry.
            match offsets.next().flatten() {
                Some(offset) => write!(table, "{offset:010} 00000 n\r\n"),
                None => write!(table, "0000000000 00000 f\r\n"),
            }
            .expect("writing to a Vec");
            if table.len() >= 64 * 1024 - 20 {
                self.raw(&table)?;
                table.clear();
            }
        }
        self.raw(&table)?;
        let digest = self.hash.clone().finalize();
        let id = Object::String(digest[..16].to_vec(), StringFormat::Hexadecimal);
        let mut trailer = Dictionary::new();
        trailer.set("Size", size as i64);
        trailer.set("Root", Object::Reference((catalog, 0)));
        trailer.set("Info", Object::Reference((info, 0)));
        trailer.set("ID", vec![id.clone(), id]);
        let mut tail = b"trailer\n".to_vec();
        write_object(&mut tail, &Object::Dictionary(trailer));
        write!(tail, "\nstartxref\n{start}\n%%EOF\n").expect("writing to a Vec");
        self.raw(&tail)?;
        self.out.flush().map_err(MergeError::Write)
    }
}

/// Object offsets, compactly: objects are mostly written in id order, so each offset is stored as a LEB128
/// delta from the previous in-order one (2–3 bytes per object instead of 8). Objects written after a higher id
/// (page tree leaves and root) are kept aside in `late`.
#[derive(Default)]
struct Xref {
    /// One LEB128 value per id from 1 up to `recorded`: 0 for an id written late (or not yet), else the offset
    /// minus the previous in-order offset, plus 1.
    deltas: Vec<u8>,
    recorded: u32,
    last: u64,
    late: Vec<(u32, u64)>,
}

impl Xref {
    fn record(&mut self, id: u32, offset: u64) {
        if id <= self.recorded {
            self.late.push((id, offset));
            return;
        }
        for _ in self.recorded + 1..id {
            self.deltas.push(0);
        }
        let mut v = offset - self.last + 1;
        loop {
            let byte = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                self.deltas.push(byte);
                break;
            }
            self.deltas.push(byte | 0x80);
        }
        self.recorded = id;
        self.last = offset;
    }

    /// Offsets in id order from id 1 (`None` for an id never written), decoded as they are read.
    fn into_offsets(mut self) -> impl Iterator<Item = Option<u64>> {
        self.late.sort_unstable();
        let mut late = self.late.into_iter().peekable();
        let mut bytes = self.deltas.into_iter();
        let (mut id, mut last) = (0u32, 0u64);
        std::iter::from_fn(move || {
            id += 1;
            let (mut v, mut shift) = (0u64, 0);
            let in_order = loop {
                let byte = bytes.next()?;
                v |= u64::from(byte & 0x7F) << shift;
                shift += 7;
                if byte & 0x80 == 0 {
                    break v;
                }
            };
            let late = late.next_if(|&(l, _)| l == id).map(|(_, offset)| offset);
            Some(match in_order {
                0 => late,
                v => {
                    last += v - 1;
                    Some(last)
                }
            })
        })
        .chain(std::iter::repeat(None))
    }
}
