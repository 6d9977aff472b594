//! The campaign tracker's documents ([`crate::campaign`]): a replayed campaign in; through the same
//! driver as every kind, into the campaign folder:
//! - [`CampaignCases`] (`DIR/cases/`): the packet of every case on the squad's books — the case kind's
//!   own document ([`crate::case::document_of`]), the case rolled to come in at the campaign's date and
//!   with its lead filled in; then `index.md`, `gm.pdf` and `handouts.pdf`;
//! - [`StatusKind`] (`DIR/status/`): one document, a caseload sheet per detective (cases, relationships,
//!   monthly closure rates and rolls) and the squad calendar of the year (48 weeks: the new-case checks,
//!   cases in and closed), with the rates so far;
//! - [`PlanKind`] (`DIR/plan/`): the new-case checks of the coming weeks, pre-rolled from the same streams
//!   `campaign week` will use, for print.

use num_bigint::BigInt;
use num_rational::BigRational;
use serde::Serialize;
use serde_json::json;

use crate::campaign::{
    self, Campaign, MONTH_NAMES, Step, WEEKS_PER_YEAR, case_batch_seed, fraction, month_of,
    parse_stamp, percent, week_span,
};
use crate::error::{invariant, no_document, write};
use crate::{Checked, Collect, Document, Index, Kind, Request, Requirements};
use blockprint_content::error::Result;
use blockprint_content::roll::case::{Case as RolledCase, CaseRequest};

/// What a campaign case packet says to make it again.
pub const PACKETS_RERUN: &str = "campaign packets <campaign folder>";

/// Roll a campaign case as its packet shows it: case `n` of the year's case batch, coming in at the
/// campaign's date, with its current lead.
pub fn roll_case(cx: &Checked, seed: u64, c: &campaign::Case) -> Result<RolledCase> {
    let came_in = parse_stamp(&c.came_in).ok_or_else(|| {
        invariant(format!(
            "case {} has no date blockprint can read: `{}`",
            c.number, c.came_in
        ))
    })?;
    let mut case = blockprint_content::roll::case::roll_case_at(
        &cx.lib,
        CaseRequest {
            batch_seed: case_batch_seed(seed, c.year),
            year: c.year,
            number: c.n,
            year_cases: CaseRequest::default_year_cases(c.n, 1),
        },
        Some(came_in),
    )?;
    case.lead_detective = c.lead.clone();
    case.rerun = PACKETS_RERUN.into();
    Ok(case)
}

/// The packets of every case of a campaign.
pub struct CampaignCases {
    pub campaign: Campaign,
}

/// What the `CampaignCases` kind is.
pub static CASES_INFO: crate::KindInfo = crate::KindInfo::new(
    "campaign-case",
    "the case packets of a campaign (blockprint campaign)",
    "cases",
    crate::PDF_MD_JSON,
)
.titled("Campaign case packets")
.papers(crate::HOME_PAPERS);

impl Kind for CampaignCases {
    fn info(&self) -> &crate::KindInfo {
        &CASES_INFO
    }
    fn requires(&self) -> Requirements {
        crate::case::BASE.requires()
    }
    fn options(&self) -> Option<serde_json::Value> {
        Some(
            json!({ "campaign_seed": self.campaign.setup.seed, "campaign_year": self.campaign.setup.year }),
        )
    }
    fn count(&self, _cx: &Checked, _req: &Request) -> Result<usize> {
        Ok(self.campaign.derived.cases.len())
    }
    /// The cases so far, as the log settles them: a week played or a case closed is new output.
    fn state(&self) -> Option<serde_json::Value> {
        Some(json!({ "cases": digest(&self.campaign.derived.cases) }))
    }
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let c =
            self.campaign.derived.cases.get(i).ok_or_else(|| {
                no_document("campaign-case", i, self.campaign.derived.cases.len())
            })?;
        let case = roll_case(cx, self.campaign.setup.seed, c)?;
        let req = Request {
            seed: case_batch_seed(self.campaign.setup.seed, c.year),
            ..req.clone()
        };
        let mut doc = crate::case::document_of(cx, &req, &case)?;
        if let serde_json::Value::Object(m) = &mut doc.summary {
            m.insert("lead".into(), c.lead.clone().into());
            m.insert("status".into(), c.status.clone().into());
        }
        Ok(doc)
    }
    fn collect(&self) -> Collect {
        let mut c = crate::case::BASE.collect();
        c.index = Some(Index {
            rel: "index.md".into(),
            head: "campaign/cases-index.md.j2".into(),
            row: "campaign/cases-index-row.md.j2".into(),
        });
        c
    }
    fn head(&self, cx: &Checked, req: &Request) -> serde_json::Map<String, serde_json::Value> {
        let mut data = crate::meta(cx, req);
        data.insert("campaign_seed".into(), self.campaign.setup.seed.into());
        data.insert("year".into(), self.campaign.setup.year.into());
        data.insert("rerun".into(), PACKETS_RERUN.into());
        data
    }
}

