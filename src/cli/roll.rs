//! `blockprint roll`: roll a dice expression or a table with a seeded ChaCha20 generator; results on stdout,
//! the seed on stderr when it was chosen at random.

use serde::Serialize;

use crate::content::ContentRoot;
use crate::dice;
use crate::roll::{self, TableRoll};

use super::Status;

#[derive(Serialize)]
struct ExprRolls {
    expr: String,
    seed: u64,
    rolls: Vec<dice::Rolled>,
}

#[derive(Serialize)]
struct TableRolls {
    table: String,
    seed: u64,
    rolls: Vec<TableRoll>,
}

pub(super) fn expr(src: &str, seed: Option<u64>, count: u32, json: bool) -> Status {
    let expr = match dice::parse(src) {
        Ok(e) => e,
        Err(e) => {
            eprint!("{}", super::expr_error(src, &e));
            return Status::Rules;
        }
    };
    super::odds::warn_success_targets(&expr);
    let seed = super::seed_or_fresh(seed, "rolls");
    let mut rng = roll::rng(seed);
    let mut rolls = Vec::new();
    for _ in 0..count {
        match expr.roll(&mut rng) {
            Ok(r) => rolls.push(r),
            Err(e) => {
                eprintln!("error[bad_dice]: `{src}`: {}", e.message);
                return Status::Rules;
            }
        }
    }
    if json {
        return super::print_json(&ExprRolls {
            expr: src.to_owned(),
            seed,
            rolls,
        });
    }
    for r in &rolls {
        outln!("{}", r.detail);
    }
    Status::Ok
}

pub(super) fn table(
    root: &ContentRoot,
    id: &str,
    seed: Option<u64>,
    count: u32,
    json: bool,
) -> Status {
    let (lib, _) = match super::checked_tables(root) {
        Ok(x) => x,
        Err(s) => return s,
    };
    if lib.table(id).is_none() {
        eprintln!("error: no table `{id}` in {}", root.label());
        let ids = lib.tables.iter().map(|t| t.id.value.as_str());
        if let Some(hint) = crate::content::near::did_you_mean(id, ids) {
            eprintln!("  = help: {hint}");
        } else {
            eprintln!("  = help: `blockprint tables` lists every table id");
        }
        return Status::Rules;
    }
    let seed = super::seed_or_fresh(seed, "rolls");
    let mut rng = roll::rng(seed);
    let mut rolls = Vec::new();
    for _ in 0..count {
        match roll::roll_table(&lib, id, &mut rng) {
            Ok(r) => rolls.push(r),
            Err(e) => {
                eprintln!("error: {e}");
                return Status::Rules;
            }
        }
    }
    if json {
        return super::print_json(&TableRolls {
            table: id.to_owned(),
            seed,
            rolls,
        });
    }
    for r in &rolls {
        outln!("{} ({}) → {}: {}", r.dice, r.roll, r.on, r.text);
    }
    Status::Ok
}
