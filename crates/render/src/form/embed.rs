//! The fonts of text fields' appearance streams: each face a value uses, embedded once per PDF as a Type0
//! font (CIDFontType2, Identity-H) subset with `subsetter` to the glyphs the appearances draw, with `/W`
//! widths, a `/CIDToGIDMap` and a ToUnicode CMap so text extraction and copy-paste give the value back.
//!
//! A CID stands for one (glyph, text) pair, numbered in the order the appearances first use them, so a
//! glyph that stands for different text in two places (rare: a glyph shared by two characters) gets two
//! CIDs and every CID has exactly one Unicode meaning.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use super::layout::{Face, Layout};

/// The (glyph, text) pairs used so far, per face.
pub(crate) struct FontSet {
    used: Vec<Used>,
}

#[derive(Default)]
struct Used {
    /// CID − 1 → (glyph id, text).
    cids: Vec<(u16, String)>,
    index: HashMap<(u16, String), u16>,
}

/// A glyph's advance in thousandths of an em, as the `/W` array gives it.
pub(crate) fn width(face: &Face, gid: u16) -> i64 {
    face.glyph_hor_advance(ttf_parser::GlyphId(gid))
        .map_or(0, |a| (f64::from(a) * 1000.0 / face.upem).round() as i64)
}

impl FontSet {
    pub(crate) fn new(faces: usize) -> Self {
        FontSet {
            used: (0..faces).map(|_| Used::default()).collect(),
        }
    }

    /// The CID of glyph `gid` standing for `text` in face `face`.
    pub(crate) fn cid(&mut self, face: usize, gid: u16, text: &str) -> Result<u16, String> {
        let used = &mut self.used[face];
        if let Some(&c) = used.index.get(&(gid, text.to_owned())) {
            return Ok(c);
        }
        let c = u16::try_from(used.cids.len() + 1)
            .ok()
            .filter(|&c| c < u16::MAX)
            .ok_or("the form's values use more than 65 534 glyphs of one font")?;
        used.cids.push((gid, text.to_owned()));
        used.index.insert((gid, text.to_owned()), c);
        Ok(c)
    }

    /// Embed every face that some appearance uses; the font object of each face (`None`: unused).
    pub(crate) fn embed(
        &self,
        doc: &mut Document,
        faces: &[Face],
    ) -> Result<Vec<Option<ObjectId>>, String> {
        let mut out = Vec::with_capacity(faces.len());
        for (face, used) in faces.iter().zip(&self.used) {
            out.push(if used.cids.is_empty() {
                None
            } else {
                Some(embed_face(doc, face, used)?)
            });
        }
        Ok(out)
    }
}

/// A six-letter subset tag that depends only on the face and the glyphs used (so equal input gives equal
/// bytes).
fn tag(face: &Face, used: &Used) -> String {
    // FNV-1a over the name and the (glyph, text) pairs.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(face.ps_name.as_bytes());
    for (gid, text) in &used.cids {
        eat(&gid.to_be_bytes());
        eat(text.as_bytes());
        eat(&[0]);
    }
    (0..6)
        .map(|i| char::from(b'A' + ((h >> (i * 8)) % 26) as u8))
        .collect()
}

fn compressed(dict: Dictionary, content: Vec<u8>) -> Result<Stream, String> {
    let mut s = Stream::new(dict, content);
    s.compress()
        .map_err(|e| format!("cannot compress a font stream: {e}"))?;
    Ok(s)
}

