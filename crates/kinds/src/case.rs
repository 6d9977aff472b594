//! Case packets: checked content and a batch request in; per case a GM file and a player handout (one
//! typst document split into two PDFs), Markdown and JSON; then `index.md` and the print files `gm.pdf` and
//! `handouts.pdf` merged from the per-case PDFs. Case `first + i` of a batch is rolled from its own
//! ChaCha20 stream of the batch seed, so any index range reproduces exactly the same files.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::{Checked, Collect, Document, Index, Kind, Merge, PdfPart, Request, Requirements};
use crate::error::Problem;
use crate::registry::{KindDef, defaults, from_json, schema};
use blockprint_content::error::Result;
use blockprint_content::roll::case::{self as roller, CaseRequest};

/// The year a case batch is numbered in unless told otherwise.
pub const DEFAULT_YEAR: i32 = 1976;
/// The years the calendar knows.
pub const YEARS: std::ops::RangeInclusive<i32> = 1900..=2100;
/// The most cases a year may hold.
pub const MAX_YEAR_CASES: u32 = 100_000;

/// A batch of case packets, numbered in `year`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseKind {
    /// Year of the case numbers (YYYY-NN).
    pub year: i32,
    /// How many cases the year holds (`None`: the default spread, [`CaseRequest::default_year_cases`]).
    pub year_cases: Option<u32>,
}

/// The case kind as `build` makes it: numbered in 1976, the default spread.
pub static BASE: CaseKind = CaseKind {
    year: DEFAULT_YEAR,
    year_cases: None,
};

impl CaseKind {
    /// How many cases the year of a batch holds: the one given, or the default spread for the request's
    /// numbers. One given below the batch's last number is refused (a case would fall outside its year).
    pub fn year_cases(&self, req: &Request) -> Result<u32> {
        let last = req.first.saturating_add(req.count.max(1) - 1);
        match self.year_cases {
            Some(n) if n < last => Err(Problem::YearCasesBelowLast { given: n, last }.into()),
            Some(n) => Ok(n),
            None => Ok(CaseRequest::default_year_cases(req.first, req.count)),
        }
    }
}

/// The options of `make case` (and of `blockprint case`, its alias): the batch's calendar. They are part
/// of the batch (the manifest records them beside its seed), so a rerun with another year is another batch.
#[derive(Debug, Clone, clap::Args, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Options {
    /// Year of the case numbers (YYYY-NN).
    #[arg(long, default_value_t = DEFAULT_YEAR, value_parser = clap::value_parser!(i32).range(1900..=2100))]
    #[schemars(
        title = "Year",
        description = "The year the case numbers belong to, 1900 to 2100."
    )]
    pub year: i32,
    /// How many cases the year holds: the year is cut into this many equal slots and case N comes in
    /// during slot N, so numbers follow the calendar (default: 17, about one case every three weeks as the
    /// rules' weekly 1d6 gives, or the batch's last number if higher). Give the same value to every part
    /// of a batch split across machines.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    #[schemars(title = "Cases in the year", description = "How many cases the year holds, so case numbers follow the calendar. Blank: 17, about one case every three weeks, or this batch's last number if that is higher. Give the same number to every part of a batch made in parts.", extend("examples" = [24]))]
    pub year_cases: Option<u32>,
}

/// The registered case kind: its options are the batch's calendar, which the manifest records as part of
/// the batch ([`Kind::batch`]) rather than as options.
pub struct CaseDef;

/// The case kind's registry entry.
pub static DEF: CaseDef = CaseDef;

impl KindDef for CaseDef {
    fn base(&self) -> &dyn Kind {
        &BASE
    }
    fn args(&self, cmd: clap::Command) -> clap::Command {
        <Options as clap::Args>::augment_args(cmd)
    }
    fn options_from_args(&self, m: &clap::ArgMatches) -> Result<Value> {
        let o =
            <Options as clap::FromArgMatches>::from_arg_matches(m).map_err(|e| Problem::Args {
                message: e.to_string(),
            })?;
        crate::error::json("the case's options", &o)
    }
    fn defaults(&self) -> Result<Value> {
        crate::error::json("the case's options", &defaults::<Options>()?)
    }
    fn schema(&self) -> Value {
        schema::<Options>()
    }
    fn configure<'a>(&'a self, _cx: &Checked, options: &Value) -> Result<Box<dyn Kind + 'a>> {
        let o: Options = from_json(&INFO.name, options)?;
        if !YEARS.contains(&o.year) {
            return Err(Problem::Year {
                given: o.year,
                first: *YEARS.start(),
                last: *YEARS.end(),
            }
            .into());
        }
        if let Some(n) = o.year_cases
            && !(1..=MAX_YEAR_CASES).contains(&n)
        {
            return Err(Problem::YearCases {
                given: n,
                max: MAX_YEAR_CASES,
            }
            .into());
        }
        Ok(Box::new(CaseKind {
            year: o.year,
            year_cases: o.year_cases,
        }))
    }
}

/// What the `CaseKind` kind is.
pub static INFO: crate::KindInfo = crate::KindInfo::new(
    "case",
    "homicide case packets: GM file, player handout, Markdown and JSON per case",
    "cases",
    crate::PDF_MD_JSON,
)
.titled("Case packets")
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
        self.year_cases(req)?;
        Ok(req.count as usize)
    }

    fn batch(&self, req: &Request) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("year".into(), self.year.into());
        if let Ok(n) = self.year_cases(req) {
            m.insert("year_cases".into(), n.into());
        }
        m
    }

    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let number = req.first + i as u32;
        let case = roller::roll_case(
            &cx.lib,
            CaseRequest {
                batch_seed: req.seed,
                year: self.year,
                number,
                year_cases: self.year_cases(req)?,
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
                    audience: crate::Audience::Gm,
                    pad_to_even: true,
                },
                Merge {
                    rel: "handouts.pdf".into(),
                    title: "Case packets — player handouts".into(),
                    about: "every player handout".into(),
                    part: "handout".into(),
                    audience: crate::Audience::Player,
                    pad_to_even: false,
                },
            ],
        }
    }

    fn head(&self, cx: &Checked, req: &Request) -> serde_json::Map<String, serde_json::Value> {
        let mut data = super::meta(cx, req);
        data.insert("batch_seed".into(), req.seed.into());
        data.insert("year".into(), self.year.into());
        data.insert("first".into(), req.first.into());
        data.insert("count".into(), req.count.into());
        data.insert(
            "year_cases".into(),
            self.year_cases(req).unwrap_or_default().into(),
        );
        data
    }
}

/// The packet document of a rolled case (also the campaign tracker's packets, whose cases come in on its
/// calendar): what the case templates see, `<case>.json`, the two PDF parts and the index row.
pub fn document_of(cx: &Checked, req: &Request, case: &roller::Case) -> Result<Document> {
    let n = case.case_number.clone();

    let bug = |e: serde_json::Error| crate::error::write("the case's data", e);
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
    .audience(crate::Audience::Gm)
    .json(pretty)
    .parts(vec![
        PdfPart {
            name: "gm".into(),
            title: format!("Case {n} — GM file"),
            audience: crate::Audience::Gm,
        },
        PdfPart {
            name: "handout".into(),
            title: format!("Case {n} — player handout"),
            audience: crate::Audience::Player,
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