/// A case as the status sheets list it.
#[derive(Debug, Clone, Serialize)]
pub struct CaseLine {
    pub number: String,
    pub victim: String,
    pub came_in: String,
    pub weekday: String,
    pub lead: String,
    pub received_by: String,
    pub starting: bool,
    pub status: String,
    /// `week 7 of 1976` when closed.
    pub closed: Option<String>,
    pub closed_by: Option<String>,
}

/// A relationship on the caseload sheet.
#[derive(Debug, Clone, Serialize)]
pub struct Tie {
    pub role: String,
    pub name: Option<String>,
    pub strained: bool,
}

/// A month's line of a detective's sheet.
#[derive(Debug, Clone, Serialize)]
pub struct MonthLine {
    pub year: i32,
    pub month: u32,
    pub month_name: String,
    pub received: u32,
    pub closed: u32,
    pub rate: Option<String>,
    pub rate_percent: Option<String>,
    pub average: Option<String>,
    pub average_percent: Option<String>,
    pub target: Option<u32>,
    /// The exact chance the roll keeps the relationship.
    pub odds: Option<String>,
    pub roll: Option<u32>,
    pub outcome: String,
}

/// Received, closed and the rate of a span (the year so far).
#[derive(Debug, Clone, Serialize)]
pub struct Rate {
    pub received: u32,
    pub closed: u32,
    pub rate: Option<String>,
    pub percent: Option<String>,
}

impl Rate {
    fn new(received: u32, closed: u32) -> Self {
        let r =
            (received > 0).then(|| BigRational::new(BigInt::from(closed), BigInt::from(received)));
        Rate {
            received,
            closed,
            rate: r.as_ref().map(fraction),
            percent: r.as_ref().map(percent),
        }
    }
}

/// One detective's caseload sheet.
#[derive(Debug, Clone, Serialize)]
pub struct Sheet {
    pub name: String,
    pub class: Option<String>,
    pub assignment: String,
    pub assignment_from: String,
    pub sheet: Option<String>,
    pub on_squad: bool,
    pub left: Option<String>,
    pub open: usize,
    pub ties: Vec<Tie>,
    pub cases: Vec<CaseLine>,
    pub months: Vec<MonthLine>,
    pub year_so_far: Rate,
}

/// A week of the squad calendar.
#[derive(Debug, Clone, Serialize)]
pub struct WeekLine {
    pub week: u32,
    pub month: u32,
    pub month_name: String,
    pub week_of_month: u32,
    pub span: String,
    pub played: bool,
    pub check: Option<i64>,
    pub new_case: Option<String>,
    pub lead: Option<String>,
    pub closed: Vec<String>,
}

/// A roll as the status lists it.
#[derive(Debug, Clone, Serialize)]
pub struct RollLine {
    pub command: u32,
    pub command_text: String,
    pub purpose: String,
    pub stream: String,
    pub dice: String,
    pub result: i64,
    pub odds: String,
    pub odds_percent: String,
    pub odds_of: String,
    pub outcome: String,
}

/// Everything the status document shows (and `status.json` holds, in this order).
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub campaign_seed: u64,
    pub started: i32,
    pub year: i32,
    pub week: u32,
    /// The year the calendar and the rates show: the current one, or the one just ended.
    pub calendar_year: i32,
    /// `Week 7 of 48, 1976` or `End of 1976`.
    pub as_of: String,
    pub months_closed: u32,
    pub next: String,
    pub commands: usize,
    pub squad_year: Rate,
    pub detectives: Vec<Sheet>,
    pub calendar: Vec<WeekLine>,
    pub years: Vec<campaign::YearResult>,
    pub rolls: Vec<RollLine>,
}