fn embed_face(doc: &mut Document, face: &Face, used: &Used) -> Result<ObjectId, String> {
    let mut remapper = subsetter::GlyphRemapper::new();
    let new_gids: Vec<u16> = used
        .cids
        .iter()
        .map(|(gid, _)| remapper.remap(*gid))
        .collect();
    let program = subsetter::subset(face.data, 0, &remapper)
        .map_err(|e| format!("cannot subset the font {}: {e}", face.ps_name))?;
    let name = format!("{}+{}", tag(face, used), face.ps_name);
    let scale = |v: i16| Object::Integer((f64::from(v) * 1000.0 / face.upem).round() as i64);

    let mut file = Dictionary::new();
    file.set("Length1", Object::Integer(program.len() as i64));
    let file_id = doc.add_object(compressed(file, program)?);

    let bb = face.global_bounding_box();
    let mut fd = Dictionary::new();
    fd.set("Type", Object::Name(b"FontDescriptor".to_vec()));
    fd.set("FontName", Object::Name(name.clone().into_bytes()));
    // Symbolic: the glyphs are reached through CIDs, not a standard encoding.
    fd.set("Flags", Object::Integer(4));
    fd.set(
        "FontBBox",
        Object::Array(vec![
            scale(bb.x_min),
            scale(bb.y_min),
            scale(bb.x_max),
            scale(bb.y_max),
        ]),
    );
    fd.set("ItalicAngle", Object::Integer(0));
    fd.set("Ascent", scale(face.ascender()));
    fd.set("Descent", scale(face.descender()));
    fd.set(
        "CapHeight",
        scale(face.capital_height().unwrap_or(face.ascender())),
    );
    fd.set("StemV", Object::Integer(80));
    fd.set("FontFile2", Object::Reference(file_id));
    let fd_id = doc.add_object(Object::Dictionary(fd));

    // CID → new glyph id, two bytes each; CID 0 is .notdef.
    let mut map = vec![0u8, 0u8];
    for g in &new_gids {
        map.extend_from_slice(&g.to_be_bytes());
    }
    let map_id = doc.add_object(compressed(Dictionary::new(), map)?);

    let widths: Vec<Object> = used
        .cids
        .iter()
        .map(|(gid, _)| Object::Integer(width(face, *gid)))
        .collect();
    let mut info = Dictionary::new();
    info.set("Registry", Object::string_literal("Adobe"));
    info.set("Ordering", Object::string_literal("Identity"));
    info.set("Supplement", Object::Integer(0));
    let mut cid_font = Dictionary::new();
    cid_font.set("Type", Object::Name(b"Font".to_vec()));
    cid_font.set("Subtype", Object::Name(b"CIDFontType2".to_vec()));
    cid_font.set("BaseFont", Object::Name(name.clone().into_bytes()));
    cid_font.set("CIDSystemInfo", Object::Dictionary(info));
    cid_font.set("FontDescriptor", Object::Reference(fd_id));
    cid_font.set("DW", Object::Integer(0));
    cid_font.set(
        "W",
        Object::Array(vec![Object::Integer(1), Object::Array(widths)]),
    );
    cid_font.set("CIDToGIDMap", Object::Reference(map_id));
    let cid_id = doc.add_object(Object::Dictionary(cid_font));

    let cmap_id = doc.add_object(compressed(Dictionary::new(), to_unicode(used))?);

    let mut f = Dictionary::new();
    f.set("Type", Object::Name(b"Font".to_vec()));
    f.set("Subtype", Object::Name(b"Type0".to_vec()));
    f.set("BaseFont", Object::Name(name.into_bytes()));
    f.set("Encoding", Object::Name(b"Identity-H".to_vec()));
    f.set(
        "DescendantFonts",
        Object::Array(vec![Object::Reference(cid_id)]),
    );
    f.set("ToUnicode", Object::Reference(cmap_id));
    Ok(doc.add_object(Object::Dictionary(f)))
}

/// The ToUnicode CMap: each CID to the UTF-16BE of its text (CIDs standing for no text are left out).
fn to_unicode(used: &Used) -> Vec<u8> {
    let entries: Vec<String> = used
        .cids
        .iter()
        .enumerate()
        .filter(|(_, (_, text))| !text.is_empty())
        .map(|(i, (_, text))| {
            let hex: String = text.encode_utf16().map(|u| format!("{u:04X}")).collect();
            format!("<{:04X}> <{hex}>", i + 1)
        })
        .collect();
    let mut out = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    for chunk in entries.chunks(100) {
        out.push_str(&format!("{} beginbfchar\n", chunk.len()));
        for e in chunk {
            out.push_str(e);
            out.push('\n');
        }
        out.push_str("endbfchar\n");
    }
    out.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    out.into_bytes()
}

