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

/// Every page of a typeset single-card document as a PNG at `dpi`.
pub fn pngs(doc: &typst_layout::PagedDocument, dpi: f64) -> Result<Vec<Vec<u8>>, String> {
    let opts = typst_render::RenderOptions {
        pixel_per_pt: typst::utils::Scalar::new(dpi / 72.0),
        ..Default::default()
    };
    doc.pages()
        .iter()
        .map(|page| {
            typst_render::render(page, &opts)
                .encode_png()
                .map_err(|e| e.to_string())
        })
        .collect()
}
