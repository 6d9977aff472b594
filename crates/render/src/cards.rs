//! What typst cannot say in a card PDF, set with lopdf: `/ViewerPreferences` (the duplex mode and
//! `/PrintScaling /None`, so a print dialog neither flips the wrong edge nor shrinks the cards) on home
//! sheets, `/TrimBox` and `/BleedBox` on single cards for print services; and PNG images of single card
//! faces rendered in-process by typst-render.

use lopdf::{Dictionary, Object};

/// A card PDF's page and bleed, in µm: all [`finish`] needs to place the print boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageBoxes {
    pub page_w: i64,
    pub page_h: i64,
    pub bleed: i64,
}

/// Points in a µm: 72 / 25 400.
fn pt(um: i64) -> f32 {
    (um as f64 * 72.0 / 25_400.0) as f32
}

/// Rewrite `pdf` with the sheet's viewer preferences, or each single card's boxes.
pub fn finish(
    pdf: Vec<u8>,
    layout: &PageBoxes,
    single: bool,
    duplex: &str,
) -> Result<Vec<u8>, lopdf::Error> {
    let mut doc = lopdf::Document::load_mem(&pdf)?;
    if single {
        let (w, h, b) = (layout.page_w, layout.page_h, layout.bleed);
        let rect = |l: i64, t: i64, r: i64, u: i64| {
            Object::Array(
                [pt(l), pt(t), pt(r), pt(u)]
                    .into_iter()
                    .map(Object::Real)
                    .collect(),
            )
        };
        let pages: Vec<_> = doc.get_pages().into_values().collect();
        for id in pages {
            let page = doc.get_dictionary_mut(id)?;
            page.set("BleedBox", rect(0, 0, w, h));
            page.set("TrimBox", rect(b, b, w - b, h - b));
        }
    } else {
        let mut prefs = Dictionary::new();
        prefs.set("Duplex", Object::Name(duplex.as_bytes().to_vec()));
        prefs.set("PrintScaling", Object::Name(b"None".to_vec()));
        doc.catalog_mut()?
            .set("ViewerPreferences", Object::Dictionary(prefs));
    }
    let mut out = Vec::with_capacity(pdf.len() + 256);
    doc.save_to(&mut out)?;
    Ok(out)
}

/// Every page of a typeset single-card document as a PNG at `dpi`, drawn in parallel (each page on its
/// own; the bytes do not depend on the thread count).
pub fn pngs(doc: &typst_layout::PagedDocument, dpi: f64) -> Result<Vec<Vec<u8>>, String> {
    use rayon::prelude::*;
    doc.pages().par_iter().map(|page| png(page, dpi)).collect()
}

/// One page as a PNG at `dpi`: RGB when every pixel is opaque (a card at bleed always is), else RGBA
/// (tiny-skia's own encoder always writes RGBA: a quarter more bytes to filter and compress). png's
/// `Fast` mode (fdeflate) was measured on the built-in decks: 0.3 s less CPU for both, files 31 % larger;
/// the cache draws each card once, so the smaller files win.
pub fn png(page: &typst_layout::Page, dpi: f64) -> Result<Vec<u8>, String> {
    let opts = typst_render::RenderOptions {
        pixel_per_pt: typst::utils::Scalar::new(dpi / 72.0),
        ..Default::default()
    };
    let pixmap = typst_render::render(page, &opts);
    let (w, h) = (pixmap.width(), pixmap.height());
    let rgba = pixmap.data();
    let opaque = rgba.chunks_exact(4).all(|p| p[3] == 255);
    let (color, pixels) = if opaque {
        let rgb: Vec<u8> = rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        (png::ColorType::Rgb, rgb)
    } else {
        (png::ColorType::Rgba, pixmap.take_demultiplied())
    };
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(color);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&pixels)
            .map_err(|e| e.to_string())?;
    }
    Ok(out)
}
