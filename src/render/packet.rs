//! Case packets: rolled cases in, every file of a packet out as (relative path, bytes) — rendered in memory
//! first, so nothing is written unless everything rendered. Per case `cases/<number>/case.{pdf,md,json}`,
//! plus `cases/index.md` and the combined `cases/cases.pdf`.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Serialize;

use super::markdown;
use super::pdf::{Pdf, PdfError};
use crate::roll::case::Case;

/// Paper sizes the templates know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    A4,
    Letter,
}

/// Which kinds of file to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Format {
    Pdf,
    Md,
    Json,
}

/// What the case templates see: the packet's settings and its cases.
#[derive(Debug, Clone, Serialize)]
pub struct PacketData<'a> {
    pub paper: Paper,
    pub generator: String,
    pub content_version: &'a str,
    pub batch_seed: u64,
    pub cases: &'a [Case],
}

/// Render a packet. `formats` picks the kinds of file; the combined PDF comes with `Pdf`.
pub fn render(
    cases: &[Case],
    batch_seed: u64,
    content_version: &str,
    paper: Paper,
    formats: &[Format],
) -> Result<Vec<(String, Vec<u8>)>, PdfError> {
    let generator = format!("blockprint {}", env!("CARGO_PKG_VERSION"));
    let data = |cases| PacketData {
        paper,
        generator: generator.clone(),
        content_version,
        batch_seed,
        cases,
    };
    let env =
        markdown::environment(BTreeMap::new()).map_err(|e| PdfError(format!("templates: {e}")))?;
    let pdf = formats.contains(&Format::Pdf).then(Pdf::new);

    let per_case: Vec<Vec<(String, Vec<u8>)>> = cases
        .par_iter()
        .enumerate()
        .map(|(i, case)| {
            let dir = format!("cases/{}", case.case_number);
            let one = data(&cases[i..=i]);
            let mut files = Vec::new();
            if let Some(pdf) = &pdf {
                files.push((
                    format!("{dir}/case.pdf"),
                    pdf.render("case/case.typ", &one, "blockprint/case")?,
                ));
            }
            if formats.contains(&Format::Md) {
                let md = markdown::render(&env, "case/case.md.j2", &one)
                    .map_err(|e| PdfError(format!("case.md: {e}")))?;
                files.push((format!("{dir}/case.md"), md.into_bytes()));
            }
            if formats.contains(&Format::Json) {
                let json =
                    serde_json::to_string_pretty(case).map_err(|e| PdfError(e.to_string()))? + "\n";
                files.push((format!("{dir}/case.json"), json.into_bytes()));
            }
            Ok(files)
        })
        .collect::<Result<_, PdfError>>()?;
    let mut files: Vec<(String, Vec<u8>)> = per_case.into_iter().flatten().collect();

    let all = data(cases);
    let index = markdown::render(&env, "case/index.md.j2", &all)
        .map_err(|e| PdfError(format!("index.md: {e}")))?;
    files.push(("cases/index.md".to_owned(), index.into_bytes()));
    if let Some(pdf) = &pdf {
        files.push((
            "cases/cases.pdf".to_owned(),
            pdf.render("case/case.typ", &all, "blockprint/cases")?,
        ));
    }
    Ok(files)
}
