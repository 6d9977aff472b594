//! The spreadsheet side of `import`: blockprint's own CSV files (ranges, `tables.csv`, the pipe form) and
//! the common `weight,result` and `range,result` shapes.

use super::*;

pub(super) fn file(path: &Path, drafts: &mut Vec<Draft>) -> Result<()> {
    let shown = path.display().to_string();
    let bytes = read(path)?;
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(&bytes)
        .to_vec();
    let text = String::from_utf8(bytes).map_err(|_| {
        refuse_file(
            &shown,
            "is not UTF-8 text",
            "save the spreadsheet as CSV UTF-8",
        )
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file_name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let draft = |name: &str, title: String, dice: String, rows, note, group| Draft {
        name: name.to_owned(),
        id: valid_id(name).then(|| name.to_owned()),
        title,
        dice,
        note: None,
        rows,
        source: shown.clone(),
        file_name: file_name.clone(),
        format: Format::Csv,
        group,
        foundry_id: None,
        added_note: note,
    };
    let first = text.lines().next().unwrap_or("");
    // The pipe form: `01-04|result` per line.
    if is_pipe_line(first) {
        let mut rows = Vec::new();
        let mut hi_max = 0;
        for (lo, hi, t) in blockprint_kinds::export::csv::read_pipe(&text) {
            if lo < 1 || hi < lo {
                return Err(refuse(
                    &shown,
                    &stem,
                    format!("a range does not read as numbers from 1 up: `{lo}-{hi}`"),
                    "write each line as `N|result` or `N-M|result`",
                ));
            }
            hi_max = hi_max.max(hi);
            let t = inline_rolls(&t, from_foundry).map_err(|why| {
                refuse(
                    &shown,
                    &stem,
                    why,
                    "write the roll as plain dice (`[[1d6]]`) and import again",
                )
            })?;
            rows.push((on(lo, hi), t));
        }
        drafts.push(draft(
            &stem,
            title_of(&stem),
            format!("1d{hi_max}"),
            rows,
            None,
            None,
        ));
        return Ok(());
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records: Vec<Vec<String>> = Vec::new();
    for r in reader.records() {
        let r = r.map_err(|e| {
            refuse_file(
                &shown,
                format!("does not read as CSV: {e}"),
                "save it again as CSV (comma-separated, UTF-8)",
            )
        })?;
        records.push(r.iter().map(str::to_owned).collect());
    }
    let Some(head) = records.first() else {
        return Err(refuse_file(
            &shown,
            "is empty",
            "name a CSV file with a table's rows",
        ));
    };
    let head: Vec<String> = head.iter().map(|h| h.trim().to_ascii_lowercase()).collect();
    let col = |names: &[&str]| head.iter().position(|h| names.contains(&h.as_str()));
    let result_col = col(&["result", "text", "name", "item"]);
    let num = |s: &str, what: &str, table: &str| {
        s.trim().parse::<i64>().map_err(|_| {
            refuse(
                &shown,
                table,
                format!("the {what} `{s}` is not a whole number"),
                "write every range as whole numbers",
            )
        })
    };
    let field = |r: &[String], i: usize| r.get(i).cloned().unwrap_or_default();
    if let (Some(id_c), Some(title_c), Some(dice_c), Some(lo_c), Some(hi_c), Some(res_c)) = (
        col(&["table_id"]),
        col(&["title"]),
        col(&["dice"]),
        col(&["range_start"]),
        col(&["range_end"]),
        result_col,
    ) {
        // blockprint's tables.csv: several tables, with their dice.
        let mut order: Vec<(String, String, String)> = Vec::new();
        let mut rows: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        for r in &records[1..] {
            let id = field(r, id_c);
            if !order.iter().any(|(i, _, _)| *i == id) {
                order.push((id.clone(), field(r, title_c), field(r, dice_c)));
            }
            let lo = num(&field(r, lo_c), "range start", &id)?;
            let hi = num(&field(r, hi_c), "range end", &id)?;
            rows.entry(id)
                .or_default()
                .push((on(lo, hi), field(r, res_c)));
        }
        let several = order.len() > 1;
        for (i, (id, title, dice)) in order.into_iter().enumerate() {
            let dice = from_foundry(&dice).map_err(|why| {
                refuse(
                    &shown,
                    &id,
                    format!("its dice `{dice}` cannot be read: {why}"),
                    "write the dice column as plain dice (`2d6`, `1d20+1`)",
                )
            })?;
            let r = rows.remove(&id).unwrap_or_default();
            drafts.push(draft(
                &id,
                title,
                dice,
                r,
                None,
                several.then(|| (stem.clone(), i)),
            ));
        }
        return Ok(());
    }
    let Some(res_c) = result_col.or((head.len() == 2 && is_range(&head[0])).then_some(1)) else {
        return Err(refuse_file(
            &shown,
            format!("its header `{}` names no result column", head.join(",")),
            "start the file with a header: `weight,result`, `range,result` or `range_start,range_end,result`",
        ));
    };
    let headerless = result_col.is_none();
    let body = if headerless {
        &records[..]
    } else {
        &records[1..]
    };
    if let (Some(lo_c), Some(hi_c)) = (col(&["range_start"]), col(&["range_end"])) {
        // blockprint's per-table CSV: ranges, no dice. Every total from the first to the last is taken
        // as equally likely.
        let mut rows = Vec::new();
        let (mut lo_min, mut hi_max) = (i64::MAX, i64::MIN);
        for r in body {
            let lo = num(&field(r, lo_c), "range start", &stem)?;
            let hi = num(&field(r, hi_c), "range end", &stem)?;
            lo_min = lo_min.min(lo);
            hi_max = hi_max.max(hi);
            rows.push((on(lo, hi), field(r, res_c)));
        }
        let (dice, note) = span_dice(lo_min, hi_max);
        drafts.push(draft(&stem, title_of(&stem), dice, rows, note, None));
        return Ok(());
    }
    if let Some(w_c) = col(&["weight", "weights", "chance"]) {
        let items = body
            .iter()
            .map(|r| (field(r, w_c), field(r, res_c)))
            .collect();
        let (dice, rows, note) = weighted(&shown, &stem, items)?;
        drafts.push(draft(&stem, title_of(&stem), dice, rows, note, None));
        return Ok(());
    }
    let range_c = col(&["range", "roll", "on", "d"]).unwrap_or(0);
    let mut rows = Vec::new();
    let (mut lo_min, mut hi_max) = (i64::MAX, i64::MIN);
    for r in body {
        let range = field(r, range_c);
        let (lo, hi) = match range.trim().split_once(['-', '–']) {
            Some((a, b)) => (num(a, "range", &stem)?, num(b, "range", &stem)?),
            None => {
                let n = num(&range, "range", &stem)?;
                (n, n)
            }
        };
        lo_min = lo_min.min(lo);
        hi_max = hi_max.max(hi);
        rows.push((on(lo, hi), field(r, res_c)));
    }
    let (dice, note) = span_dice(lo_min, hi_max);
    drafts.push(draft(&stem, title_of(&stem), dice, rows, note, None));
    Ok(())
}

fn is_range(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.split(['-', '–'])
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

fn is_pipe_line(line: &str) -> bool {
    line.split_once('|').is_some_and(|(r, _)| is_range(r))
}

/// Dice for ranges from `lo` to `hi` with no dice named: one die, shifted when the first total is not 1.
fn span_dice(lo: i64, hi: i64) -> (String, Option<String>) {
    let faces = hi - lo + 1;
    let dice = match lo - 1 {
        0 => format!("1d{faces}"),
        s if s > 0 => format!("1d{faces}+{s}"),
        s => format!("1d{faces}{s}"),
    };
    let note = (lo != 1).then(|| {
        format!("The file names no dice: every total from {lo} to {hi} is taken as equally likely.")
    });
    (dice, note)
}