/// Work out the status of a campaign (rolls every case for its victim's name).
pub fn status(cx: &Checked, c: &Campaign) -> Result<Status> {
    let d = &c.derived;
    let cal = d
        .calendar
        .as_ref()
        .ok_or_else(|| invariant("a campaign without a calendar"))?;
    // Right after a year end nothing of the new year has happened yet: show the year just ended.
    let ended = cal.week == 0 && cal.year > c.setup.year;
    let year = if ended { cal.year - 1 } else { cal.year };
    let weeks_played = if ended { WEEKS_PER_YEAR } else { cal.week };
    let as_of = if ended {
        format!("End of {year}")
    } else {
        format!("Week {} of 48, {year}", cal.week)
    };
    let mut lines = Vec::new();
    for k in &d.cases {
        let rolled = roll_case(cx, c.setup.seed, k)?;
        lines.push(CaseLine {
            number: k.number.clone(),
            victim: rolled.victim.victim.name.clone(),
            came_in: k.came_in.clone(),
            weekday: rolled.weekday.clone(),
            lead: k.lead.clone(),
            received_by: k.received_by.clone(),
            starting: k.starting,
            status: k.status.clone(),
            closed: match (k.closed_week, k.closed_year) {
                (Some(w), Some(y)) => Some(format!("week {w} of {y}")),
                _ => None,
            },
            closed_by: k.closed_by.clone(),
        });
    }
    let counts = |name: Option<&str>| {
        let received = d
            .cases
            .iter()
            .filter(|k| k.year == year && name.is_none_or(|n| k.received_by == n))
            .count() as u32;
        let closed = d
            .cases
            .iter()
            .filter(|k| {
                k.closed_year == Some(year)
                    && name.is_none_or(|n| k.closed_by.as_deref() == Some(n))
            })
            .count() as u32;
        Rate::new(received, closed)
    };
    let detectives = d
        .detectives
        .iter()
        .map(|p| {
            let months = d
                .months
                .iter()
                .filter(|m| m.detective == p.name)
                .map(|m| {
                    let pct = |s: &Option<String>| {
                        s.as_deref()
                            .and_then(campaign::parse_fraction)
                            .map(|r| percent(&r))
                    };
                    MonthLine {
                        year: m.year,
                        month: m.month,
                        month_name: MONTH_NAMES[(m.month.clamp(1, 12) - 1) as usize].into(),
                        received: m.received,
                        closed: m.closed,
                        rate: m.rate.clone(),
                        rate_percent: pct(&m.rate),
                        average: m.average.clone(),
                        average_percent: pct(&m.average),
                        target: m.target,
                        odds: m.target.map(|t| {
                            fraction(&BigRational::new(BigInt::from(t), BigInt::from(100)))
                        }),
                        roll: m.roll,
                        outcome: m.outcome.clone(),
                    }
                })
                .collect();
            Sheet {
                name: p.name.clone(),
                class: p.class.clone(),
                assignment: p.assignment.clone(),
                assignment_from: p.assignment_from.clone(),
                sheet: p.sheet.clone(),
                on_squad: p.on_squad,
                left: p.left.clone(),
                open: d
                    .cases
                    .iter()
                    .filter(|k| k.is_open() && k.lead == p.name)
                    .count(),
                ties: vec![
                    Tie {
                        role: "Commanding officer".into(),
                        name: p.commanding_officer_name.clone(),
                        strained: p.commanding_officer_strained,
                    },
                    Tie {
                        role: "Commissioner or top brass".into(),
                        name: p.commissioner_name.clone(),
                        strained: p.commissioner_strained,
                    },
                ],
                cases: lines
                    .iter()
                    .filter(|l| {
                        l.lead == p.name
                            || l.received_by == p.name
                            || l.closed_by.as_deref() == Some(&p.name)
                    })
                    .cloned()
                    .collect(),
                months,
                year_so_far: counts(Some(&p.name)),
            }
        })
        .collect();
    let checks: Vec<&campaign::Roll> = d
        .rolls
        .iter()
        .filter(|r| r.purpose == "new-case check")
        .collect();
    let calendar = (1..=WEEKS_PER_YEAR)
        .map(|w| {
            let (m, k) = month_of(w);
            let played = w <= weeks_played;
            let stream = format!("week {year}/{w}");
            let check = checks.iter().find(|r| r.stream == stream).map(|r| r.result);
            let new_case = d
                .cases
                .iter()
                .find(|k| !k.starting && k.year == year && k.week == w);
            WeekLine {
                week: w,
                month: m,
                month_name: MONTH_NAMES[(m - 1) as usize].into(),
                week_of_month: k,
                span: week_span(year, w),
                played,
                check: if played { check } else { None },
                new_case: new_case.map(|k| k.number.clone()),
                lead: new_case.map(|k| k.received_by.clone()),
                closed: d
                    .cases
                    .iter()
                    .filter(|k| k.closed_year == Some(year) && k.closed_week == Some(w))
                    .map(|k| k.number.clone())
                    .collect(),
            }
        })
        .collect();
    let rolls = d
        .rolls
        .iter()
        .map(|r| RollLine {
            command: r.command,
            command_text: if r.command == 0 {
                "new".into()
            } else {
                c.steps
                    .get(r.command as usize - 1)
                    .map(Step::describe)
                    .unwrap_or_default()
            },
            purpose: r.purpose.clone(),
            stream: r.stream.clone(),
            dice: r.dice.clone(),
            result: r.result,
            odds: r.odds.clone(),
            odds_percent: campaign::parse_fraction(&r.odds)
                .map(|f| percent(&f))
                .unwrap_or_default(),
            odds_of: r.odds_of.clone(),
            outcome: r.outcome.clone(),
        })
        .collect();
    Ok(Status {
        campaign_seed: c.setup.seed,
        started: c.setup.year,
        year: cal.year,
        week: cal.week,
        calendar_year: year,
        as_of,
        months_closed: cal.months_closed,
        next: cal.next.clone(),
        commands: c.steps.len(),
        squad_year: counts(None),
        detectives,
        calendar,
        years: d.years.clone(),
        rolls,
    })
}

