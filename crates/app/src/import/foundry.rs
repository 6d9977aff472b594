//! Foundry VTT's side of `import`: RollTable documents (v12 and v13 schemas) in one JSON file or a folder
//! of them, each a draft with its formula, ranges and results; links between tables kept as placeholders
//! for the driver to resolve.

use super::*;

pub(super) fn files(path: &Path, drafts: &mut Vec<Draft>, skipped: &mut Vec<String>) -> Result<()> {
    if path.is_dir() {
        let mut files = Vec::new();
        walk(path, &mut files).map_err(|e| Error::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        files.sort();
        for f in files {
            let bytes = read(&f)?;
            let shown = f.display().to_string();
            match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Ok(v) if is_roll_table(&v) => drafts.push(foundry_table(&shown, &f, &v)?),
                _ => skipped.push(shown),
            }
        }
        return Ok(());
    }
    let bytes = read(path)?;
    let shown = path.display().to_string();
    let v: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        refuse_file(
            &shown,
            format!("not JSON ({e})"),
            "export the table from Foundry with \"Export Data\" (a .json file), or name the folder that holds such files",
        )
    })?;
    // One document, or an array of them.
    let docs: Vec<&serde_json::Value> = match &v {
        serde_json::Value::Array(a) => a.iter().collect(),
        one => vec![one],
    };
    let mut any = false;
    for doc in docs {
        if is_roll_table(doc) {
            drafts.push(foundry_table(&shown, path, doc)?);
            any = true;
        }
    }
    if !any {
        return Err(refuse_file(
            &shown,
            "holds no RollTable (a Foundry RollTable has `name` and `results`)",
            "export a RollTable with \"Export Data\" in Foundry's Roll Tables directory",
        ));
    }
    Ok(())
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    Ok(())
}

fn is_roll_table(v: &serde_json::Value) -> bool {
    v.get("results").is_some_and(|r| r.is_array()) && v.get("name").is_some_and(|n| n.is_string())
}

fn foundry_table(shown: &str, path: &Path, v: &serde_json::Value) -> Result<Draft> {
    let name = v["name"].as_str().unwrap_or_default().to_owned();
    let bad = |why: String| {
        refuse(
            shown,
            &name,
            why,
            "export the table again from Foundry (\"Export Data\"), or fix the JSON by hand",
        )
    };
    let fid = v.get("_id").and_then(|i| i.as_str()).map(str::to_owned);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // blockprint names an exported table's file by its id (`.` as `_`) and derives `_id` from the id:
    // find the id whose `_id` it is.
    let id = fid.as_deref().and_then(|fid| {
        let parts: Vec<&str> = stem.split('_').collect();
        if parts.len() > 12 {
            return None;
        }
        (0u32..1 << (parts.len() - 1)).find_map(|mask| {
            let mut cand = parts[0].to_owned();
            for (k, p) in parts[1..].iter().enumerate() {
                cand.push(if mask & (1 << k) != 0 { '.' } else { '_' });
                cand.push_str(p);
            }
            (valid_id(&cand) && export::foundry::table_id(&cand) == fid).then_some(cand)
        })
    });
    let results = v["results"].as_array().cloned().unwrap_or_default();
    if results.is_empty() {
        return Err(bad("it has no results".into()));
    }
    let mut rows = Vec::new();
    let mut weights = Vec::new();
    let mut ranges_ok = true;
    for r in &results {
        let text = foundry_result(r).map_err(|why| {
            refuse(
                shown,
                &name,
                why,
                "write the roll in plain dice (`[[1d6+1]]`), or take it out of the result, and import again",
            )
        })?;
        let range = r
            .get("range")
            .and_then(|x| x.as_array())
            .and_then(|a| Some((a.first()?.as_i64()?, a.get(1)?.as_i64()?)));
        match range {
            Some((lo, hi)) if lo <= hi && !(lo == 0 && hi == 0) => {
                rows.push((on(lo, hi), text.clone()))
            }
            _ => ranges_ok = false,
        }
        let w = r
            .get("weight")
            .map(|w| w.to_string())
            .unwrap_or_else(|| "1".into());
        weights.push((w, text));
    }
    let formula = v
        .get("formula")
        .and_then(|f| f.as_str())
        .unwrap_or("")
        .trim();
    let mut added_note = None;
    let dice = if !ranges_ok {
        let (dice, r, note) = weighted(shown, &name, weights)?;
        rows = r;
        added_note = note;
        dice
    } else if formula.is_empty() {
        let hi = results
            .iter()
            .filter_map(|r| r.get("range")?.get(1)?.as_i64())
            .max()
            .unwrap_or(1);
        format!("1d{hi}")
    } else {
        from_foundry(formula).map_err(|why| {
            refuse(
                shown,
                &name,
                format!("its formula `{formula}` cannot be read: {why}"),
                "set the table's formula in Foundry to plain dice blockprint reads (`2d6`, `1d20+1`, `4d6kh3`, `1d6x`), or import it as CSV with a dice column",
            )
        })?
    };
    let _ = bad;
    let note = v
        .get("description")
        .and_then(|d| d.as_str())
        .map(html_text)
        .filter(|n| !n.trim().is_empty());
    Ok(Draft {
        name: name.clone(),
        id,
        title: name.clone(),
        dice,
        note,
        rows,
        source: shown.to_owned(),
        file_name: path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        format: Format::Foundry,
        group: None,
        foundry_id: fid,
        added_note,
    })
}

