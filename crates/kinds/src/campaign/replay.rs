//! Replaying a campaign: [`replay`] applies the setup and then each command of the log, in order, to an
//! empty [`Derived`] state, drawing every roll from its own stream of the campaign seed.

use super::calendar::stamp;
use super::*;

/// The state while replaying.
struct Play<'a> {
    lib: &'a Library,
    setup: &'a Setup,
    d: Derived,
    /// The log position being applied (1-based; 0 for the setup).
    command: u32,
}

/// Work out the state a setup and a log lead to. An error names where the log stands (the setup, or
/// command N) and why it cannot be applied there.
pub fn replay(lib: &Library, setup: &Setup, steps: &[Step]) -> Result<Derived, ReplayError> {
    let at_setup = |problem| ReplayError {
        command: None,
        problem,
    };
    validate_setup(setup).map_err(at_setup)?;
    let mut p = Play {
        lib,
        setup,
        d: Derived::default(),
        command: 0,
    };
    p.start().map_err(at_setup)?;
    for (i, s) in steps.iter().enumerate() {
        p.command = i as u32 + 1;
        p.apply(s).map_err(|problem| ReplayError {
            command: Some((i + 1, s.describe())),
            problem,
        })?;
    }
    p.set_next();
    Ok(p.d)
}

impl Play<'_> {
    fn cal(&self) -> &Calendar {
        self.d
            .calendar
            .as_ref()
            .expect("the calendar is set at the start")
    }
    fn cal_mut(&mut self) -> &mut Calendar {
        self.d
            .calendar
            .as_mut()
            .expect("the calendar is set at the start")
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "one roll's record, field by field; every caller names each part"
    )]
    fn roll(
        &mut self,
        purpose: &str,
        stream: String,
        dice: &str,
        result: i64,
        odds: &BigRational,
        odds_of: &str,
        outcome: String,
    ) {
        self.d.rolls.push(Roll {
            command: self.command,
            purpose: purpose.into(),
            stream,
            dice: dice.into(),
            result,
            odds: fraction(odds),
            odds_of: odds_of.into(),
            outcome,
        });
    }

    fn start(&mut self) -> Result<(), StepProblem> {
        let year = self.setup.year;
        self.d.calendar = Some(Calendar {
            year,
            week: 0,
            months_closed: 0,
            next: String::new(),
        });
        let recruits = recruits(self.lib, self.setup)?;
        for (i, r) in recruits.into_iter().enumerate() {
            let (assignment, from) = match (&r.assignment, &r.sheet) {
                (Some(a), Some(_)) => (a.clone(), "sheet"),
                (Some(a), None) => (a.clone(), "given"),
                (None, _) => {
                    let mut rng = stream(self.setup.seed, ASSIGNMENT, i as u64);
                    let t = blockprint_content::roll::roll_table(
                        self.lib,
                        blockprint_content::roll::detective::ASSIGNMENT,
                        &mut rng,
                    )
                    .map_err(|source| StepProblem::RollAssignment {
                        name: r.name.clone(),
                        source,
                    })?;
                    let odds = self.row_odds(&t);
                    self.roll(
                        "least-wanted assignment",
                        format!("assignment {i}"),
                        &t.dice,
                        t.roll,
                        &odds,
                        &format!("row {}", t.on),
                        format!("{}: {}", r.name, t.text),
                    );
                    (t.text, "rolled")
                }
            };
            self.d.detectives.push(Detective {
                name: r.name,
                class: r.class,
                assignment,
                assignment_from: from.into(),
                sheet: r.sheet,
                commanding_officer_name: r.commanding_officer,
                commissioner_name: r.commissioner,
                commanding_officer_strained: false,
                commissioner_strained: false,
                on_squad: true,
                left: None,
            });
        }
        // Every detective starts with one open case, received on the campaign's first day.
        let times = starting_arrivals(self.setup.seed, year, self.d.detectives.len())?;
        let names: Vec<String> = self.d.detectives.iter().map(|d| d.name.clone()).collect();
        for (name, t) in names.into_iter().zip(times) {
            self.add_case(name, true, 1, t);
        }
        Ok(())
    }

    fn row_odds(&self, t: &blockprint_content::roll::TableRoll) -> BigRational {
        let Some(dist) = blockprint_dice::parse(&t.dice)
            .ok()
            .and_then(|e| e.distribution().ok())
        else {
            return BigRational::zero();
        };
        let max = dist.max().to_integer().to_i64().unwrap_or(0);
        match blockprint_content::text::parse_on(&t.on, max) {
            Ok(range) => dist.probability_where(|v| {
                v.is_integer() && v.to_integer().to_i64().is_some_and(|v| range.contains(v))
            }),
            Err(_) => BigRational::zero(),
        }
    }

    fn add_case(&mut self, lead: String, starting: bool, week: u32, t: DateTime) -> String {
        let year = self.cal().year;
        let n = self.d.cases.iter().filter(|c| c.year == year).count() as u32 + 1;
        let number = format!("{year}-{n:02}");
        self.d.cases.push(Case {
            number: number.clone(),
            year,
            n,
            seed: blockprint_content::roll::case::case_seed(
                case_batch_seed(self.setup.seed, year),
                n,
            ),
            lead: lead.clone(),
            received_by: lead,
            starting,
            week,
            came_in: stamp(t),
            status: "open".into(),
            closed_year: None,
            closed_week: None,
            closed_by: None,
        });
        number
    }

    fn open_count(&self, name: &str) -> usize {
        self.d
            .cases
            .iter()
            .filter(|c| c.is_open() && c.lead == name)
            .count()
    }

    /// The detective on the squad with the fewest open cases; ties broken by a roll on `rng_of` (logged).
    fn pick_lead(
        &mut self,
        purpose: &str,
        stream_name: String,
        rng: &mut ChaCha20Rng,
        what: &str,
    ) -> Result<Option<String>, StepProblem> {
        let on: Vec<String> = self
            .d
            .detectives
            .iter()
            .filter(|d| d.on_squad)
            .map(|d| d.name.clone())
            .collect();
        let Some(fewest) = on.iter().map(|n| self.open_count(n)).min() else {
            return Ok(None);
        };
        let tied: Vec<String> = on
            .into_iter()
            .filter(|n| self.open_count(n) == fewest)
            .collect();
        if tied.len() == 1 {
            return Ok(tied.into_iter().next());
        }
        let dice = format!("1d{}", tied.len());
        let (v, odds) = roll_at_most(&dice, rng, 1)?;
        let chosen = tied[(v.max(1) as usize - 1).min(tied.len() - 1)].clone();
        self.roll(
            purpose,
            stream_name,
            &dice,
            v,
            &odds,
            "each of the tied detectives",
            format!(
                "{what}: {} tied on {fewest} open case{} ({}); {chosen} leads",
                tied.len(),
                if fewest == 1 { "" } else { "s" },
                tied.join(", ")
            ),
        );
        Ok(Some(chosen))
    }

    fn apply(&mut self, step: &Step) -> Result<(), StepProblem> {
        match step {
            Step::Week => self.week(),
            Step::Close { case } => self.close(case),
            Step::Month => self.month(),
            Step::Year { top_brass } => self.year(top_brass),
            Step::Mend {
                detective,
                relationship,
            } => self.mend(detective, *relationship),
        }
    }

    fn week(&mut self) -> Result<(), StepProblem> {
        let Calendar {
            year,
            week,
            months_closed,
            ..
        } = self.cal().clone();
        if week >= WEEKS_PER_YEAR {
            return Err(StepProblem::YearPlayed { year });
        }
        if week >= WEEKS_PER_MONTH * (months_closed + 1) {
            return Err(StepProblem::MonthPlayed {
                month: months_closed + 1,
                year,
            });
        }
        if !self.d.detectives.iter().any(|d| d.on_squad) {
            return Err(StepProblem::SquadGone);
        }
        let w = week + 1;
        self.cal_mut().week = w;
        let mut rng = stream(self.setup.seed, WEEK, week_index(year, w));
        let (v, odds) = roll_at_most(NEW_CASE_DIE, &mut rng, NEW_CASE_AT_MOST)?;
        let (month, k) = month_of(w);
        let label = format!(
            "week {w} of {year} ({}, week {k}: {})",
            MONTH_NAMES[(month - 1) as usize],
            week_span(year, w)
        );
        if v > NEW_CASE_AT_MOST {
            self.roll(
                "new-case check",
                format!("week {year}/{w}"),
                NEW_CASE_DIE,
                v,
                &odds,
                "a new case (1–2)",
                format!("{label}: no new case"),
            );
            return Ok(());
        }
        let after = self
            .d
            .cases
            .iter()
            .filter(|c| c.year == year)
            .filter_map(|c| parse_stamp(&c.came_in))
            .max();
        let t = case_arrival(self.setup.seed, year, w, after)?;
        let mut lead_rng = stream(self.setup.seed, LEAD, week_index(year, w));
        let next_number = format!(
            "{year}-{:02}",
            self.d.cases.iter().filter(|c| c.year == year).count() + 1
        );
        let lead = self
            .pick_lead(
                "lead tie-break",
                format!("lead {year}/{w}"),
                &mut lead_rng,
                &format!("case {next_number}"),
            )?
            .unwrap_or_default();
        // The check is logged before the tie-break it led to.
        let tie = self
            .d
            .rolls
            .pop_if(|r| r.purpose == "lead tie-break" && r.command == self.command);
        let number = self.add_case(lead.clone(), false, w, t);
        self.roll(
            "new-case check",
            format!("week {year}/{w}"),
            NEW_CASE_DIE,
            v,
            &odds,
            "a new case (1–2)",
            format!(
                "{label}: case {number} comes in {} {}, lead {lead}",
                t.weekday(),
                stamp(t)
            ),
        );
        self.d.rolls.extend(tie);
        Ok(())
    }

    fn close(&mut self, number: &str) -> Result<(), StepProblem> {
        let Calendar {
            year,
            week,
            months_closed,
            ..
        } = self.cal().clone();
        let Some(i) = self.d.cases.iter().position(|c| c.number == number.trim()) else {
            let open: Vec<String> = self
                .d
                .cases
                .iter()
                .filter(|c| c.is_open())
                .map(|c| c.number.clone())
                .collect();
            return Err(StepProblem::NoSuchCase {
                number: number.to_owned(),
                open,
            });
        };
        if !self.d.cases[i].is_open() {
            let c = &self.d.cases[i];
            return Err(StepProblem::CaseClosed {
                number: c.number.clone(),
                week: c.closed_week.unwrap_or(0),
                year: c.closed_year.unwrap_or(year),
            });
        }
        if week == 0 {
            return Err(StepProblem::NoWeek { year });
        }
        if week <= WEEKS_PER_MONTH * months_closed {
            return Err(StepProblem::MonthClosed {
                month: months_closed,
                year,
            });
        }
        let c = &mut self.d.cases[i];
        c.status = "closed".into();
        c.closed_year = Some(year);
        c.closed_week = Some(week);
        c.closed_by = Some(c.lead.clone());
        Ok(())
    }

    fn mend(&mut self, name: &str, r: Relation) -> Result<(), StepProblem> {
        let d = self.find(name)?;
        let strained = match r {
            Relation::CommandingOfficer => &mut d.commanding_officer_strained,
            Relation::Commissioner => &mut d.commissioner_strained,
        };
        if !*strained {
            return Err(StepProblem::NotStrained {
                name: d.name.clone(),
                relation: r,
            });
        }
        *strained = false;
        Ok(())
    }

    fn find(&mut self, name: &str) -> Result<&mut Detective, StepProblem> {
        let names: Vec<String> = self.d.detectives.iter().map(|d| d.name.clone()).collect();
        self.d
            .detectives
            .iter_mut()
            .find(|d| d.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| StepProblem::NoSuchDetective {
                name: name.to_owned(),
                detectives: names,
            })
    }

    /// Cases `name` received and closed in `month` of `year` (a month of 0 counts the whole year).
    fn counts(&self, name: Option<&str>, year: i32, month: u32) -> (u32, u32) {
        let in_month = |y: i32, w: u32| y == year && (month == 0 || month_of(w).0 == month);
        let received = self
            .d
            .cases
            .iter()
            .filter(|c| name.is_none_or(|n| c.received_by == n) && in_month(c.year, c.week))
            .count() as u32;
        let closed = self
            .d
            .cases
            .iter()
            .filter(|c| {
                name.is_none_or(|n| c.closed_by.as_deref() == Some(n))
                    && matches!((c.closed_year, c.closed_week), (Some(y), Some(w)) if in_month(y, w))
            })
            .count() as u32;
        (received, closed)
    }

    fn month(&mut self) -> Result<(), StepProblem> {
        let Calendar {
            year,
            week,
            months_closed,
            ..
        } = self.cal().clone();
        if months_closed >= MONTHS_PER_YEAR {
            return Err(StepProblem::YearClosed { year });
        }
        let m = months_closed + 1;
        let due = WEEKS_PER_MONTH * m;
        if week < due {
            return Err(StepProblem::MonthNotOver {
                month: m,
                year,
                played: WEEKS_PER_MONTH - (due - week),
            });
        }
        self.cal_mut().months_closed = m;
        let month_name = MONTH_NAMES[(m - 1) as usize];
        for i in 0..self.d.detectives.len() {
            if !self.d.detectives[i].on_squad {
                continue;
            }
            let name = self.d.detectives[i].name.clone();
            let (received, closed) = self.counts(Some(&name), year, m);
            let rate = (received > 0)
                .then(|| BigRational::new(BigInt::from(closed), BigInt::from(received)));
            // The year-to-date average of the monthly rates that exist (this month's included).
            let mut rates: Vec<BigRational> = self
                .d
                .months
                .iter()
                .filter(|r| r.year == year && r.detective == name)
                .filter_map(|r| r.rate.as_deref().and_then(parse_fraction))
                .collect();
            rates.extend(rate.clone());
            let average = (!rates.is_empty()).then(|| {
                rates.iter().fold(BigRational::zero(), |a, b| a + b)
                    / BigRational::from_integer(BigInt::from(rates.len()))
            });
            let mut result = MonthResult {
                year,
                month: m,
                detective: name.clone(),
                received,
                closed,
                rate: rate.as_ref().map(fraction),
                average: average.as_ref().map(fraction),
                target: None,
                roll: None,
                outcome: "no roll: no month of the year has a closure rate yet (house ruling bbb.ruling.empty_month)".into(),
            };
            if let Some(avg) = &average {
                let target = target_of(avg);
                let index = ((week_index(year, 0) / 64) << 12) | (u64::from(m) << 8) | i as u64;
                let mut rng = stream(self.setup.seed, MONTH, index);
                let (v, odds) = roll_at_most(PERCENT_DIE, &mut rng, i64::from(target))?;
                let outcome = if v <= i64::from(target) {
                    format!("kept: the commanding officer is satisfied ({v} ≤ {target})")
                } else {
                    format!(
                        "failed ({v} > {target}): {}",
                        self.strain(i, year, month_name)
                    )
                };
                result.target = Some(target);
                result.roll = Some(v as u32);
                result.outcome = outcome.clone();
                self.roll(
                    "paperwork: commanding officer",
                    format!("month {year}/{m}/{i}"),
                    PERCENT_DIE,
                    v,
                    &odds,
                    &format!("the relationship holds (≤ {target})"),
                    format!(
                        "{name}, {month_name} {year}: average {} → {outcome}",
                        percent(avg)
                    ),
                );
            }
            self.d.months.push(result);
        }
        self.reassign(&format!("{month_name} {year}"))?;
        Ok(())
    }

    /// A failed paperwork roll: strain the commanding officer; already strained → the commissioner;
    /// already strained → off the squad. What happened, in words.
    fn strain(&mut self, i: usize, year: i32, when: &str) -> String {
        let d = &mut self.d.detectives[i];
        if !d.commanding_officer_strained {
            d.commanding_officer_strained = true;
            "the relationship with the commanding officer is strained".into()
        } else if !d.commissioner_strained {
            d.commissioner_strained = true;
            "the commanding officer was already strained, so it goes upstairs: the relationship with the commissioner is strained".into()
        } else {
            d.on_squad = false;
            d.left = Some(format!(
                "{when} {year}: thrown off the squad to {}",
                d.assignment
            ));
            format!(
                "both relationships were already strained: off the squad, to {}",
                d.assignment
            )
        }
    }

    /// Hand the open cases of detectives who left the squad to those still on it, one by one in case
    /// order, each to the one with the fewest open cases (`bbb.ruling.campaign_reassign`).
    fn reassign(&mut self, when: &str) -> Result<(), StepProblem> {
        let gone: Vec<String> = self
            .d
            .detectives
            .iter()
            .filter(|d| !d.on_squad)
            .map(|d| d.name.clone())
            .collect();
        for i in 0..self.d.cases.len() {
            let c = &self.d.cases[i];
            if !c.is_open() || !gone.contains(&c.lead) {
                continue;
            }
            let index = week_index(c.year, 0) * 1024 + u64::from(c.n);
            let (number, from) = (c.number.clone(), c.lead.clone());
            let mut rng = stream(self.setup.seed, REASSIGN, index);
            let what = format!("case {number}, from {from} ({when})");
            if let Some(lead) = self.pick_lead(
                "reassignment tie-break",
                format!("reassign {number}"),
                &mut rng,
                &what,
            )? {
                self.d.cases[i].lead = lead;
            }
        }
        Ok(())
    }

    fn year(&mut self, top_brass: &[String]) -> Result<(), StepProblem> {
        let Calendar {
            year,
            months_closed,
            ..
        } = self.cal().clone();
        if months_closed < MONTHS_PER_YEAR {
            return Err(StepProblem::YearNotOver {
                year,
                closed: months_closed,
            });
        }
        for n in top_brass {
            let d = self.find(n)?;
            if !d.on_squad {
                return Err(StepProblem::OffSquad {
                    name: d.name.clone(),
                });
            }
        }
        let (sr, sc) = self.counts(None, year, 0);
        let squad = (sr > 0).then(|| BigRational::new(BigInt::from(sc), BigInt::from(sr)));
        for i in 0..self.d.detectives.len() {
            if !self.d.detectives[i].on_squad {
                continue;
            }
            let name = self.d.detectives[i].name.clone();
            let (r, c) = self.counts(Some(&name), year, 0);
            let personal = (r > 0).then(|| BigRational::new(BigInt::from(c), BigInt::from(r)));
            let rates: Vec<&BigRational> = squad.iter().chain(personal.iter()).collect();
            let chance = (!rates.is_empty()).then(|| {
                rates.iter().fold(BigRational::zero(), |a, b| a + *b)
                    / BigRational::from_integer(BigInt::from(rates.len()))
            });
            let mut result = YearResult {
                year,
                detective: name.clone(),
                squad_rate: squad.as_ref().map(fraction),
                personal_rate: personal.as_ref().map(fraction),
                chance: chance.as_ref().map(fraction),
                target: None,
                roll: None,
                outcome: "no roll: neither the squad nor the detective received a new case this year (house ruling bbb.ruling.campaign_year_rates)".into(),
            };
            if let Some(ch) = &chance {
                let target = target_of(ch);
                let index = ((year as u64) << 8) | i as u64;
                let mut rng = stream(self.setup.seed, YEAR, index);
                let (v, odds) = roll_at_most(PERCENT_DIE, &mut rng, i64::from(target))?;
                let wants_out = top_brass
                    .iter()
                    .any(|n| n.trim().eq_ignore_ascii_case(&name));
                let outcome = if v <= i64::from(target) {
                    format!("kept: not demoted ({v} ≤ {target})")
                } else {
                    let d = &mut self.d.detectives[i];
                    if wants_out && !d.commissioner_strained {
                        d.commissioner_strained = true;
                        format!(
                            "failed ({v} > {target}), but the top brass is leaned on: the relationship with the commissioner is strained and the detective stays"
                        )
                    } else {
                        d.on_squad = false;
                        d.left = Some(format!("end of {year}: demoted to {}", d.assignment));
                        let why = if wants_out {
                            " (the relationship with the top brass was already strained)"
                        } else {
                            ""
                        };
                        format!("failed ({v} > {target}): demoted, to {}{why}", d.assignment)
                    }
                };
                result.target = Some(target);
                result.roll = Some(v as u32);
                result.outcome = outcome.clone();
                self.roll(
                    "year end: demotion",
                    format!("year {year}/{i}"),
                    PERCENT_DIE,
                    v,
                    &odds,
                    &format!("not demoted (≤ {target})"),
                    format!("{name}, end of {year}: chance {} → {outcome}", percent(ch)),
                );
            }
            self.d.years.push(result);
        }
        self.reassign(&format!("end of {year}"))?;
        let cal = self.cal_mut();
        cal.year = year + 1;
        cal.week = 0;
        cal.months_closed = 0;
        Ok(())
    }

    fn set_next(&mut self) {
        let c = self.cal().clone();
        let next = if !self.d.detectives.iter().any(|d| d.on_squad) {
            "nothing: nobody is left on the squad".to_owned()
        } else if c.months_closed == MONTHS_PER_YEAR {
            format!("year: the end of {}", c.year)
        } else if c.week == WEEKS_PER_MONTH * (c.months_closed + 1) {
            format!(
                "month: the end of {} {}",
                MONTH_NAMES[c.months_closed as usize], c.year
            )
        } else {
            let w = c.week + 1;
            let (m, k) = month_of(w);
            format!(
                "week {w} of {} ({}, week {k}: {})",
                c.year,
                MONTH_NAMES[(m - 1) as usize],
                week_span(c.year, w)
            )
        };
        self.cal_mut().next = next;
    }
}
