//! The seeded simulator and `chase play`: the system's own `step`, with every chance point sampled from a
//! ChaCha20 stream (dice rolled face by face, cards drawn), optionally logged; and the replay that checks
//! a log against the rules.

use num_traits::ToPrimitive;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

use crate::budget::{Budget, Stop};
use crate::model::{Chance, Check, Event, P, System};
use crate::odds::{Method, Odds, all_endings};

/// Samples every chance point; logs them when `log` is on.
struct Sampler {
    rng: ChaCha20Rng,
    log: Option<Vec<Event>>,
    /// Chance points sampled (the simulation's work).
    points: u64,
}

impl Chance for Sampler {
    fn roll(&mut self, who: &str, what: &str, check: &dyn Check) -> i64 {
        self.points += 1;
        let (faces, outcome) = check.roll(&mut self.rng);
        if let Some(log) = &mut self.log {
            log.push(Event::Roll {
                who: who.into(),
                what: what.into(),
                dice: check.describe(),
                faces,
                outcome,
                result: check.outcome_label(outcome),
            });
        }
        outcome
    }

    fn draw(&mut self, who: &str, what: &str, n: usize) -> usize {
        self.points += 1;
        let index = self.rng.random_range(0..n as u64) as usize;
        if let Some(log) = &mut self.log {
            log.push(Event::Draw {
                who: who.into(),
                what: what.into(),
                index,
                of: n,
            });
        }
        index
    }

    fn pick(&mut self, what: &str, weights: &[P]) -> usize {
        self.points += 1;
        let u: f64 = self.rng.random::<f64>();
        let mut acc = 0.0;
        let mut index = weights.len() - 1;
        for (i, w) in weights.iter().enumerate() {
            let w = w.to_f64().unwrap_or(0.0);
            if w > 0.0 {
                acc += w;
                index = i;
                if u < acc {
                    break;
                }
            }
        }
        if let Some(log) = &mut self.log {
            log.push(Event::Pick {
                what: what.into(),
                index,
            });
        }
        index
    }

    fn note(&mut self, line: &dyn Fn() -> String) {
        if let Some(log) = &mut self.log {
            log.push(Event::Note { text: line() });
        }
    }
}

/// Simulated odds: up to `runs` chases from `seed`, fewer when their work (units played and chance
/// points sampled) reaches `budget.sim_work`, and then the reason says how many and why. A policy that
/// needs preparing ([`System::prepare`]) is prepared first within `budget.exact_work`; past that, or
/// once the question is cancelled, the error says so.
pub fn simulate<S: System>(
    sys: &S,
    policy: usize,
    runs: u64,
    seed: u64,
    reason: &str,
    budget: &Budget,
) -> Result<Odds, Stop> {
    sys.prepare(policy, &mut budget.exact_meter())?;
    let info = sys.info();
    let n_end = info.endings.len();
    let max = sys.max_units() as usize;
    let mut counts: Vec<Vec<u64>> = vec![vec![0; max + 1]; n_end + 1];
    let mut s = Sampler {
        rng: ChaCha20Rng::seed_from_u64(seed),
        log: None,
        points: 0,
    };
    let mut done = 0u64;
    let mut work = 0u64;
    while done < runs && work < budget.sim_work {
        if done.is_multiple_of(256) && budget.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        s.points = 0;
        let (e, t) = run_one(sys, policy, n_end, max, &mut s);
        counts[e][t] += 1;
        done += 1;
        work += t as u64 + 1 + s.points;
    }
    budget
        .spent
        .fetch_add(work, std::sync::atomic::Ordering::Relaxed);
    let reason = if done < runs {
        format!(
            "{reason}; {done} chases rather than {runs}, as a simulation stops at its budget of {} units of work ({} played and rolls made)",
            budget.sim_work, info.unit.many
        )
    } else {
        reason.to_string()
    };
    let runs = done;
    Ok(Odds::from_counts(
        &info,
        policy,
        counts,
        runs,
        Method::Simulated { runs, seed, reason },
        max as u64,
    ))
}

