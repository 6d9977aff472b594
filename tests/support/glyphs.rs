//! Where every glyph of a PDF lands, read with lopdf: a small interpreter for the content-stream operators
//! typst writes (`q`/`Q`/`cm`, `BT`/`ET`, `Tf`, `Tm`/`Td`/`TD`/`T*`/`TL`, `Tc`/`Tw`/`Tz`/`Ts`, `TJ`/`Tj`,
//! form XObjects via `Do`) with glyph advances from each font's `/W` (Type0) or `/Widths` (simple fonts).
//! pdf-extract's positions are not usable here: it reads typst's `/W` ranges as zero widths.
#![allow(dead_code)]

use std::collections::BTreeMap;

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};

/// A glyph's box in PDF user space (origin bottom left, points): `x`,`y` at the baseline origin,
/// `w` the advance, `size` the font size, `upright` when the text is neither rotated nor mirrored.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    pub page: usize,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub size: f64,
    pub upright: bool,
    pub font: String,
    pub code: u32,
    /// The text the glyph stands for, from the font's `/ToUnicode` map (empty when it has none).
    pub text: String,
}

/// Every page's media box size and the glyphs on it, in drawing order.
pub struct Page {
    pub width: f64,
    pub height: f64,
    pub glyphs: Vec<Glyph>,
}

type M = [f64; 6];

fn mul(a: &M, b: &M) -> M {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

const ID: M = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

fn num(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        _ => 0.0,
    }
}

fn matrix(ops: &[Object]) -> M {
    let mut m = ID;
    for (i, o) in ops.iter().take(6).enumerate() {
        m[i] = num(o);
    }
    m
}

fn resolve<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    match o {
        Object::Reference(id) => doc.get_object(*id).unwrap_or(o),
        _ => o,
    }
}

fn dict<'a>(doc: &'a Document, o: &'a Object) -> Option<&'a Dictionary> {
    match resolve(doc, o) {
        Object::Dictionary(d) => Some(d),
        Object::Stream(s) => Some(&s.dict),
        _ => None,
    }
}

/// A font's glyph widths (in 1/1000 em) by code, and whether its codes are two bytes.
struct Font {
    name: String,
    two_byte: bool,
    widths: BTreeMap<u32, f64>,
    default: f64,
    /// Type3 fonts: glyph space to text space (`/FontMatrix` a).
    scale: f64,
    unicode: BTreeMap<u32, String>,
}

fn hex_text(h: &[u8]) -> String {
    let units: Vec<u16> = h
        .chunks(4)
        .filter_map(|c| u16::from_str_radix(std::str::from_utf8(c).ok()?, 16).ok())
        .collect();
    String::from_utf16_lossy(&units)
}

/// The `bfchar` and `bfrange` entries of a ToUnicode CMap.
fn to_unicode(doc: &Document, d: &Dictionary) -> BTreeMap<u32, String> {
    let mut map = BTreeMap::new();
    let Some(Object::Stream(s)) = d.get(b"ToUnicode").ok().map(|o| resolve(doc, o)) else {
        return map;
    };
    let body = s
        .decompressed_content()
        .unwrap_or_else(|_| s.content.clone());
    let text = String::from_utf8_lossy(&body);
    let hexes = |line: &str| -> Vec<String> {
        line.split('<')
            .skip(1)
            .filter_map(|p| p.split('>').next().map(str::to_owned))
            .collect()
    };
    let mut mode = "";
    for line in text.lines() {
        let line = line.trim();
        if line.ends_with("beginbfchar") {
            mode = "char";
        } else if line.ends_with("beginbfrange") {
            mode = "range";
        } else if line.starts_with("end") {
            mode = "";
        } else if mode == "char"
            && let [code, dst, ..] = &hexes(line)[..]
            && let Ok(c) = u32::from_str_radix(code, 16)
        {
            map.insert(c, hex_text(dst.as_bytes()));
        } else if mode == "range"
            && let [lo, hi, dst, ..] = &hexes(line)[..]
            && let (Ok(lo), Ok(hi)) = (u32::from_str_radix(lo, 16), u32::from_str_radix(hi, 16))
            && let Some(first) = hex_text(dst.as_bytes()).chars().next()
        {
            for (k, c) in (lo..=hi).enumerate() {
                if let Some(ch) = char::from_u32(first as u32 + k as u32) {
                    map.insert(c, ch.to_string());
                }
            }
        }
    }
    map
}

