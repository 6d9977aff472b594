//! What a rolled case is: the values `case` serializes to JSON and hands to its templates, exactly as they
//! see them. [`super::roll_case`] makes them.

use serde::Serialize;

use crate::Unit;
use crate::roll::table::TableRoll;

/// One value rolled on a table: the row's result exactly as the content has it, the same with its inline
/// rolls and references resolved, and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rolled {
    pub result: String,
    pub text: String,
    pub table: String,
    pub roll: i64,
    pub on: String,
}

impl From<&TableRoll> for Rolled {
    fn from(t: &TableRoll) -> Self {
        Rolled {
            result: t.result.clone(),
            text: t.text.clone(),
            table: t.table.clone(),
            roll: t.roll,
            on: t.on.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Victim {
    pub name: String,
    pub first_name: Rolled,
    pub surname: Rolled,
    pub occupation: Rolled,
    pub gender: Rolled,
    pub ethnicity: Rolled,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrimaryVictim {
    #[serde(flatten)]
    pub victim: Victim,
    /// How many victims the case has (the victims list's "Multiple" row rolls it).
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Elapsed {
    #[serde(flatten)]
    pub rolled: Rolled,
    /// The inline roll's value as written (`1.5`) and its unit.
    pub amount: String,
    pub unit: Unit,
    /// Amount and unit for print: `1 hour`, `1.5 hours`, `11 days`.
    pub display: String,
    /// Hours between the crime and the case coming in, exact (`"1.5"`, `"264"`).
    pub hours: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Crime {
    /// A suggestion only: the detectives choose the charge they take to the DA (the DA odds cover every
    /// charge the case admits). Rolled on the likely-charge table.
    pub suggested_charge: Rolled,
    /// The suggested charge's minimum sentence in years (the DA's target if they bring it).
    pub minimum_sentence: i64,
    /// Every charge the case admits (the rows of its likely-charge table), as the DA odds list them.
    pub charges: Vec<String>,
    pub police_victim: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Threshold {
    /// Which Break this threshold leads to (1 = the first).
    #[serde(rename = "break")]
    pub break_number: usize,
    pub band: String,
    pub dice: String,
    pub value: i64,
}

/// A band of time since the crime that a later Break can fall in, with the moment the crime leaves it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandEdge {
    pub band: String,
    pub dice: String,
    /// The last moment in this band (`1976-03-09`, `14:05`, `Tuesday`); none for the open last band.
    pub until_date: Option<String>,
    pub until_time: Option<String>,
    pub until_weekday: Option<String>,
}

/// The thresholds pre-rolled for one later Break: one value per band in `threshold_bands`, same order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaterThreshold {
    #[serde(rename = "break")]
    pub break_number: usize,
    pub values: Vec<BandValue>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandValue {
    pub band: String,
    pub dice: String,
    pub value: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreBreak {
    pub n: usize,
    /// `witness`, `evidence` or `suspect`.
    pub kind: String,
    #[serde(rename = "type")]
    pub break_type: Rolled,
    pub characteristic: Vec<Rolled>,
    pub other_case: Option<Rolled>,
    /// One line for the GM sheet, with every characteristic in full.
    pub summary: String,
    /// The same in a few words: `Suspect — high-profile, respected (−4); hostile`.
    pub short: String,
    /// Closing-roll modifier the Break brings (suspect profile), if any.
    pub modifier: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActivityBreaks {
    pub activity: String,
    pub table: String,
    pub sequence: Vec<PreBreak>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsCell {
    pub probability: String,
    pub approx: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsColumn {
    pub label: String,
    pub modifier: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsRow {
    pub breaks: i64,
    pub cells: Vec<OddsCell>,
}

/// DA odds for one minimum sentence: the charges that carry it, and a row per number of Breaks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChargeOdds {
    pub charges: Vec<String>,
    pub target: i64,
    pub rows: Vec<OddsRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DaOdds {
    pub per_break: i64,
    /// Modifiers every closing roll of this case gets (a police victim).
    pub fixed_modifier: i64,
    /// One column per distinct suspect modifier total, lowest first.
    pub columns: Vec<OddsColumn>,
    /// One block per distinct target among the charges the case admits, lowest first.
    pub charges: Vec<ChargeOdds>,
}

/// One table roll behind a case value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Provenance {
    pub field: String,
    pub table: String,
    pub roll: i64,
    /// 0-based row index and its `on` as written.
    pub row: usize,
    pub on: String,
}

/// A rolled homicide case: everything the case file, the handout and `case.json` show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Case {
    pub case_number: String,
    pub seed: u64,
    pub batch_seed: u64,
    pub content_version: String,
    pub lead_detective: String,
    pub date_in: String,
    pub time_in: String,
    pub weekday: String,
    pub victim: PrimaryVictim,
    pub other_victims: Vec<Victim>,
    pub time_elapsed: Elapsed,
    pub crime_date: String,
    pub crime_time: String,
    pub district: Rolled,
    pub method: Rolled,
    pub location: Rolled,
    pub crime: Crime,
    pub first_break_threshold: Threshold,
    /// The bands a later Break can fall in (the band at opening and every later one), with their edges.
    pub threshold_bands: Vec<BandEdge>,
    /// Breaks 2…8: a pre-rolled threshold for every band in `threshold_bands`.
    pub later_thresholds: Vec<LaterThreshold>,
    pub breaks: Vec<ActivityBreaks>,
    pub da_odds: DaOdds,
    pub provenance: Vec<Provenance>,
    /// The command that rolls this case again, byte for byte.
    pub rerun: String,
}