/// One chase: (ending index, `n_end` for called off; length).
fn run_one<S: System>(
    sys: &S,
    policy: usize,
    n_end: usize,
    max: usize,
    s: &mut Sampler,
) -> (usize, usize) {
    let mut state = sys.start(s);
    for t in 0..=max {
        if let Some(e) = sys.ending(&state) {
            return (e, t);
        }
        if t == max {
            break;
        }
        state = sys.step(&state, policy, s);
    }
    (n_end, max)
}

/// One unit of a played chase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// 0 for the set-up before the first unit, then 1, 2, …
    pub unit: u64,
    pub events: Vec<Event>,
    /// Where everyone stands afterwards.
    pub position: String,
}

/// The log of `chase play`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayLog {
    pub system: String,
    pub system_name: String,
    pub seed: u64,
    pub policy: crate::model::Policy,
    /// What was asked for, in words ("quarry level 2, pursuer level 3, …").
    pub setup: String,
    pub unit: crate::model::Unit,
    pub steps: Vec<Step>,
    /// The ending's id and label.
    pub ending: String,
    pub ending_label: String,
    pub length: u64,
    /// The house rulings the chase was played under, each with its reason.
    #[serde(default)]
    pub rulings: Vec<crate::model::Ruling>,
}

/// Play one chase from `seed`, logging every roll, card and position. A policy that needs preparing is
/// prepared first within `budget.exact_work`; past that, or cancelled, the error says so.
pub fn play<S: System>(
    sys: &S,
    policy: usize,
    seed: u64,
    setup: &str,
    budget: &Budget,
) -> Result<PlayLog, Stop> {
    sys.prepare(policy, &mut budget.exact_meter())?;
    let info = sys.info();
    let names = all_endings(&info);
    let max = sys.max_units() as u64;
    let mut s = Sampler {
        rng: ChaCha20Rng::seed_from_u64(seed),
        log: Some(Vec::new()),
        points: 0,
    };
    let mut state = sys.start(&mut s);
    let mut steps = vec![Step {
        unit: 0,
        events: s.log.replace(Vec::new()).unwrap_or_default(),
        position: sys.describe(&state),
    }];
    let mut t = 0u64;
    let end = loop {
        if let Some(e) = sys.ending(&state) {
            break e;
        }
        if t == max {
            break info.endings.len();
        }
        state = sys.step(&state, policy, &mut s);
        t += 1;
        steps.push(Step {
            unit: t,
            events: s.log.replace(Vec::new()).unwrap_or_default(),
            position: sys.describe(&state),
        });
    };
    Ok(PlayLog {
        system: info.id.clone(),
        system_name: info.name.clone(),
        seed,
        policy: info.policies[policy].clone(),
        setup: setup.into(),
        unit: info.unit.clone(),
        steps,
        ending: names[end].0.clone(),
        ending_label: names[end].1.clone(),
        length: t,
        rulings: info.rulings.clone(),
    })
}

/// Feeds a log's recorded results back into `step`, checking each against the rules.
struct Replayer<'a> {
    events: &'a [Event],
    at: usize,
    error: Option<String>,
}

impl Replayer<'_> {
    fn next_event(&mut self) -> Option<&Event> {
        let e = self.events.get(self.at);
        self.at += 1;
        e
    }

    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
    }
}