fn font(doc: &Document, d: &Dictionary) -> Font {
    let name = d
        .get(b"BaseFont")
        .ok()
        .and_then(|n| n.as_name().ok())
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .unwrap_or_default();
    let subtype = d.get(b"Subtype").ok().and_then(|n| n.as_name().ok());
    let mut widths = BTreeMap::new();
    if subtype == Some(b"Type0".as_slice()) {
        let desc = d
            .get(b"DescendantFonts")
            .ok()
            .and_then(|a| resolve(doc, a).as_array().ok())
            .and_then(|a| a.first())
            .and_then(|f| dict(doc, f));
        let default = desc
            .and_then(|f| f.get(b"DW").ok())
            .map(num)
            .unwrap_or(1000.0);
        if let Some(w) = desc
            .and_then(|f| f.get(b"W").ok())
            .and_then(|w| resolve(doc, w).as_array().ok())
        {
            let mut i = 0;
            while i < w.len() {
                let first = num(&w[i]) as u32;
                match resolve(doc, w.get(i + 1).unwrap_or(&Object::Null)) {
                    Object::Array(list) => {
                        for (k, x) in list.iter().enumerate() {
                            widths.insert(first + k as u32, num(x));
                        }
                        i += 2;
                    }
                    last => {
                        let last = num(last) as u32;
                        let width = num(w.get(i + 2).unwrap_or(&Object::Null));
                        for c in first..=last {
                            widths.insert(c, width);
                        }
                        i += 3;
                    }
                }
            }
        }
        return Font {
            name,
            two_byte: true,
            widths,
            default,
            scale: 0.001,
            unicode: to_unicode(doc, d),
        };
    }
    let first = d.get(b"FirstChar").map(num).unwrap_or(0.0) as u32;
    if let Some(w) = d
        .get(b"Widths")
        .ok()
        .and_then(|w| resolve(doc, w).as_array().ok())
    {
        for (k, x) in w.iter().enumerate() {
            widths.insert(first + k as u32, num(x));
        }
    }
    let scale = d
        .get(b"FontMatrix")
        .ok()
        .and_then(|m| resolve(doc, m).as_array().ok())
        .and_then(|m| m.first())
        .map(num)
        .unwrap_or(0.001);
    Font {
        name,
        two_byte: false,
        widths,
        default: 0.0,
        scale,
        unicode: to_unicode(doc, d),
    }
}

struct Text {
    tm: M,
    tlm: M,
    font: Option<(Vec<u8>, f64)>,
    tc: f64,
    tw: f64,
    th: f64,
    tl: f64,
    rise: f64,
}