/// A TableResult's text: a link to a table as a placeholder `{foundry:ID|Title}`, HTML as text, rolls as
/// blockprint's.
fn foundry_result(r: &serde_json::Value) -> std::result::Result<String, String> {
    let s = |k: &str| r.get(k).and_then(|x| x.as_str()).unwrap_or("");
    let kind = r.get("type").map(|t| match t {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) if n.as_i64() == Some(1) => "document".into(),
        _ => "text".into(),
    });
    let v13 = r.get("name").is_some()
        || r.get("description").is_some()
        || r.get("documentUuid").is_some();
    let linked = if v13 {
        s("documentUuid")
            .strip_prefix("RollTable.")
            .map(str::to_owned)
    } else if s("documentCollection") == "RollTable" {
        Some(s("documentId").to_owned()).filter(|i| !i.is_empty())
    } else {
        None
    };
    if kind.as_deref() == Some("document") {
        let shown = if v13 { s("name") } else { s("text") };
        let text = inline_rolls(shown, from_foundry)?;
        // The result names the linked table by its title: that title becomes the reference.
        return Ok(match linked {
            Some(id) => format!("{{docref:{id}}}{text}"),
            None => text,
        });
    }
    let html = if v13 {
        if s("description").is_empty() {
            return inline_rolls(s("name"), from_foundry);
        }
        s("description")
    } else {
        s("text")
    };
    let text = html_text(html);
    let text = links(&text);
    inline_rolls(&text, from_foundry)
}

/// `@UUID[RollTable.ID]{Title}` (and the older `@RollTable[ID]{Title}`) as `{foundry:ID|Title}`.
fn links(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    loop {
        let at = [rest.find("@UUID[RollTable."), rest.find("@RollTable[")]
            .into_iter()
            .flatten()
            .min();
        let Some(at) = at else { break };
        let head = if rest[at..].starts_with("@UUID[RollTable.") {
            "@UUID[RollTable.".len()
        } else {
            "@RollTable[".len()
        };
        let after = &rest[at + head..];
        let parsed = after.split_once(']').and_then(|(id, tail)| {
            let tail = tail.strip_prefix('{')?;
            let (title, tail) = tail.split_once('}')?;
            Some((id, title, tail))
        });
        match parsed {
            Some((id, title, tail)) => {
                out.push_str(&rest[..at]);
                out.push_str(&format!("{{foundry:{id}|{title}}}"));
                rest = tail;
            }
            None => {
                out.push_str(&rest[..at + head]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// HTML as text: one paragraph `<p>…</p>` unwrapped, paragraphs apart by a blank line, `<br>` a line
/// break, other tags dropped, the entities Foundry writes undone.
fn html_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    let mut first_p = true;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let Some(gt) = rest[lt..].find('>') else {
            out.push_str(&rest[lt..]);
            rest = "";
            break;
        };
        let tag = rest[lt + 1..lt + gt].trim().to_ascii_lowercase();
        let name = tag
            .trim_start_matches('/')
            .split([' ', '/'])
            .next()
            .unwrap_or("");
        match (name, tag.starts_with('/')) {
            ("br", _) => out.push('\n'),
            ("p", false) => {
                if !first_p {
                    out.push_str("\n\n");
                }
                first_p = false;
            }
            _ => {}
        }
        rest = &rest[lt + gt + 1..];
    }
    out.push_str(rest);
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}