impl Chance for Replayer<'_> {
    fn roll(&mut self, who: &str, what: &str, check: &dyn Check) -> i64 {
        let at = self.at;
        match self.next_event().cloned() {
            Some(Event::Roll {
                who: w,
                what: x,
                dice,
                faces,
                outcome,
                result,
            }) => {
                if w != who || x != what || dice != check.describe() {
                    self.fail(format!(
                        "event {at}: the rules call for {who}: {what} ({}), the log has {w}: {x} ({dice})",
                        check.describe()
                    ));
                }
                match check.judge(&faces) {
                    Some(o) if o == outcome && result == check.outcome_label(o) => {}
                    Some(o) => self.fail(format!(
                        "event {at}: faces {faces:?} give {} ({o}), the log says {result} ({outcome})",
                        check.outcome_label(o)
                    )),
                    None => self.fail(format!(
                        "event {at}: {faces:?} is no roll of {}",
                        check.describe()
                    )),
                }
                outcome
            }
            other => {
                self.fail(format!(
                    "event {at}: the rules call for a roll ({who}: {what}), the log has {other:?}"
                ));
                check.outcomes().first().map_or(0, |o| o.1)
            }
        }
    }

    fn draw(&mut self, who: &str, what: &str, n: usize) -> usize {
        let at = self.at;
        match self.next_event().cloned() {
            Some(Event::Draw {
                who: w,
                what: x,
                index,
                of,
            }) if w == who && x == what && of == n && index < n => index,
            other => {
                self.fail(format!(
                    "event {at}: the rules call for a draw of 1 in {n} ({who}: {what}), the log has {other:?}"
                ));
                0
            }
        }
    }

    fn pick(&mut self, what: &str, weights: &[P]) -> usize {
        let at = self.at;
        match self.next_event().cloned() {
            Some(Event::Pick { what: x, index })
                if x == what
                    && index < weights.len()
                    && weights[index] > P::from_integer(0.into()) =>
            {
                index
            }
            other => {
                self.fail(format!(
                    "event {at}: the rules call for a pick ({what}), the log has {other:?}"
                ));
                weights
                    .iter()
                    .position(|w| *w > P::from_integer(0.into()))
                    .unwrap_or(0)
            }
        }
    }

    fn note(&mut self, line: &dyn Fn() -> String) {
        // A note must stand where the rules write it, with the same words.
        let at = self.at;
        let text = line();
        match self.next_event().cloned() {
            Some(Event::Note { text: t }) if t == text => {}
            other => self.fail(format!(
                "event {at}: the rules note `{text}`, the log has {other:?}"
            )),
        }
    }
}

/// Check a log against the rules: every unit is re-played from the previous state with the log's
/// recorded dice, cards and picks; each roll's faces must give the logged result under the check the rules
/// call for, each event must be the one the rules call for next, the positions must match, and the
/// chase must end as logged. `Err` says where it first departs.
pub fn replay<S: System>(sys: &S, policy: usize, log: &PlayLog) -> Result<(), String> {
    let names = all_endings(&sys.info());
    let Some(first) = log.steps.first() else {
        return Err("the log has no steps".into());
    };
    let mut r = Replayer {
        events: &first.events,
        at: 0,
        error: None,
    };
    let mut state = sys.start(&mut r);
    check_unit(&r, first, &sys.describe(&state))?;
    for step in &log.steps[1..] {
        if sys.ending(&state).is_some() {
            return Err(format!("unit {}: the chase had already ended", step.unit));
        }
        let mut r = Replayer {
            events: &step.events,
            at: 0,
            error: None,
        };
        state = sys.step(&state, policy, &mut r);
        check_unit(&r, step, &sys.describe(&state))?;
    }
    let end = match sys.ending(&state) {
        Some(e) => e,
        None if log.length == sys.max_units() as u64 => names.len() - 1,
        None => return Err("the chase has not ended where the log stops".into()),
    };
    if names[end].0 != log.ending || log.length + 1 != log.steps.len() as u64 {
        return Err(format!(
            "the rules end it `{}` after {}, the log `{}` after {}",
            names[end].0,
            log.steps.len() - 1,
            log.ending,
            log.length
        ));
    }
    Ok(())
}

fn check_unit(r: &Replayer<'_>, step: &Step, position: &str) -> Result<(), String> {
    if let Some(e) = &r.error {
        return Err(format!("unit {}: {e}", step.unit));
    }
    if r.at < step.events.len() {
        return Err(format!(
            "unit {}: the log has events the rules do not call for, from {:?}",
            step.unit, step.events[r.at]
        ));
    }
    if step.position != position {
        return Err(format!(
            "unit {}: the rules leave `{position}`, the log `{}`",
            step.unit, step.position
        ));
    }
    Ok(())
}