/// The content of a text field's appearance (`/Tx BMC … EMC`), clipped to the box inside its border, with
/// the CIDs taken from `fonts`; also which faces it uses.
pub(crate) fn appearance(
    layout: &Layout,
    faces: &[Face],
    fonts: &mut FontSet,
    w: f64,
    h: f64,
) -> Result<(Vec<u8>, Vec<usize>), String> {
    let mut out = String::from("/Tx BMC\n");
    let mut used = Vec::new();
    if layout.lines.iter().any(|l| !l.glyphs.is_empty()) {
        let size = layout.size;
        out.push_str(&format!(
            "q 1 1 {} {} re W n BT 0 g\n",
            num(w - 2.0),
            num(h - 2.0)
        ));
        let mut face_now: Option<usize> = None;
        for line in &layout.lines {
            if line.glyphs.is_empty() {
                continue;
            }
            out.push_str(&format!(
                "1 0 0 1 {} {} Tm\n",
                num(layout.x),
                num(line.baseline)
            ));
            // `pen`: where the shaper puts the next glyph; `at`: where the PDF's text position is (em).
            let (mut pen, mut at, mut rise) = (0.0_f64, 0.0_f64, 0.0_f64);
            let mut tj = String::new();
            let flush = |tj: &mut String, out: &mut String| {
                if !tj.is_empty() {
                    out.push_str(&format!("[{tj}] TJ\n"));
                    tj.clear();
                }
            };
            for g in &line.glyphs {
                if face_now != Some(g.face) {
                    flush(&mut tj, &mut out);
                    out.push_str(&format!("/{} {} Tf\n", faces[g.face].resource, num(size)));
                    face_now = Some(g.face);
                    if !used.contains(&g.face) {
                        used.push(g.face);
                    }
                }
                if (g.dy - rise).abs() > 1e-9 {
                    flush(&mut tj, &mut out);
                    out.push_str(&format!("{} Ts\n", num(g.dy * size)));
                    rise = g.dy;
                }
                let shift = pen + g.dx - at;
                let adjust = (-shift * 1000.0 * 1000.0).round() / 1000.0;
                if adjust != 0.0 {
                    tj.push_str(&format!("{} ", num(adjust)));
                }
                let cid = fonts.cid(g.face, g.gid, &g.text)?;
                tj.push_str(&format!("<{cid:04X}>"));
                at += -adjust / 1000.0 + width(&faces[g.face], g.gid) as f64 / 1000.0;
                pen += g.advance;
            }
            flush(&mut tj, &mut out);
            if rise != 0.0 {
                out.push_str("0 Ts\n");
            }
        }
        out.push_str("ET Q\n");
    }
    out.push_str("EMC\n");
    used.sort_unstable();
    Ok((out.into_bytes(), used))
}

/// A number for a content stream: at most three decimals, no trailing zeros, no `-0`.
fn num(v: f64) -> String {
    let r = (v * 1000.0).round() / 1000.0;
    if r == 0.0 {
        return "0".into();
    }
    let s = format!("{r:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(14.0), "14");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(-12.3456), "-12.346");
    }

    #[test]
    fn one_cid_per_glyph_and_text() {
        let mut f = FontSet::new(1);
        assert_eq!(f.cid(0, 7, "a").unwrap(), 1);
        assert_eq!(f.cid(0, 8, "b").unwrap(), 2);
        assert_eq!(f.cid(0, 7, "a").unwrap(), 1);
        assert_eq!(f.cid(0, 7, "á").unwrap(), 3);
        let cmap = String::from_utf8(to_unicode(&f.used[0])).unwrap();
        assert!(
            cmap.contains("3 beginbfchar\n<0001> <0061>\n<0002> <0062>\n<0003> <00E1>\nendbfchar")
        );
    }
}
