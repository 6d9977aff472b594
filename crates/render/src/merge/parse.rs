//! A lean reader of one indirect object at a known offset, for the PDFs blockprint merges (typst's: plain
//! objects, a classic xref table). It follows lopdf's own grammar (lopdf 0.42, `parser::indirect_object`:
//! the same tokens, escapes, numbers and stream rule, `Stream::new`'s `/Length`), so what it returns is
//! the object lopdf's reader returns; it only does without nom's combinators, about ten times faster on
//! the structure trees that make up most of a tagged PDF's objects (perf: lopdf's parse was most of a
//! 100-packet case batch's merge). Anything it is not sure of — a token it does not know, a number that
//! overflows, nesting past [`DEPTH`], a stream without a usable `/Length`, the wrong object number —
//! gives `None`, and the caller asks lopdf's reader instead, so odd files read exactly as before.

use lopdf::xref::{Xref, XrefEntry};
use lopdf::{Dictionary, Object, ObjectId, Stream, StringFormat};

/// Nesting of arrays, dictionaries and literal strings' parentheses beyond which lopdf decides.
const DEPTH: usize = 64;

/// The object `id` of `bytes`, whose xref is `xref`, or `None` when lopdf's reader should read it.
pub(super) fn object(bytes: &[u8], xref: &Xref, id: ObjectId) -> Option<Object> {
    indirect(bytes, xref, id, true)
}

fn offset(xref: &Xref, id: ObjectId) -> Option<usize> {
    match xref.get(id.0)? {
        XrefEntry::Normal { offset, generation } if *generation == id.1 => Some(*offset as usize),
        _ => None,
    }
}

