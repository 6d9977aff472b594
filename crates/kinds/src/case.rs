//! Case packets: checked content and a batch request in; per case a GM file and a player handout (one
//! typst document split into two PDFs), Markdown and JSON; then `index.md` and the print files `gm.pdf` and
//! `handouts.pdf` merged from the per-case PDFs. Case `first + i` of a batch is rolled from its own
//! ChaCha20 stream of the batch seed, so any index range reproduces exactly the same files.

use serde_json::json;

use super::{Checked, Collect, Document, Index, Kind, Merge, PdfPart, Request, Requirements};
use blockprint_content::error::Result;
use blockprint_content::roll::case::{self as roller, CaseRequest};

pub struct CaseKind;

/// What the `CaseKind` kind is.
pub static INFO: crate::KindInfo = crate::KindInfo::new(
    "case",
    "homicide case packets: GM file, player handout, Markdown and JSON per case",
    "cases",
    crate::PDF_MD_JSON,
)
.papers(crate::HOME_PAPERS)
.rolls();

impl Kind for CaseKind {
    fn info(&self) -> &crate::KindInfo {
        &INFO
    }

    fn requires(&self) -> Requirements {
        let mut tables: Vec<String> = [
            roller::VICTIMS,
            roller::GENDER,
            roller::ETHNICITY,
            roller::ELAPSED,
            roller::DISTRICT,
            roller::METHOD,
            roller::LOCATION,
            roller::CHARGE,
            roller::CHARGE_POLICE,
            roller::WITNESS,
            roller::EVIDENCE,
            roller::SUSPECT_PROFILE,
            roller::SUSPECT_COOPERATION,
            roller::OTHER_CASE,
        ]
        .into_iter()
        .chain(roller::ACTIVITIES)
        .map(str::to_owned)
        .collect();
        for e in roller::ETHNICITY_TAGS {
            for g in roller::GENDER_TAGS.iter().chain(&["surname"]) {
                tables.push(format!("bbb.names.{e}.{g}"));
            }
        }
        let tags = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let mut row_tags = vec![
            (roller::GENDER.to_owned(), tags(&roller::GENDER_TAGS)),
            (roller::ETHNICITY.to_owned(), tags(&roller::ETHNICITY_TAGS)),
        ];
        for a in roller::ACTIVITIES {
            row_tags.push((a.to_owned(), tags(&["witness", "evidence", "suspect"])));
        }
        Requirements {
            tables,
            lookups: [roller::SENTENCING, roller::THRESHOLD, roller::CLOSING]
                .map(str::to_owned)
                .to_vec(),
            decks: vec![],
            int_keys: [
                roller::PER_BREAK,
                roller::POLICE_VICTIM,
                roller::HIGH_PROFILE,
                roller::ETHNIC_MINORITY,
                roller::DESPISED_MINORITY,
            ]
            .into_iter()
            .map(|k| (roller::CLOSING.to_owned(), k.to_owned()))
            .collect(),
            row_tags,
            durations: vec![(roller::ELAPSED.to_owned(), roller::MAX_ELAPSED_MINUTES)],
            book: false,
            ..Requirements::default()
        }
    }

    fn count(&self, _cx: &Checked, req: &Request) -> Result<usize> {
        Ok(req.count as usize)
    }

    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let number = req.first + i as u32;
        let case = roller::roll_case(
            &cx.lib,
            CaseRequest {
                batch_seed: req.seed,
                year: req.year,
                number,
                year_cases: req.year_cases,
            },
        )?;
        document_of(cx, req, &case)
    }
    fn collect(&self) -> Collect {
        Collect {
            index: Some(Index {
                rel: "index.md".into(),
                head: "case/index.md.j2".into(),
                row: "case/index-row.md.j2".into(),
            }),
            // Padding is for duplex printing. In gm.pdf a GM file that runs to an odd number of pages (long
            // text) gets a blank page, so the next case's secret first page never backs it: each case's file
            // stays its own sheets, to be filed, handed to a co-GM or thrown away with its case without
            // taking another case's secrets along. handouts.pdf holds nothing secret and each handout is
            // public to the table, so two handouts may share a sheet: no padding, no wasted paper.
            merges: vec![
                Merge {
                    rel: "gm.pdf".into(),
                    title: "Case packets — GM files".into(),
                    about: "every GM file, each starting on a fresh sheet in duplex".into(),
                    part: "gm".into(),
                    pad_to_even: true,
                },
                Merge {
                    rel: "handouts.pdf".into(),
                    title: "Case packets — player handouts".into(),
                    about: "every player handout".into(),
                    part: "handout".into(),
                    pad_to_even: false,
                },
            ],
        }
    }

    fn head(&self, cx: &Checked, req: &Request) -> serde_json::Map<String, serde_json::Value> {
        let mut data = super::meta(cx, req);
        data.insert("batch_seed".into(), req.seed.into());
        data.insert("year".into(), req.year.into());
        data.insert("first".into(), req.first.into());
        data.insert("count".into(), req.count.into());
        data.insert("year_cases".into(), req.year_cases.into());
        data
    }
}

/// The packet document of a rolled case (also the campaign tracker's packets, whose cases come in on its
/// calendar): what the case templates see, `<case>.json`, the two PDF parts and the index row.
pub fn document_of(cx: &Checked, req: &Request, case: &roller::Case) -> Result<Document> {
    let n = case.case_number.clone();

    let bug = |e: serde_json::Error| blockprint_content::error::Error::Bug(e.to_string());
    let mut case_json = serde_json::to_value(case).map_err(bug)?;
    // The documents print curly quotes; `<case>.json` (below) keeps the content's own characters.
    blockprint_content::text::smart_quotes_in(&mut case_json);
    let pretty = serde_json::to_string_pretty(case).map_err(bug)? + "\n";
    let mut data = super::meta(cx, req);
    data.insert("batch_seed".into(), req.seed.into());
    data.insert("case".into(), case_json);
    Ok(Document::new(
        format!("{n}/{n}"),
        "case/case",
        format!("Case {n}"),
        data.into(),
    )
    .json(pretty)
    .parts(vec![
        PdfPart {
            name: "gm".into(),
            title: format!("Case {n} — GM file"),
        },
        PdfPart {
            name: "handout".into(),
            title: format!("Case {n} — player handout"),
        },
    ])
    .bookmark(format!("Case {n} — {}", case.victim.victim.name))
    .summary(json!({
        "case_number": n,
        "date_in": case.date_in,
        "victim": case.victim.victim.name,
        "occupation": case.victim.victim.occupation.text,
        "method": case.method.text,
        "district": case.district.text,
    })))
}
