//! PDF: a template name and a serializable value in, PDF bytes out. typst runs in-process (typst-as-lib)
//! in a world that holds only the embedded `templates/*.typ` and the fonts under `fonts/`: it reads no
//! other file and no system font. Data reaches the template only through `sys.inputs` — never spliced into
//! typst source — so text from content or users prints literally. The PDF carries no wall-clock date:
//! its timestamp comes from `SOURCE_DATE_EPOCH` when set, else it has none, so reruns are byte-identical.

use serde::Serialize;
use typst::foundations::{Bytes, Datetime, Dict, Smart};
use typst_as_lib::{TypstAsLibError, TypstEngine, TypstTemplateCollection};
use typst_layout::PagedDocument;
use typst_pdf::{PdfOptions, Timestamp};


/// The embedded fonts (all OFL; licences beside them under `fonts/`).
static FONTS: [&[u8]; 9] = [
    include_bytes!("../../fonts/courier-prime/CourierPrime-Regular.otf"),
    include_bytes!("../../fonts/courier-prime/CourierPrime-Bold.otf"),
    include_bytes!("../../fonts/courier-prime/CourierPrime-Italic.otf"),
    include_bytes!("../../fonts/courier-prime/CourierPrime-BoldItalic.otf"),
    include_bytes!("../../fonts/bebas-neue/BebasNeue-Regular.otf"),
    include_bytes!("../../fonts/bebas-neue/BebasNeue-Bold.otf"),
    include_bytes!("../../fonts/eb-garamond/EBGaramond12-Regular.otf"),
    include_bytes!("../../fonts/eb-garamond/EBGaramond12-Italic.otf"),
    include_bytes!("../../fonts/eb-garamond/EBGaramond12-Bold.otf"),
];

/// A typst engine over the embedded templates and fonts. `Send + Sync`: share one across threads.
pub struct Pdf {
    engine: TypstEngine<TypstTemplateCollection>,
}

/// Why a document could not be made: a template error (a bug in blockprint's templates) or bad data.
#[derive(Debug, Clone, PartialEq)]
pub struct PdfError(pub String);

impl std::fmt::Display for PdfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PdfError {}

impl Default for Pdf {
    fn default() -> Self {
        Self::new()
    }
}

impl Pdf {
    pub fn new() -> Self {
        let sources: Vec<(String, String)> = super::template_files()
            .into_iter()
            .filter(|(name, _)| name.ends_with(".typ"))
            .filter_map(|(name, f)| Some((name, f.contents_utf8()?.to_owned())))
            .collect();
        let engine = TypstEngine::builder()
            .fonts(FONTS.iter().map(|b| Bytes::new(*b)))
            .with_static_source_file_resolver(
                sources.iter().map(|(n, t)| (n.as_str(), t.as_str())),
            )
            .build();
        Pdf { engine }
    }

    /// Compile `template` (e.g. `case.typ`) with `data` as `sys.inputs` and export it as PDF.
    /// `ident` names the document kind stably (`blockprint/case`).
    pub fn render(
        &self,
        template: &str,
        data: &impl Serialize,
        ident: &str,
    ) -> Result<Vec<u8>, PdfError> {
        let value = serde_json::to_value(data)
            .map_err(|e| PdfError(format!("cannot pass data to {template}: {e}")))?;
        let inputs: Dict = serde_json::from_value(value)
            .map_err(|e| PdfError(format!("cannot pass data to {template}: {e}")))?;
        let doc: PagedDocument = self
            .engine
            .compile_with_input(template, inputs)
            .output
            .map_err(|e| PdfError(describe(template, e)))?;
        let options = PdfOptions {
            ident: Smart::Custom(ident.to_owned()),
            creator: Smart::Custom(Some("blockprint".to_owned())),
            timestamp: source_date_epoch(),
            ..PdfOptions::default()
        };
        typst_pdf::pdf(&doc, &options).map_err(|diags| {
            PdfError(format!(
                "cannot export {template}: {}",
                diags
                    .iter()
                    .map(|d| d.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ))
        })
    }
}

/// A template error as one readable line per diagnostic (typst's hints about its own CLI dropped).
fn describe(template: &str, e: TypstAsLibError) -> String {
    match e {
        TypstAsLibError::TypstSource(diags) => diags
            .iter()
            .map(|d| {
                let hints: Vec<&str> = d
                    .hints
                    .iter()
                    .map(|h| h.v.as_str())
                    .filter(|h| !h.contains("--root"))
                    .collect();
                if hints.is_empty() {
                    format!("template {template}: {}", d.message)
                } else {
                    format!(
                        "template {template}: {} (hint: {})",
                        d.message,
                        hints.join("; ")
                    )
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => format!("template {template}: {other}"),
    }
}

/// The PDF timestamp: `SOURCE_DATE_EPOCH` (seconds since 1970, UTC) when set and valid, else none.
fn source_date_epoch() -> Option<Timestamp> {
    let secs: i64 = std::env::var("SOURCE_DATE_EPOCH")
        .ok()?
        .trim()
        .parse()
        .ok()?;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = crate::roll::calendar::civil_from_days(days);
    let dt = Datetime::from_ymd_hms(
        i32::try_from(y).ok()?,
        u8::try_from(m).ok()?,
        u8::try_from(d).ok()?,
        (rem / 3600) as u8,
        (rem % 3600 / 60) as u8,
        (rem % 60) as u8,
    )?;
    Some(Timestamp::new_utc(dt))
}