/// The sha256 of a value's JSON.
fn digest(v: &impl Serialize) -> String {
    blockprint_render::manifest::sha256(serde_json::to_string(v).unwrap_or_default().as_bytes())
}

/// The status document of a campaign.
pub struct StatusKind {
    pub status: Status,
}

fn with_meta(cx: &Checked, req: &Request, v: serde_json::Value) -> serde_json::Value {
    let mut m = crate::meta(cx, req);
    m.insert("fillable".into(), false.into());
    if let serde_json::Value::Object(o) = v {
        m.extend(o);
    }
    m.into()
}

/// What the `StatusKind` kind is.
pub static STATUS_INFO: crate::KindInfo = crate::KindInfo::new(
    "campaign-status",
    "a campaign's caseload sheets and squad calendar (blockprint campaign status)",
    "status",
    crate::PDF_MD_JSON,
)
.titled("Campaign status sheets")
.papers(crate::HOME_PAPERS);

impl Kind for StatusKind {
    fn info(&self) -> &crate::KindInfo {
        &STATUS_INFO
    }
    fn requires(&self) -> Requirements {
        crate::case::BASE.requires()
    }
    /// The status changes with every command: its digest is part of the run's identity, so a new
    /// status replaces the old files instead of being taken for them.
    fn options(&self) -> Option<serde_json::Value> {
        Some(json!({ "status": digest(&self.status) }))
    }
    fn count(&self, _cx: &Checked, _req: &Request) -> Result<usize> {
        Ok(1)
    }
    fn document(&self, cx: &Checked, req: &Request, _i: usize) -> Result<Document> {
        let bug = |e: serde_json::Error| write("the squad's status", e);
        let v = serde_json::to_value(&self.status).map_err(bug)?;
        let pretty = serde_json::to_string_pretty(&self.status).map_err(bug)? + "\n";
        Ok(Document::new(
            "status",
            "campaign/status",
            format!("Squad status — {}", self.status.year),
            with_meta(cx, req, v),
        )
        .audience(crate::Audience::Gm)
        .json(pretty)
        .summary(json!({}))
        .bookmark("Squad status"))
    }
}

