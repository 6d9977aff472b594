//! Roll20's side of `import`: the TableExport script's chat commands, each table's weights turned into
//! ranges of one die that adds them up.

use super::*;

pub(super) fn file(path: &Path, drafts: &mut Vec<Draft>) -> Result<()> {
    let shown = path.display().to_string();
    let bytes = read(path)?;
    let text = String::from_utf8(bytes).map_err(|_| {
        refuse_file(
            &shown,
            "is not UTF-8 text",
            "save the commands as UTF-8 text",
        )
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut order: Vec<String> = Vec::new();
    let mut items: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("!import-table-item") {
            let args = export::roll20::split_args(rest);
            let name = args.first().cloned().unwrap_or_default();
            let item = export::roll20::unescape(args.get(1).map(String::as_str).unwrap_or(""));
            let weight = args
                .get(2)
                .map(|w| w.trim().to_owned())
                .unwrap_or_else(|| "1".into());
            if !order.contains(&name) {
                order.push(name.clone());
            }
            let text = inline_rolls(&item, from_roll20).map_err(|why| {
                refuse(
                    &shown,
                    &name,
                    format!("line {}: {why}", n + 1),
                    "write the roll as Roll20's plain dice (`[[2d6+1]]`, `[[5d6>6]]`) or take it out, and import again",
                )
            })?;
            items.entry(name).or_default().push((weight, text));
        } else if let Some(rest) = line.strip_prefix("!import-table") {
            let args = export::roll20::split_args(rest);
            let name = args.first().cloned().unwrap_or_default();
            if !order.contains(&name) {
                order.push(name);
            }
        } else {
            return Err(refuse_file(
                &shown,
                format!(
                    "line {} is not a TableExport command: `{}`",
                    n + 1,
                    line.chars().take(60).collect::<String>()
                ),
                "give the file TableExport's `!export-table` output: lines of `!import-table` and `!import-table-item`",
            ));
        }
    }
    let several = order.len() > 1;
    for (i, name) in order.iter().enumerate() {
        let list = items.remove(name).unwrap_or_default();
        if list.is_empty() {
            return Err(refuse(
                &shown,
                name,
                "it has no items",
                "add its `!import-table-item` lines, or remove its `!import-table` line",
            ));
        }
        let (dice, rows, note) = weighted(&shown, name, list)?;
        drafts.push(Draft {
            name: name.clone(),
            id: valid_id(name).then(|| name.clone()),
            title: title_of(name),
            dice,
            note: None,
            rows,
            source: shown.clone(),
            file_name: path
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            format: Format::Roll20,
            group: several.then(|| (stem.clone(), i)),
            foundry_id: None,
            added_note: note,
        });
    }
    Ok(())
}