#[expect(
    clippy::too_many_arguments,
    reason = "one content stream's walk: the page's state, passed down into its forms"
)]
fn run(
    doc: &Document,
    resources: Option<&Dictionary>,
    content: &[u8],
    ctm0: M,
    page: usize,
    fonts: &mut BTreeMap<(ObjectId, Vec<u8>), Font>,
    out: &mut Vec<Glyph>,
    depth: usize,
) {
    let Ok(content) = Content::decode(content) else {
        return;
    };
    let font_dict = |name: &[u8]| -> Option<(ObjectId, &Dictionary)> {
        let fonts = resources?.get(b"Font").ok()?;
        let r = dict(doc, fonts)?.get(name).ok()?;
        let id = r.as_reference().unwrap_or((0, 0));
        Some((id, dict(doc, r)?))
    };
    let mut stack = vec![ctm0];
    let mut ctm = ctm0;
    let mut t = Text {
        tm: ID,
        tlm: ID,
        font: None,
        tc: 0.0,
        tw: 0.0,
        th: 1.0,
        tl: 0.0,
        rise: 0.0,
    };
    // Marked content open around the glyphs: a span's /ActualText (tagged PDFs: an emoji flag drawn as two
    // glyphs, a ligature) is the text of its first glyph, the others stand for nothing, as readers do.
    // A soft hyphen's stays the printed hyphen: the tests read printed lines.
    let mut marked: Vec<Option<(String, bool)>> = Vec::new();
    for op in &content.operations {
        let a = &op.operands;
        match op.operator.as_str() {
            "BMC" => marked.push(None),
            "BDC" => marked.push(
                a.get(1)
                    .and_then(|d| d.as_dict().ok())
                    .and_then(|d| d.get(b"ActualText").ok())
                    .and_then(|t| t.as_str().ok())
                    .map(actual_text)
                    .filter(|t| t != "\u{AD}")
                    .map(|t| (t, false)),
            ),
            "EMC" => {
                marked.pop();
            }
            "q" => stack.push(ctm),
            "Q" => ctm = stack.pop().unwrap_or(ctm0),
            "cm" => ctm = mul(&matrix(a), &ctm),
            "BT" => {
                t.tm = ID;
                t.tlm = ID;
            }
            "Tf" => {
                if let (Some(Object::Name(n)), Some(s)) = (a.first(), a.get(1)) {
                    t.font = Some((n.clone(), num(s)));
                }
            }
            "Tc" => t.tc = a.first().map(num).unwrap_or(0.0),
            "Tw" => t.tw = a.first().map(num).unwrap_or(0.0),
            "Tz" => t.th = a.first().map(num).unwrap_or(100.0) / 100.0,
            "TL" => t.tl = a.first().map(num).unwrap_or(0.0),
            "Ts" => t.rise = a.first().map(num).unwrap_or(0.0),
            "Tm" => {
                t.tm = matrix(a);
                t.tlm = t.tm;
            }
            "Td" | "TD" => {
                let (x, y) = (
                    a.first().map(num).unwrap_or(0.0),
                    a.get(1).map(num).unwrap_or(0.0),
                );
                if op.operator == "TD" {
                    t.tl = -y;
                }
                t.tlm = mul(&[1.0, 0.0, 0.0, 1.0, x, y], &t.tlm);
                t.tm = t.tlm;
            }
            "T*" => {
                t.tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -t.tl], &t.tlm);
                t.tm = t.tlm;
            }
            "Tj" | "TJ" | "'" | "\"" => {
                if op.operator == "'" || op.operator == "\"" {
                    t.tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -t.tl], &t.tlm);
                    t.tm = t.tlm;
                }
                let Some((fname, size)) = t.font.clone() else {
                    continue;
                };
                let Some((fid, fd)) = font_dict(&fname) else {
                    continue;
                };
                let f = fonts
                    .entry((fid, fname.clone()))
                    .or_insert_with(|| font(doc, fd));
                let items: Vec<&Object> = match op.operator.as_str() {
                    "TJ" => a
                        .first()
                        .and_then(|x| x.as_array().ok())
                        .map(|v| v.iter().collect())
                        .unwrap_or_default(),
                    _ => a.last().into_iter().collect(),
                };
                for item in items {
                    match item {
                        Object::String(bytes, _) => {
                            let codes: Vec<u32> = if f.two_byte {
                                bytes
                                    .chunks(2)
                                    .map(|c| {
                                        (u32::from(c[0]) << 8) | u32::from(*c.get(1).unwrap_or(&0))
                                    })
                                    .collect()
                            } else {
                                bytes.iter().map(|b| u32::from(*b)).collect()
                            };
                            for code in codes {
                                let w0 =
                                    f.widths.get(&code).copied().unwrap_or(f.default) * f.scale;
                                let trm = mul(
                                    &mul(&[size * t.th, 0.0, 0.0, size, 0.0, t.rise], &t.tm),
                                    &ctm,
                                );
                                let scale_x = (trm[0] * trm[0] + trm[1] * trm[1]).sqrt();
                                let scale_y = (trm[2] * trm[2] + trm[3] * trm[3]).sqrt();
                                out.push(Glyph {
                                    page,
                                    x: trm[4],
                                    y: trm[5],
                                    w: w0 * scale_x,
                                    size: scale_y,
                                    upright: trm[1].abs() < 1e-6
                                        && trm[2].abs() < 1e-6
                                        && trm[0] > 0.0
                                        && trm[3] > 0.0,
                                    font: f.name.clone(),
                                    code,
                                    text: match marked.iter_mut().rev().find_map(|m| m.as_mut()) {
                                        Some((_, true)) => String::new(),
                                        Some((actual, used)) => {
                                            *used = true;
                                            actual.clone()
                                        }
                                        None => f.unicode.get(&code).cloned().unwrap_or_default(),
                                    },
                                });
                                let space = if !f.two_byte && code == 32 { t.tw } else { 0.0 };
                                let tx = (w0 * size + t.tc + space) * t.th;
                                t.tm = mul(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], &t.tm);
                            }
                        }
                        other => {
                            let tx = -num(other) / 1000.0 * size * t.th;
                            t.tm = mul(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], &t.tm);
                        }
                    }
                }
            }
            "Do" if depth < 8 => {
                let Some(Object::Name(n)) = a.first() else {
                    continue;
                };
                let Some(xo) = resources
                    .and_then(|r| r.get(b"XObject").ok())
                    .and_then(|x| dict(doc, x))
                    .and_then(|x| x.get(n).ok())
                    .map(|x| resolve(doc, x))
                else {
                    continue;
                };
                if let Object::Stream(s) = xo
                    && s.dict.get(b"Subtype").ok().and_then(|n| n.as_name().ok())
                        == Some(b"Form".as_slice())
                {
                    let m = s
                        .dict
                        .get(b"Matrix")
                        .ok()
                        .and_then(|m| resolve(doc, m).as_array().ok());
                    let m = m.map(|m| matrix(m)).unwrap_or(ID);
                    let res = s
                        .dict
                        .get(b"Resources")
                        .ok()
                        .and_then(|r| dict(doc, r))
                        .or(resources);
                    let body = s
                        .decompressed_content()
                        .unwrap_or_else(|_| s.content.clone());
                    run(doc, res, &body, mul(&m, &ctm), page, fonts, out, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// Every page of `pdf` with the boxes of its glyphs.
pub fn pages(pdf: &[u8]) -> Vec<Page> {
    let doc = Document::load_mem(pdf).expect("a PDF lopdf can read");
    let mut fonts = BTreeMap::new();
    let mut out = Vec::new();
    for (i, (_, id)) in doc.get_pages().into_iter().enumerate() {
        let page = doc.get_dictionary(id).unwrap();
        let media = page
            .get(b"MediaBox")
            .ok()
            .and_then(|m| resolve(&doc, m).as_array().ok())
            .map(|m| m.iter().map(num).collect::<Vec<_>>())
            .unwrap_or_else(|| vec![0.0, 0.0, 595.0, 842.0]);
        let resources = page.get(b"Resources").ok().and_then(|r| dict(&doc, r));
        let content = doc.get_page_content(id).unwrap_or_default();
        let mut glyphs = Vec::new();
        run(&doc, resources, &content, ID, i, &mut fonts, &mut glyphs, 0);
        out.push(Page {
            width: media[2] - media[0],
            height: media[3] - media[1],
            glyphs,
        });
    }
    out
}

/// A PDF text string: UTF-16BE after its byte order mark, else (near enough) Latin-1; without the
/// zero-width joiners and spaces a break opportunity adds (they print nothing).
fn actual_text(bytes: &[u8]) -> String {
    let text: String = match bytes {
        [0xFE, 0xFF, rest @ ..] => String::from_utf16_lossy(
            &rest
                .chunks(2)
                .map(|c| (u16::from(c[0]) << 8) | u16::from(*c.get(1).unwrap_or(&0)))
                .collect::<Vec<u16>>(),
        ),
        _ => bytes.iter().map(|&b| char::from(b)).collect(),
    };
    text.replace(['\u{2060}', '\u{200B}'], "")
}