/// A pre-rolled week of the plan.
#[derive(Debug, Clone, Serialize)]
pub struct PlanWeek {
    pub year: i32,
    pub week: u32,
    pub month: u32,
    pub month_name: String,
    pub week_of_month: u32,
    pub span: String,
    pub roll: i64,
    pub new_case: bool,
    /// The number the case will get.
    pub number: Option<String>,
    /// When it will come in (`1976-03-17 14:05`) and its weekday.
    pub came_in: Option<String>,
    pub weekday: Option<String>,
}

/// The plan: the next `weeks` new-case checks from where the campaign stands.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub campaign_seed: u64,
    pub die: String,
    pub at_most: i64,
    pub odds: String,
    pub weeks: Vec<PlanWeek>,
    pub new_cases: usize,
}

/// Pre-roll the new-case checks of the `count` weeks after the campaign's current one (across year ends),
/// exactly as `campaign week` will roll them.
pub fn plan(c: &Campaign, count: u32) -> Result<Plan> {
    let cal = c
        .derived
        .calendar
        .as_ref()
        .ok_or_else(|| invariant("a campaign without a calendar"))?;
    let (mut year, mut week) = (cal.year, cal.week);
    let mut next_n: u32 = c.derived.cases.iter().filter(|k| k.year == year).count() as u32 + 1;
    let mut last = c
        .derived
        .cases
        .iter()
        .filter(|k| k.year == year)
        .filter_map(|k| parse_stamp(&k.came_in))
        .max();
    let mut weeks = Vec::new();
    for _ in 0..count {
        if week >= WEEKS_PER_YEAR {
            year += 1;
            week = 0;
            next_n = 1;
            last = None;
        }
        week += 1;
        let (roll, new_case) = campaign::new_case_check(c.setup.seed, year, week)?;
        let (m, k) = month_of(week);
        let mut line = PlanWeek {
            year,
            week,
            month: m,
            month_name: MONTH_NAMES[(m - 1) as usize].into(),
            week_of_month: k,
            span: week_span(year, week),
            roll,
            new_case,
            number: None,
            came_in: None,
            weekday: None,
        };
        if new_case {
            let t = campaign::case_arrival(c.setup.seed, year, week, last)?;
            line.number = Some(format!("{year}-{next_n:02}"));
            line.came_in = Some(format!("{} {}", t.date(), t.time()));
            line.weekday = Some(t.weekday().into());
            next_n += 1;
            last = Some(t);
        }
        weeks.push(line);
    }
    Ok(Plan {
        campaign_seed: c.setup.seed,
        die: campaign::NEW_CASE_DIE.into(),
        at_most: campaign::NEW_CASE_AT_MOST,
        odds: fraction(&campaign::new_case_odds()),
        new_cases: weeks.iter().filter(|w| w.new_case).count(),
        weeks,
    })
}

/// The plan document.
pub struct PlanKind {
    pub plan: Plan,
}

/// What the `PlanKind` kind is.
pub static PLAN_INFO: crate::KindInfo = crate::KindInfo::new(
    "campaign-plan",
    "a campaign's coming new-case checks, pre-rolled (blockprint campaign plan)",
    "plan",
    crate::PDF_MD_JSON,
)
.titled("Campaign plan")
.papers(crate::HOME_PAPERS);

impl Kind for PlanKind {
    fn info(&self) -> &crate::KindInfo {
        &PLAN_INFO
    }
    fn requires(&self) -> Requirements {
        Requirements::default()
    }
    fn options(&self) -> Option<serde_json::Value> {
        Some(json!({ "plan": digest(&self.plan) }))
    }
    fn count(&self, _cx: &Checked, _req: &Request) -> Result<usize> {
        Ok(1)
    }
    fn document(&self, cx: &Checked, req: &Request, _i: usize) -> Result<Document> {
        let bug = |e: serde_json::Error| write("the campaign's plan", e);
        let v = serde_json::to_value(&self.plan).map_err(bug)?;
        let pretty = serde_json::to_string_pretty(&self.plan).map_err(bug)? + "\n";
        Ok(Document::new(
            "plan",
            "campaign/plan",
            "New-case checks, pre-rolled",
            with_meta(cx, req, v),
        )
        .audience(crate::Audience::Gm)
        .json(pretty)
        .summary(json!({}))
        .bookmark("Plan"))
    }
}