/// `id gen obj <object> [endobj]` at the xref's offset of `id`; a stream's `/Length` may be an indirect
/// integer (read the same way, one level deep), when `streams` allows one.
fn indirect(bytes: &[u8], xref: &Xref, id: ObjectId, streams: bool) -> Option<Object> {
    let mut p = Parser {
        b: bytes,
        i: offset(xref, id)?,
    };
    if p.i > bytes.len() {
        return None;
    }
    p.space();
    let number: u32 = p.unsigned()?;
    p.space();
    let generation: u16 = p.unsigned()?;
    p.space();
    if (number, generation) != id || !p.eat(b"obj") {
        return None;
    }
    p.space();
    let object = p.direct(DEPTH)?;
    let Object::Dictionary(dict) = object else {
        return Some(object);
    };
    // A stream: the dictionary, `stream`, spaces or tabs, one end of line, `/Length` bytes, an optional end
    // of line and `endstream`.
    p.space();
    if !p.eat(b"stream") {
        return Some(Object::Dictionary(dict));
    }
    if !streams {
        return None;
    }
    while matches!(p.peek(), Some(b' ' | b'\t')) {
        p.i += 1;
    }
    if !p.eol() {
        return None;
    }
    let length = match dict.get(b"Length").ok()? {
        Object::Integer(n) => *n,
        Object::Reference(r) => match indirect(bytes, xref, *r, false)? {
            Object::Integer(n) => n,
            _ => return None,
        },
        _ => return None,
    };
    let length = usize::try_from(length).ok()?;
    let data = bytes.get(p.i..p.i.checked_add(length)?)?;
    p.i += length;
    p.eol();
    if !p.eat(b"endstream") {
        return None;
    }
    Some(Object::Stream(Stream::new(dict, data.to_vec())))
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

fn is_white(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\0' | b'\x0C')
}

fn is_delimiter(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, tag: &[u8]) -> bool {
        let found = self.b.get(self.i..).is_some_and(|r| r.starts_with(tag));
        if found {
            self.i += tag.len();
        }
        found
    }

    /// One end of line: `\r\n`, `\n` or `\r`.
    fn eol(&mut self) -> bool {
        self.eat(b"\r\n") || self.eat(b"\n") || self.eat(b"\r")
    }

    /// White space and comments (a comment runs to an end of line, which it must have).
    fn space(&mut self) {
        loop {
            match self.peek() {
                Some(c) if is_white(c) => self.i += 1,
                Some(b'%') => {
                    let start = self.i;
                    while self.peek().is_some_and(|c| c != b'\r' && c != b'\n') {
                        self.i += 1;
                    }
                    if !self.eol() {
                        self.i = start;
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    fn digits(&mut self) -> &[u8] {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        &self.b[start..self.i]
    }

    fn unsigned<T: std::str::FromStr>(&mut self) -> Option<T> {
        let d = self.digits();
        if d.is_empty() {
            return None;
        }
        std::str::from_utf8(d).ok()?.parse().ok()
    }

    /// A direct object and the space after it.
    fn direct(&mut self, depth: usize) -> Option<Object> {
        let depth = depth.checked_sub(1)?;
        let o = self.value(depth)?;
        self.space();
        Some(o)
    }

    /// lopdf's order: null, booleans, a reference, a real, an integer, a name, a literal string, a hex
    /// string, an array, a dictionary.
    fn value(&mut self, depth: usize) -> Option<Object> {
        match self.peek()? {
            b'n' if self.eat(b"null") => Some(Object::Null),
            b't' if self.eat(b"true") => Some(Object::Boolean(true)),
            b'f' if self.eat(b"false") => Some(Object::Boolean(false)),
            b'0'..=b'9' | b'+' | b'-' | b'.' => self.number(),
            b'/' => self.name().map(Object::Name),
            b'(' => self.literal(),
            b'<' if self.b.get(self.i + 1) == Some(&b'<') => {
                self.dictionary(depth).map(Object::Dictionary)
            }
            b'<' => self.hex_string(),
            b'[' => self.array(depth),
            _ => None,
        }
    }

    /// `n g R`, else a real (`1.5`, `1.`, `.5`, signed), else an integer.
    fn number(&mut self) -> Option<Object> {
        let start = self.i;
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let number: Option<u32> = self.unsigned();
            self.space();
            let generation: Option<u16> = self.unsigned();
            self.space();
            if let (Some(n), Some(g), true) = (number, generation, self.eat(b"R")) {
                return Some(Object::Reference((n, g)));
            }
            self.i = start;
        }
        if matches!(self.peek(), Some(b'+' | b'-')) {
            self.i += 1;
        }
        let whole = !self.digits().is_empty();
        let real = if self.peek() == Some(b'.') {
            self.i += 1;
            let fraction = !self.digits().is_empty();
            if !whole && !fraction {
                return None;
            }
            true
        } else if whole {
            false
        } else {
            return None;
        };
        let text = std::str::from_utf8(&self.b[start..self.i]).ok()?;
        if real {
            text.parse::<f32>().ok().map(Object::Real)
        } else {
            text.parse::<i64>().ok().map(Object::Integer)
        }
    }

    /// `/Name`, with `#xx` escapes.
    fn name(&mut self) -> Option<Vec<u8>> {
        self.i += 1;
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            if c == b'#' {
                let hi = hex(*self.b.get(self.i + 1)?)?;
                let lo = hex(*self.b.get(self.i + 2)?)?;
                out.push(hi << 4 | lo);
                self.i += 3;
            } else if !is_white(c) && !is_delimiter(c) {
                out.push(c);
                self.i += 1;
            } else {
                break;
            }
        }
        Some(out)
    }

    /// `( … )`: balanced parentheses kept, escapes decoded, an escaped end of line dropped, other ends of
    /// line kept as they are.
    fn literal(&mut self) -> Option<Object> {
        self.i += 1;
        let mut out = Vec::new();
        let mut open = 0usize;
        loop {
            let c = self.peek()?;
            self.i += 1;
            match c {
                b'\\' => {
                    let e = self.peek()?;
                    match e {
                        b'0'..=b'7' => {
                            let mut v: u16 = 0;
                            let mut n = 0;
                            while n < 3 && matches!(self.peek(), Some(b'0'..=b'7')) {
                                v = v * 8 + u16::from(self.b[self.i] - b'0');
                                self.i += 1;
                                n += 1;
                            }
                            out.push(v as u8);
                        }
                        b'\r' | b'\n' => {
                            self.eol();
                        }
                        _ => {
                            self.i += 1;
                            out.push(match e {
                                b'n' => b'\n',
                                b'r' => b'\r',
                                b't' => b'\t',
                                b'b' => b'\x08',
                                b'f' => b'\x0C',
                                other => other,
                            });
                        }
                    }
                }
                b'(' => {
                    open += 1;
                    if open > DEPTH {
                        return None;
                    }
                    out.push(c);
                }
                b')' if open == 0 => break,
                b')' => {
                    open -= 1;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        Some(Object::String(out, StringFormat::Literal))
    }

    /// `< … >`: hex digits, white space between them ignored, an odd last digit as the high half.
    fn hex_string(&mut self) -> Option<Object> {
        self.i += 1;
        let mut out = Vec::new();
        let mut high = true;
        loop {
            while self.peek().is_some_and(is_white) {
                self.i += 1;
            }
            let Some(d) = self.peek().and_then(hex) else {
                break;
            };
            self.i += 1;
            if high {
                out.push(d << 4);
            } else if let Some(last) = out.last_mut() {
                *last |= d;
            }
            high = !high;
        }
        self.eat(b">")
            .then_some(Object::String(out, StringFormat::Hexadecimal))
    }

    fn array(&mut self, depth: usize) -> Option<Object> {
        self.i += 1;
        self.space();
        let mut items = Vec::new();
        while self.peek()? != b']' {
            items.push(self.direct(depth)?);
        }
        self.i += 1;
        Some(Object::Array(items))
    }

    fn dictionary(&mut self, depth: usize) -> Option<Dictionary> {
        self.i += 2;
        self.space();
        let mut dict = Dictionary::new();
        while self.peek()? == b'/' {
            let key = self.name()?;
            self.space();
            let value = self.direct(depth)?;
            dict.set(key, value);
        }
        self.eat(b">>").then_some(dict)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every object of `bytes` read both ways: the same object, or this reader defers to lopdf.
    fn same_as_lopdf(bytes: &[u8]) -> usize {
        let doc = lopdf::Document::load_mem(bytes).expect("a PDF lopdf reads");
        let reader = lopdf::Reader {
            buffer: bytes,
            document: doc.clone(),
            encryption_state: None,
            raw_objects: Default::default(),
            password: None,
            strict: false,
        };
        let mut fast = 0;
        for &id in doc.objects.keys() {
            let theirs = reader.get_object(id, &mut Default::default());
            if let Some(ours) = object(bytes, &doc.reference_table, id) {
                assert_eq!(Some(&ours), theirs.as_ref().ok(), "object {id:?}");
                fast += 1;
            }
        }
        fast
    }

    fn file(objects: &[&str]) -> Vec<u8> {
        let mut out = b"%PDF-1.7\n".to_vec();
        let mut offsets = Vec::new();
        for (k, o) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", k + 1).as_bytes());
        }
        let xref = out.len();
        out.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
        );
        for o in offsets {
            out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
        }
        out.extend_from_slice(
            format!(
                "trailer\n<</Size {}/Root 1 0 R>>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .as_bytes(),
        );
        out
    }

    #[test]
    fn reads_what_lopdf_reads() {
        let bytes = file(&[
            "<</Type/Catalog/Pages 2 0 R/Lang(en-GB)>>",
            "<</Type/Pages/Kids[3 0 R]/Count 1>>",
            "<</Type/Page/Parent 2 0 R/MediaBox[0 0 595.2756 841.8898]/Contents 4 0 R/Rotate -90/X +.5/Y -3./Z 1.25>>",
            "<</Length 5 0 R/Filter/FlateDecode>>\nstream\nabc)def\nendstream",
            "7",
            "[null true false(a\\(b\\)c\\\\ (nested) \\n\\r\\t\\b\\f\\101\\0053\\\nx)<48 65 6C6c 6>/A#20B/Empty#23 <<>>[]]",
            "<< /S /Span % a comment\n /K [ 1 2 0 R ] /Alt <FEFF00e9> >>",
            "<</Length 4>>stream\r\n\x00\x01\x02\x03\r\nendstream",
        ]);
        assert_eq!(same_as_lopdf(&bytes), 8);
    }

    #[test]
    fn defers_to_lopdf_where_unsure() {
        let bytes = file(&[
            "<</Type/Catalog>>",
            "<</Length 3 0 R>>\nstream\nab\nendstream",
            "(not a length)",
            "99999999999999999999",
            "[1 0 R (unclosed",
            "/Bad#zz",
            "<</NoLength true>>\nstream\nab\nendstream",
        ]);
        let xref = lopdf::Document::load_mem(&bytes).unwrap().reference_table;
        for id in [2, 4, 5, 6, 7] {
            assert_eq!(object(&bytes, &xref, (id, 0)), None, "object {id}");
        }
        // An object number that is not the xref's, or a generation that is not.
        assert_eq!(object(&bytes, &xref, (1, 1)), None);
        same_as_lopdf(&bytes);
    }

    #[test]
    fn reads_typst_output_as_lopdf_does() {
        // Every object of real typst 0.15 output (tagged, CID fonts, named destinations) the fast way.
        for bytes in [
            &include_bytes!("../../../../tests/fixtures/pdf/typst-gm-2pages.pdf")[..],
            &include_bytes!("../../../../tests/fixtures/pdf/typst-handout-1page.pdf")[..],
        ] {
            let all = lopdf::Document::load_mem(bytes).unwrap().objects.len();
            assert_eq!(same_as_lopdf(bytes), all);
        }
    }
}
